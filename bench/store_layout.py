"""Measure the results-folder layout: narrow reads against full scans, in the same run.

Writes a synthetic folder (default 1,000 questions x 2 models x 512 samples = 1M
samples with ~200-character texts), then times:
  - per-question verdict counts (projection: keys + status) vs reading every column;
  - one question's completions via the row-group index vs a pyarrow dataset filter
    (which also prunes by statistics but reopens every footer) and vs read-all-then-filter.
Prints times and ratios. Usage: python bench/store_layout.py [--questions N] [--samples K]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sampler.store.folder import ResultsFolder
from sampler.store.manifest import new_manifest
from sampler.store.schema import BenchmarkEntry, ModelEntry
from sampler.store.shards.reader import row_groups_touched
from sampler.store.shards.writer import append_samples, create_results


def build(root: Path, questions: int, samples: int, shards: int = 4) -> int:
    create_results(
        root,
        new_manifest(
            models=[ModelEntry("base", "base"), ModelEntry("rl", "target")],
            benchmarks=[BenchmarkEntry("synth")],
        ),
    )
    rng = np.random.default_rng(0)
    filler = " Let us compute step by step." * 6
    qids = np.array([f"{i:05d}" for i in range(questions)])
    total = 0
    for part in np.array_split(np.arange(questions), shards):
        n = len(part) * 2 * samples
        q = np.repeat(qids[part], 2 * samples)
        model = np.tile(np.repeat(np.array(["base", "rl"]), samples), len(part))
        sample = np.tile(np.arange(samples, dtype=np.int32), 2 * len(part))
        ok = rng.random(n) < 0.4
        table = pa.table(
            {
                "benchmark": pa.array(["synth"] * n),
                "question_id": pa.array(q),
                "model": pa.array(model),
                "sample": pa.array(sample),
                "text": pa.array(
                    [
                        f"{a}/{b}/{c}{filler} {r}"
                        for a, b, c, r in zip(q, model, sample, ok, strict=True)
                    ],
                    pa.large_string(),
                ),
                "status": pa.array(np.where(ok, "correct", "incorrect")),
                "correct": pa.array(ok),
            }
        )
        append_samples(root, table)
        total += n
    return total


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=512)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "res"
        start = time.perf_counter()
        total = build(root, args.questions, args.samples)
        print(f"built {total:,} samples in {time.perf_counter() - start:.1f} s")
        results = ResultsFolder.open(root)
        paths = [str(p) for p in results.shard_paths()]

        t_counts = best(results.verdict_counts, 3)
        t_full = best(lambda: ds.dataset(paths, format="parquet").to_table(), 3)
        print(f"verdict counts (projection):  {t_counts * 1000:8.1f} ms")
        print(
            f"read every column (baseline): {t_full * 1000:8.1f} ms"
            f"   ratio {t_full / t_counts:.1f}x"
        )

        qid = f"{args.questions // 2:05d}"
        results._row_group_index  # noqa: B018 - build the footer index once, as the explorer does
        t_one = best(lambda: results.question_samples("synth", qid))
        t_scan = best(
            lambda: ds.dataset(paths, format="parquet").to_table(
                filter=(pc.field("benchmark") == "synth") & (pc.field("question_id") == qid)
            ),
            3,
        )
        groups = row_groups_touched(results, "synth", qid)
        print(
            f"one question via row groups:  {t_one * 1000:8.1f} ms"
            f"   ({groups} of {len(results._row_group_index)} row groups)"
        )
        print(
            f"dataset filter w/ pushdown:   {t_scan * 1000:8.1f} ms   ratio {t_scan / t_one:.1f}x"
        )
        t_naive = best(
            lambda: (
                ds.dataset(paths, format="parquet")
                .to_table()
                .filter(pc.field("question_id") == qid)
            ),
            1,
        )
        print(
            f"read all, then filter:        {t_naive * 1000:8.1f} ms   ratio {t_naive / t_one:.1f}x"
        )


if __name__ == "__main__":
    main()
