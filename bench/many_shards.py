"""``leash report`` on a folder of many small shards (or varied answers) against DuckDB.

Issue 24: imports stage a shard per 32 MB of text, so paper-length completions give shards
of a few thousand samples, and the report's cost grew with the shard count (8,138 shards
of 25 million samples: 13 s, against 1.1 s for a DuckDB P/E/S/O query on the same files).
This bench writes a synthetic folder with leash's own shard writer (footer summaries
included) split into ``--shards`` shards, and its shard index as a writing command ends,
then times, best of ``--repeat``:

- the store's key statistics (``ResultsFolder.key_stats``: the shard index),
- CPU time of the fresh-process reports (user + sys: what a loaded machine's wall
  time hides),
- the whole report in this process (``load_report_data`` + ``build_report`` + JSON,
  no intervals),
- ``leash report --format json`` in a fresh process (its bytecode cached, as in a user's
  shell), with its default intervals (first with no resample cached, then again:
  report.resample_cache) and with ``--bootstrap 0``,
- a DuckDB query of the same P/E/S/O per benchmark over ``samples/*.parquet``
  (skipped with a message when ``duckdb`` is not installed: ``pip install duckdb``), in
  this process and, like leash's report, in a fresh process (Python's start and
  ``import duckdb`` included) with its CPU time (user + sys of all its threads: DuckDB's
  threads lose more wall time to a loaded machine than leash's one),

checks that DuckDB and leash agree, and prints the ratios, of wall and of CPU time
(``--recount`` adds a report that counts every sample again, ``--no-cache``); with
``--compact`` it then runs ``leash compact`` on the folder and times the report again.
``--answers`` sets how many wrong answers each question's wrong samples are drawn from
(real base models: hundreds).
Defaults fit a 2-core machine (400k samples, 400 shards, under a minute); ``--samples
25000000 --shards 8138`` is the issue's shape, ``--per-question 4096`` the paper's k
(8,192 samples per question), and ``--shards 13 --answers 1000 --per-question 4096`` the
issue's varied answers (about 980 distinct per question and model; at 256 samples per
model, as many as the samples allow).

    python bench/many_shards.py
    python bench/many_shards.py --shards 2000 --answers 1000 --folder /tmp/ms
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BENCHMARKS = ("bench_a", "bench_b", "bench_c", "bench_d")
MODELS = ("base", "rlvr")


def build_folder(
    root: Path, samples: int, shards: int, per_question: int, answers: int, index: bool = True
) -> int:
    """Write about ``samples`` samples in ``shards`` shards; return how many were written."""
    import numpy as np
    import pyarrow as pa

    from sampler.store import ResultsFolder
    from sampler.store.manifest import new_manifest
    from sampler.store.schema import BenchmarkEntry, ModelEntry
    from sampler.store.shards.writer import questions_table

    rng = np.random.default_rng(0)
    questions = max(len(BENCHMARKS), samples // (per_question * len(MODELS)))
    manifest = new_manifest(
        models=[ModelEntry("base", "base"), ModelEntry("rlvr", "target")],
        benchmarks=[BenchmarkEntry(b, domain="math") for b in BENCHMARKS],
        synthetic=True,
        notes="bench/many_shards.py synthetic folder",
    )
    folder = ResultsFolder.create(root, manifest)
    bench = np.array(BENCHMARKS)[np.arange(questions) % len(BENCHMARKS)]
    qid = np.char.zfill((np.arange(questions) // len(BENCHMARKS)).astype(str), 6)
    gold = rng.integers(0, 10**6, size=questions)
    folder.merge_questions(
        questions_table(
            [
                {"benchmark": b, "question_id": q, "problem": f"Problem {q}?", "gold": str(g)}
                for b, q, g in zip(bench.tolist(), qid.tolist(), gold.tolist(), strict=True)
            ]
        )
    )
    p_base = rng.beta(0.3, 0.6, size=questions) * (rng.random(questions) > 0.2)
    p_target = np.clip(p_base + rng.normal(0, 0.2, questions), 0, 1) * (
        rng.random(questions) > 0.15
    )
    # rows in the shard sort order (benchmark, question id, model, sample), made one shard
    # at a time so that 25 million samples need the memory of one shard
    order = np.lexsort((qid, bench))
    group = per_question * len(MODELS)
    rows = questions * group
    bounds = np.linspace(0, rows, shards + 1).astype(np.int64)
    for number, (start, stop) in enumerate(itertools.pairwise(bounds.tolist())):
        if stop <= start:
            continue
        r = np.arange(start, stop, dtype=np.int64)
        q = order[r // group]
        m = (r // per_question) % len(MODELS)
        s = (r % per_question).astype(np.int32)
        part = np.random.default_rng([0, number])
        correct = part.random(r.size) < np.where(m == 0, p_base[q], p_target[q])
        wrong = gold[q] + 1 + part.integers(0, answers, size=r.size)
        answer = np.where(correct, gold[q], wrong).astype(str)
        table = pa.table(
            {
                "benchmark": pa.array(bench[q]),
                "question_id": pa.array(qid[q]),
                "model": pa.array(np.array(MODELS)[m]),
                "sample": pa.array(s),
                "text": pa.array(np.char.add("The answer is ", answer), pa.large_string()),
                "n_tokens": pa.array(part.integers(50, 4000, size=r.size).astype(np.int32)),
                "finish_reason": pa.array(np.full(r.size, "stop")),
                "answer": pa.array(answer),
                "correct": pa.array(correct),
                "status": pa.array(np.where(correct, "correct", "incorrect")),
                "token_entropy": pa.array(part.gamma(2.0, 0.2, size=r.size)),
            }
        )
        folder.append_samples(table)
    if index:
        folder.refresh_index()  # as an import, sample or verify does as it ends
    return rows


def duckdb_peso(folder: Path) -> dict[str, dict[str, int]] | None:
    """P/E/S/O per benchmark and overall by one DuckDB query (None: duckdb not installed)."""
    try:
        import duckdb
    except ImportError:
        return None
    query = f"""
        WITH per AS (
            SELECT benchmark, question_id,
                   max(CASE WHEN model = 'base' AND status = 'correct' THEN 1 ELSE 0 END) AS b,
                   max(CASE WHEN model = 'rlvr' AND status = 'correct' THEN 1 ELSE 0 END) AS t
            FROM read_parquet('{folder}/samples/part-*.parquet')
            GROUP BY benchmark, question_id
        )
        SELECT benchmark, sum(b * t), sum((1 - b) * t), sum(b * (1 - t)), sum((1 - b) * (1 - t))
        FROM per GROUP BY ROLLUP (benchmark)
    """
    rows = duckdb.connect().execute(query).fetchall()
    return {
        (name if name is not None else "overall"): dict(zip("PESO", map(int, v), strict=True))
        for name, *v in rows
    }


def leash_peso(folder: Path) -> dict[str, dict[str, int]]:
    from leash_tui.report.build import build_report
    from leash_tui.report.data import load_report_data
    from leash_tui.report.render import render_json

    rows = json.loads(render_json(build_report(load_report_data(folder))))["rows"]
    return {
        r["name"]: {k: r[k] for k in "PESO"} for r in rows if r["scope"] in ("benchmark", "overall")
    }


def child_cpu(repeat: int, work) -> float:
    """The least CPU time (user + sys) the child processes of ``work()`` took: what a
    loaded machine's wall time hides."""
    import resource

    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        work()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best = min(best, used)
    return best


