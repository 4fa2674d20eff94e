"""Opening one paper-scale question: texts read by row against the old whole read, same run.

Writes a folder (2 models, a few questions, ``--k`` samples per model of
``--text-kb`` KB of text each, ``--distinct`` distinct answers per question and
model) in the writer's own shard layout, then, each in a fresh process:

- old: what the question screen did before: every column of the question's samples,
  completion texts included (``ResultsFolder.question_samples``), then the answer histograms;
- new: ``load_question_detail`` (narrow columns and locations, and the text of the
  sample each side opens on), then ``--steps`` samples stepped through one by one (the
  next key) and ``--steps`` jumps back and forth over the side.

Prints the time to a painted question (load + both texts) and peak resident memory
(VmHWM) of each. Goal (issue 24): under a second and a few hundred MB whatever k and
text length are. The paper's scale: ``--k 8192 --text-kb 40``.
Run: ``python bench/question_scale.py [--k 1024] [--text-kb 8] [--distinct 5] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("base", "rlvr")
QUESTIONS = 3
OPENED = "2"  # the middle question: its rows share row groups with its neighbours


def peak_rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def write_folder(root: Path, k: int, text_kb: int, distinct: int, seed: int = 0) -> int:
    """The bench folder, one shard per question (texts built in bulk); returns the rows."""
    import numpy as np
    import pyarrow as pa

    from sampler.store.manifest import new_manifest
    from sampler.store.schema import SAMPLES_DIR, BenchmarkEntry, ModelEntry
    from sampler.store.shards.writer import (
        create_results,
        merge_questions,
        questions_table,
        write_shard_file,
    )

    rng = np.random.default_rng(seed)
    create_results(
        root,
        new_manifest(
            models=[ModelEntry(m, "base" if i == 0 else "target") for i, m in enumerate(MODELS)],
            benchmarks=[BenchmarkEntry("paper", "math")],
            synthetic=True,
            notes="bench/question_scale.py synthetic folder",
        ),
    )
    ids = [str(q + 1) for q in range(QUESTIONS)]
    merge_questions(
        root,
        questions_table(
            [
                {"benchmark": "paper", "question_id": q, "problem": f"Problem {q}", "gold": "0"}
                for q in ids
            ]
        ),
    )
    size = text_kb * 1024
    rows = k * len(MODELS)
    alphabet = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz     \n0123456789+=", dtype=np.uint8)
    for q in ids:
        data = alphabet[rng.integers(0, alphabet.size, rows * size)]
        offsets = np.arange(rows + 1, dtype=np.int64) * size
        text = pa.LargeStringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data))
        answer_int = rng.integers(0, distinct, rows)
        answer = pa.array([f"{a}" for a in answer_int.tolist()], pa.string())
        correct = answer_int == 0
        table = pa.table(
            {
                "benchmark": pa.array(["paper"] * rows),
                "question_id": pa.array([q] * rows),
                "model": pa.array(np.repeat(np.array(MODELS), k)),
                "sample": pa.array(np.tile(np.arange(k, dtype=np.int32), len(MODELS))),
                "text": text,
                "n_tokens": pa.array(np.full(rows, size // 4, dtype=np.int32)),
                "finish_reason": pa.array(np.full(rows, "stop")),
                "answer": answer,
                "correct": pa.array(correct),
                "status": pa.array(np.where(correct, "correct", "incorrect")),
            }
        )
        write_shard_file(Path(root) / SAMPLES_DIR / f"part-bench-{q}.parquet", table)
        del data, text, table
    return rows * QUESTIONS


def measure(mode: str, folder: Path, steps: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from leash_tui.explorer.model.pair_view import QuestionRow
    from leash_tui.explorer.model.question_detail import load_question_detail, side_samples
    from sampler.store.folder import ResultsFolder

    results = ResultsFolder.open(folder)
    row = QuestionRow(
        index=0,
        benchmark="paper",
        question_id=OPENED,
        category="shrunk",
        n_base=1,
        c_base=1,
        n_target=1,
        c_target=0,
        k=1,
        fisher_p=None,
        losing_upper=None,
        pass1_base=None,
        pass1_target=None,
        problem=None,
        gold=None,
    )
    start = time.perf_counter()
    if mode == "old":
        columns = ["model", "sample", "text", "answer", "correct", "status", "finish_reason"]
        columns += ["n_tokens", "token_entropy", "score", "verdict_detail"]
        table = results.question_samples("paper", OPENED, columns=columns)
        sides = [side_samples(table, m) for m in MODELS]
        texts = [side.samples.slice(0, 1).to_pylist()[0]["text"] for side in sides]
        painted = time.perf_counter() - start
        step_ms: list[float] = []
        next_ms: list[float] = []
    else:
        detail = load_question_detail(results, row, MODELS[0], MODELS[1])
        sides = [detail.base, detail.target]
        texts = [side.sample(side.default_position("correct"))["text"] for side in sides]
        painted = time.perf_counter() - start
        step_ms, next_ms = [], []
        n = len(sides[1])
        start = n // 2
        for position in range(start, min(n, start + steps)):  # the next key, pressed on
            t = time.perf_counter()
            sides[1].sample(position)
            next_ms.append((time.perf_counter() - t) * 1000)
        for i in range(steps):  # jumps over the side, back and forth, the far end included
            position = (n - 1) if i == 0 else (i * 7919) % n
            t = time.perf_counter()
            sides[1].sample(position)
            step_ms.append((time.perf_counter() - t) * 1000)
    assert all(texts), "a side showed no text"
    return {
        "mode": mode,
        "samples_per_side": len(sides[0]),
        "painted_s": painted,
        "step_median_ms": statistics.median(step_ms) if step_ms else None,
        "step_max_ms": max(step_ms) if step_ms else None,
        "next_median_ms": statistics.median(next_ms) if next_ms else None,
        "peak_rss_mb": peak_rss_mb(),
    }


def child(mode: str, folder: Path, steps: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from bench.child_process import run_json_child

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [__file__, "--child", mode, str(folder), "--steps", str(steps)]
    return run_json_child(argv, env, mode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=1024, help="samples per model (paper: 8192)")
    parser.add_argument("--text-kb", type=int, default=8, help="KB of text a sample (paper: 40)")
    parser.add_argument("--distinct", type=int, default=5, help="distinct answers a side")
    parser.add_argument("--steps", type=int, default=20, help="samples stepped through (new)")
    parser.add_argument("--keep", type=Path, help="Folder for the synthetic data (kept).")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], Path(args.child[1]), args.steps)))
        return
    sys.path.insert(0, str(ROOT))
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="leash-question-bench-"))
    folder = workdir / f"k{args.k}-{args.text_kb}kb-{args.distinct}"
    try:
        if not (folder / "manifest.json").exists():
            start = time.perf_counter()
            rows = write_folder(folder, args.k, args.text_kb, args.distinct)
            print(f"wrote {rows:,} samples in {time.perf_counter() - start:.1f} s", flush=True)
        old = child("old", folder, args.steps)
        new = child("new", folder, args.steps)
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print(
        f"one question, {old['samples_per_side']:,} samples of {args.text_kb} KB per model, "
        f"{args.distinct} distinct answers"
    )
    print(f"  old (every text):  {old['painted_s']:6.2f} s   peak RSS {old['peak_rss_mb']:6.0f} MB")
    print(f"  new (text by row): {new['painted_s']:6.2f} s   peak RSS {new['peak_rss_mb']:6.0f} MB")
    print(
        f"  next sample: median {new['next_median_ms']:.1f} ms; a jump to any sample:"
        f" median {new['step_median_ms']:.0f} ms, max {new['step_max_ms']:.0f} ms"
    )
    print(
        f"  old/new: {old['painted_s'] / new['painted_s']:.1f}x time, "
        f"{old['peak_rss_mb'] / new['peak_rss_mb']:.1f}x memory"
    )
    print("goal: under a second and a few hundred MB whatever k and text length are")


if __name__ == "__main__":
    main()