def best_of(repeat: int, work) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400_000)
    parser.add_argument("--shards", type=int, default=400)
    parser.add_argument("--per-question", type=int, default=256, help="samples per model")
    parser.add_argument("--answers", type=int, default=5, help="distinct wrong answers")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path, help="keep (and reuse) the folder here")
    parser.add_argument("--compact", action="store_true", help="then compact and time again")
    parser.add_argument(
        "--recount", action="store_true", help="also time `leash report --no-cache` (once)"
    )
    parser.add_argument("--duckdb-query", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.duckdb_query is not None:  # the fresh DuckDB process timed below
        duckdb_peso(args.duckdb_query)
        return

    scratch = None
    caches: list[Path] = []
    if args.folder is None:
        scratch = Path(tempfile.mkdtemp(prefix="leash-many-shards-"))
        folder = scratch / "results"
    else:
        folder = args.folder
    try:
        built = not (folder / "manifest.json").exists()
        if built:
            start = time.perf_counter()
            n = build_folder(folder, args.samples, args.shards, args.per_question, args.answers)
            took = time.perf_counter() - start
            print(f"wrote {n:,} samples in {args.shards:,} shards in {took:.1f} s")
        from sampler.store.folder import ResultsFolder

        shards = len(ResultsFolder.open(folder).shard_paths())
        stats_s = best_of(args.repeat, lambda: ResultsFolder.open(folder).key_stats())
        report_s = best_of(args.repeat, lambda: leash_peso(folder))
        out = folder.parent / "many-shards-report.json"
        cmd = [sys.executable, "-m", "leash_tui", "report", str(folder), "--format", "json"]

        cache = Path(tempfile.mkdtemp(prefix="many-shards-cache-"))
        caches.append(cache)
        # as a user's shell runs it: bytecode cached (``__pycache__``, git ignores it),
        # even where PYTHONDONTWRITEBYTECODE is set (it costs 0.1 s a start)
        env = {**os.environ, "LEASH_CACHE_DIR": str(cache)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)

        def fresh() -> None:
            subprocess.run([*cmd, "-o", str(out)], check=True, cwd=ROOT, env=env)

        def first_report() -> None:  # nothing cached: every resample drawn
            shutil.rmtree(cache / "resamples", ignore_errors=True)
            fresh()

        first_s = best_of(args.repeat, first_report)
        first_cpu = child_cpu(args.repeat, first_report)
        fresh_s = best_of(args.repeat, fresh)

        def fresh_no_intervals() -> None:
            subprocess.run(
                [*cmd, "--bootstrap", "0", "-o", str(out)], check=True, cwd=ROOT, env=env
            )

        plain_s = best_of(args.repeat, fresh_no_intervals)
        plain_cpu = child_cpu(args.repeat, fresh_no_intervals)
        stats = ResultsFolder.open(folder).verdict_counts()
        print(
            f"{shards:,} shards, {stats.num_rows:,} (question, model) pairs"
            + (f", wrong answers drawn from {args.answers:,} per question" if built else "")
        )
        print(f"  store key statistics (in process)   {stats_s:7.3f} s")
        print(f"  report, in process                  {report_s:7.3f} s")
        print(f"  leash report, fresh process, first  {first_s:7.3f} s")
        print(f"  ... again (resamples cached)        {fresh_s:7.3f} s")
        print(f"  ... --bootstrap 0 (no intervals)    {plain_s:7.3f} s")
        print(
            f"  CPU s (user + sys, best of {args.repeat}): first {first_cpu:.2f},"
            f" --bootstrap 0 {plain_cpu:.2f}, the intervals {first_cpu - plain_cpu:.2f}"
            f" (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )
        expected = duckdb_peso(folder)
        if expected is None:
            print("  duckdb: not installed (pip install duckdb); comparison skipped")
            return
        duck_s = best_of(args.repeat, lambda: duckdb_peso(folder))

        def fresh_duckdb() -> None:
            query = [sys.executable, __file__, "--duckdb-query", str(folder)]
            subprocess.run(query, check=True, cwd=ROOT, env=env)

        duck_fresh_s = best_of(args.repeat, fresh_duckdb)
        duck_cpu = child_cpu(args.repeat, fresh_duckdb)
        got = leash_peso(folder)
        same = all(got.get(k) == v for k, v in expected.items())
        print(f"  DuckDB P/E/S/O query                {duck_s:7.3f} s")
        print(f"  ... in a fresh process              {duck_fresh_s:7.3f} s")
        print(
            f"  CPU s of the fresh processes: leash first {first_cpu:.2f}, DuckDB {duck_cpu:.2f}"
            f" (load {os.getloadavg()[0]:.1f})"
        )
        print(
            f"  ratio first report / DuckDB, fresh: wall {first_s / duck_fresh_s:.2f},"
            f" CPU {first_cpu / duck_cpu:.2f}"
        )
        print(f"  ratio report (in process) / DuckDB  {report_s / duck_s:7.2f}")
        print(f"  ratio report (fresh, first) / DuckDB {first_s / duck_s:6.2f}")
        print(f"  ratio report (fresh, again) / DuckDB {fresh_s / duck_s:6.2f}")
        print(f"  ratio --bootstrap 0 (fresh) / DuckDB {plain_s / duck_s:6.2f}")
        print(f"  same P/E/S/O as DuckDB: {'yes' if same else 'NO'}")
        if not same:
            sys.exit(1)
        if args.recount:  # every sample counted again from the rows: minutes at 25M, once
            recount_s = best_of(
                1,
                lambda: subprocess.run(
                    [*cmd, "--no-cache", "-o", str(out)], check=True, cwd=ROOT, env=env
                ),
            )
            print(f"  leash report --no-cache (fresh, once) {recount_s:5.1f} s")
            print(f"  ratio --no-cache / DuckDB           {recount_s / duck_s:7.1f}")
        if args.compact:
            from sampler.store import compact

            start = time.perf_counter()
            done = compact(ResultsFolder.open(folder))
            took = time.perf_counter() - start
            print(
                f"compacted {done.shards_before:,} -> {done.shards_after:,} shards in {took:.1f} s"
            )
            report_s = best_of(args.repeat, lambda: leash_peso(folder))
            fresh_s = best_of(args.repeat, fresh)
            print(f"  report, in process                  {report_s:7.3f} s")
            print(f"  leash report, fresh process         {fresh_s:7.3f} s")
            print(f"  ratio report (fresh) / DuckDB       {fresh_s / duck_s:7.2f}")
    finally:
        for cache in caches:
            shutil.rmtree(cache, ignore_errors=True)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
