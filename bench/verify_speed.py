"""How much faster is ``leash verify`` than verifying every sample, one process, as is usual?

Builds a realistic corpus from the benchmark files: each question's reference
solution (or, where a benchmark has none, its problem) is a completion, ending in
a boxed answer drawn per sample from a handful of variants (the gold as written,
the gold in another spelling, three wrong answers, no answer at all), so that
each question's k samples hold a few distinct answers, as real samples do.

Then it verifies the corpus twice in the same run:

- naive: for every sample, extract, parse the gold and the answer with
  math-verify and verify, in one process, with no reuse (the loop of common
  evaluation scripts);
- leash: ``verify_results`` on a results folder holding the same samples
  (worker startup, reading and writing shards included), ``--repeat`` times on
  fresh copies; the median counts.

It checks the verdicts are identical, prints both times and the ratio, and, for
reference, the time and agreement of the commonest script of all, math-verify's
``parse`` on the whole completion. The one-process runs use math-verify as it
ships; one more (``two-stage``) uses leash's two-stage LaTeX parser
(``sampler.verify.answers.two_stage_parsing``) in the cached loop, to show how much of leash's
lead a one-process loop could get from the parser alone.

    python bench/verify_speed.py                       # k = 64, 20 questions per benchmark
    python bench/verify_speed.py --k 256 --per-benchmark 8 --workers 2

With ``--real`` it verifies instead 3,321 completions shaped like real harness outputs
(``bench/real_completions.py``: long chains of thought, tool-integrated output blocks,
LaTeX-heavy finals, nested fractions and powers, huge numbers, long expressions; built
from a seed, nothing downloaded) with the ``leash verify`` command itself, in a
subprocess, and prints its wall time, samples/s, the load average and every status
(``timeout`` must not occur); ``--profile`` then times each distinct answer in this
process and lists the slowest, with the rule that refused it, if one did
(``sampler.verify.answers.answer_size``, ``parse_depth``):

    python bench/verify_speed.py --real --workers 2 --profile
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyarrow as pa

from sampler.benchmarks.presets import PRESETS, load_benchmark_file
from sampler.store.manifest import new_manifest
from sampler.store.schema import BenchmarkEntry, ModelEntry
from sampler.store.shards.writer import (
    append_samples,
    create_results,
    merge_questions,
    questions_table,
)
from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.golds import gold_from_question

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "benchmarks"
BENCHMARKS = ("math500", "aime24", "amc23", "minerva_math", "olympiadbench")
_BOXED_RE = re.compile(r"\\boxed\s*\{")
_DIGITS_RE = re.compile(r"\d+")


def _unbox(text: str) -> str:
    """Reference solutions box their answer; drop the boxes so ours is the last one."""
    return _BOXED_RE.sub("{", text)


def _wrong(gold: str, rng: random.Random, n: int) -> str:
    """A wrong answer close to the gold: one number changed, or a term added."""
    numbers = list(_DIGITS_RE.finditer(gold))
    if numbers:
        hit = numbers[rng.randrange(len(numbers))]
        value = int(hit.group()) + n
        return gold[: hit.start()] + str(value) + gold[hit.end() :]
    return f"{gold} + {n}"


def _respelled(gold: str) -> str:
    """The gold in another, equivalent spelling (as samples write it)."""
    if "\\frac" in gold:
        return gold.replace("\\frac", "\\dfrac")
    if gold.lstrip("-").isdigit():
        return f"{gold}.0"
    return f"{{{gold}}}"


def build_corpus(data: Path, per_benchmark: int, k: int, seed: int = 0) -> tuple[list, list]:
    """(question rows, sample rows) for a results folder: k samples per question."""
    rng = random.Random(seed)
    questions: list[dict] = []
    samples: list[dict] = []
    for name in BENCHMARKS:
        path = data / name / "test.jsonl"
        if not path.exists():
            continue
        bench = load_benchmark_file(name, str(path), PRESETS[name].mapping)
        raw = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        records = [json.loads(line) for line in raw]
        picked = rng.sample(range(len(bench.questions)), min(per_benchmark, len(bench.questions)))
        for index in sorted(picked):
            q = bench.questions[index]
            questions.append(q.to_row())
            solution = records[index].get("solution") or q.problem
            if isinstance(solution, list):
                solution = "\n".join(str(s) for s in solution)
            body = _unbox(str(solution))
            gold = str(q.gold)
            variants = [gold, _respelled(gold), _wrong(gold, rng, 1), _wrong(gold, rng, 2)]
            variants.append(_wrong(gold, rng, 7))
            weights = [0.45, 0.1, 0.2, 0.1, 0.05]
            for s in range(k):
                if rng.random() < 0.1:  # cut off mid-solution, as at the token limit
                    text = f"Attempt {s}.\n{body[: len(body) // 2]}"
                else:
                    answer = rng.choices(variants, weights)[0]
                    text = f"Attempt {s}.\n{body}\n\nThe final answer is $\\boxed{{{answer}}}$."
                samples.append(
                    {
                        "benchmark": name,
                        "question_id": q.question_id,
                        "model": "base",
                        "sample": s,
                        "text": text,
                    }
                )
    return questions, samples


class _Deadline(BaseException):
    """Raised by the CPU-time timer in the one-process runs (a BaseException: nothing
    swallows it)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Deadline


def naive(
    questions: list[dict],
    samples: list[dict],
    library_cache: bool,
    deadline_s: float,
    two_stage: bool = False,
) -> tuple[list[str], float, float]:
    """Every sample extracted, parsed and verified from scratch, in this process.

    With ``library_cache`` math-verify keeps its own small cache of the last 20
    parsed LaTeX strings (which, samples being in question order, catches most
    repeats); without it every parse is done afresh. Each sample gets the same
    deadline as leash's (CPU seconds), by a SIGPROF timer, as one-process scripts bound
    their time.
    ``two_stage`` parses with leash's two-stage parser
    (``sampler.verify.answers.two_stage_parsing``), as leash's workers do: a reference for
    how much of leash's lead is the parser.
    """
    from math_verify import parser as mv_parser

    from sampler.verify.answers import two_stage_parsing
    from sampler.verify.answers.math_verifier import clear_caches, judge_safely
    from sampler.verify.answers.verdict import prepare_span

    if two_stage:
        two_stage_parsing.install()
        mv_parser.parse_latex_cached.cache_clear()

    golds = {
        (q["benchmark"], q["question_id"]): gold_from_question(q["gold"], q["metadata"])
        for q in questions
    }
    statuses = []
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    started = time.perf_counter()
    cpu = time.process_time()
    try:
        for row in samples:
            clear_caches()
            if not library_cache:
                mv_parser.parse_latex_cached.cache_clear()
                mv_parser.parse_expr_cached.cache_clear()
            span = extract_answer(row["text"])
            gold = golds[(row["benchmark"], row["question_id"])]
            if span is None:
                statuses.append("no_answer")
                continue
            signal.setitimer(signal.ITIMER_PROF, deadline_s)
            try:
                statuses.append(judge_safely(gold, prepare_span(span, gold)).status)
            except _Deadline:
                statuses.append("timeout")
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, previous)
        if two_stage:
            two_stage_parsing.uninstall()
    return statuses, time.perf_counter() - started, time.process_time() - cpu


def whole_text_script(questions: list[dict], samples: list[dict]) -> tuple[list[bool], float]:
    """The commonest script: math-verify's parse on the whole completion, then verify."""
    from math_verify import parse, verify

    golds = {(q["benchmark"], q["question_id"]): q["gold"] for q in questions}
    verdicts = []
    started = time.perf_counter()
    cpu = time.process_time()
    for row in samples:
        gold = parse("$" + golds[(row["benchmark"], row["question_id"])] + "$")
        verdicts.append(bool(verify(gold, parse(row["text"]))))
    return verdicts, time.perf_counter() - started, time.process_time() - cpu


def leash(
    questions: list[dict], samples: list[dict], workers: int | None, deadline_s: float
) -> tuple[list[str], float, object]:
    from sampler.store.folder import ResultsFolder
    from sampler.verify.run import verify_results
    from sampler.verify.workers.pool import VerifyPool

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "results"
        create_results(
            root,
            new_manifest(
                models=[ModelEntry("base", "base")],
                benchmarks=[BenchmarkEntry(b) for b in BENCHMARKS],
            ),
        )
        merge_questions(root, questions_table(questions))
        append_samples(root, pa.Table.from_pylist(samples))
        pool = VerifyPool(workers=workers, deadline_s=deadline_s)
        started = time.perf_counter()
        cpu = time.process_time()
        try:
            summary = verify_results(root, pool=pool)
            seconds = time.perf_counter() - started
        finally:
            pool.close()
        cpu = time.process_time() - cpu + pool.cpu_seconds()
        table = ResultsFolder.open(root).samples(
            columns=["benchmark", "question_id", "sample", "status"]
        )
        got = {
            (b, q, s): st
            for b, q, s, st in zip(
                table.column("benchmark").to_pylist(),
                table.column("question_id").to_pylist(),
                table.column("sample").to_pylist(),
                table.column("status").to_pylist(),
                strict=True,
            )
        }
    statuses = [got[(r["benchmark"], r["question_id"], r["sample"])] for r in samples]
    return statuses, seconds, cpu, summary


def _differences(a: list, b: list) -> list[int]:
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def _real_folder(root: Path, questions: list[dict], samples: list[dict]) -> None:
    from real_completions import BENCHMARK

    create_results(
        root,
        new_manifest(models=[ModelEntry("base", "base")], benchmarks=[BenchmarkEntry(BENCHMARK)]),
    )
    merge_questions(root, questions_table(questions))
    append_samples(root, pa.Table.from_pylist(samples))


def real_run(samples: int, workers: int | None, deadline_s: float, profile: bool) -> int:
    """``leash verify`` on completions shaped like real harness outputs (``--real``)."""
    import subprocess
    from collections import Counter

    from real_completions import build_real_corpus

    questions, rows, shapes = build_real_corpus(samples)
    print(f"real-shaped corpus: {len(questions)} questions, {len(rows):,} completions")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "results"
        _real_folder(root, questions, rows)
        command = [sys.executable, "-m", "leash_tui", "verify", str(root), "--json"]
        command += ["--deadline", str(deadline_s)] + (["-j", str(workers)] if workers else [])
        load = os.getloadavg()
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=_child_env())
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            return 1
        summary = json.loads(done.stdout)
        from sampler.store.folder import ResultsFolder

        table = ResultsFolder.open(root).samples(columns=["sample", "question_id", "status"])
        statuses = dict(
            zip(
                zip(table["question_id"].to_pylist(), table["sample"].to_pylist(), strict=True),
                table["status"].to_pylist(),
                strict=True,
            )
        )
    by_shape = Counter(
        (shape, statuses[(r["question_id"], r["sample"])])
        for shape, r in zip(shapes, rows, strict=True)
    )
    print(
        f"load average at start: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f};"
        f" at the end: {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores"
    )
    print(
        f"leash verify ({summary['workers']} workers, deadline {deadline_s:g} CPU s):"
        f" {seconds:.1f} s wall for {len(rows):,} samples ({len(rows) / seconds:.0f}/s),"
        f" {summary['verifier_calls']:,} verifier calls, {summary['calls_saved']:,} saved"
    )
    print("statuses:", ", ".join(f"{k} {v:,}" for k, v in sorted(summary["by_status"].items())))
    for shape in sorted({s for s, _ in by_shape}):
        counts = ", ".join(f"{st} {n}" for (sh, st), n in sorted(by_shape.items()) if sh == shape)
        print(f"  {shape:20} {counts}")
    timeouts = summary["by_status"].get("timeout", 0)
    if profile:
        profile_answers(questions, rows, shapes, deadline_s)
    if timeouts:
        print(f"{timeouts} samples timed out: a shape above needs a bound", file=sys.stderr)
    return 1 if timeouts else 0


def _child_env() -> dict[str, str]:
    """This checkout first on the child's path (``python -m leash_tui`` from here)."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    return env


def profile_answers(questions: list[dict], rows: list[dict], shapes: list[str], deadline_s: float):
    """CPU time of each distinct answer, judged in this process as a worker judges it; the
    slowest listed with their shape and verdict (a bound's reason, when one refused it)."""
    from sampler.verify.answers import two_stage_parsing
    from sampler.verify.answers.math_verifier import judge_safely
    from sampler.verify.answers.verdict import integer_verdict, prepare_span

    two_stage_parsing.install()
    golds = {q["question_id"]: gold_from_question(q["gold"], None) for q in questions}
    seen: dict = {}
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    try:
        for row, shape in zip(rows, shapes, strict=True):
            gold = golds[row["question_id"]]
            span = extract_answer(row["text"])
            if span is None:
                continue
            prepared = prepare_span(span, gold)
            if (gold, prepared) in seen:
                continue
            cpu = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, deadline_s)
            try:
                verdict = integer_verdict(gold, prepared) or judge_safely(gold, prepared)
                outcome = verdict.status + (f" ({verdict.detail})" if verdict.detail else "")
            except _Deadline:
                outcome = "timeout"
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            seen[(gold, prepared)] = (time.process_time() - cpu, shape, outcome, prepared.text)
    finally:
        signal.signal(signal.SIGPROF, previous)
    ranked = sorted(seen.values(), key=lambda v: -v[0])
    total = sum(v[0] for v in ranked)
    print(
        f"profile: {len(ranked):,} distinct answers, {total:.1f} CPU s in all (the judging"
        " two idle cores would share, without worker start-up); the slowest:"
    )
    for cpu, shape, outcome, text in ranked[:15]:
        print(f"  {cpu:6.3f} s  {shape:20} {outcome[:90]}")
        print(f"           {text[:100]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--per-benchmark", type=int, default=20, help="questions per benchmark")
    parser.add_argument("--k", type=int, default=64, help="samples per question")
    parser.add_argument("--workers", type=int, default=None, help="leash workers (default: cores)")
    parser.add_argument("--deadline", type=float, default=10.0, help="CPU seconds per answer")
    parser.add_argument(
        "--repeat", type=int, default=3, help="leash runs (each on a fresh folder); median shown"
    )
    parser.add_argument(
        "--baselines",
        default="script,fresh,cached,two-stage",
        help="which one-process runs to time: script (math-verify on whole completions),"
        " fresh (leash's rules, no reuse), cached (leash's rules, math-verify's own cache),"
        " two-stage (as cached, with leash's two-stage LaTeX parser: a reference, not a"
        " baseline); 'none' times leash alone",
    )
    parser.add_argument(
        "--real",
        action="store_true",
        help="leash verify on completions shaped like real harness outputs (real_completions)",
    )
    parser.add_argument("--samples", type=int, default=3321, help="--real: how many")
    parser.add_argument(
        "--profile", action="store_true", help="--real: time each distinct answer, slowest first"
    )
    args = parser.parse_args()
    if args.real:
        return real_run(args.samples, args.workers, args.deadline, args.profile)
    wanted = {b.strip() for b in args.baselines.split(",") if b.strip()}
    if not args.data.is_dir():
        print(f"no benchmark files at {args.data}", file=sys.stderr)
        return 2
    questions, samples = build_corpus(args.data, args.per_benchmark, args.k)
    n = len(samples)
    print(f"corpus: {len(questions)} questions x {args.k} samples = {n} samples")
    load = os.getloadavg()[0]
    timed = [leash(questions, samples, args.workers, args.deadline) for _ in range(args.repeat)]
    leash_status, _, _, summary = timed[0]
    if any(t[0] != leash_status for t in timed):
        print("VERDICTS DIFFER between repeated leash runs", file=sys.stderr)
        return 1
    leash_s = statistics.median(t[1] for t in timed)
    leash_cpu = statistics.median(t[2] for t in timed)
    runs = {}
    if "script" in wanted:
        runs["script"] = whole_text_script(questions, samples)
    if "fresh" in wanted:
        runs["fresh"] = naive(questions, samples, False, args.deadline)
    if "cached" in wanted:
        runs["cached"] = naive(questions, samples, True, args.deadline)
    if "two-stage" in wanted:
        runs["two-stage"] = naive(questions, samples, True, args.deadline, two_stage=True)
    print(f"load average at start: {load:.1f}, {os.cpu_count()} cores (wall times need idle cores)")
    walls = ", ".join(f"{t[1]:.2f}" for t in timed)
    print(f"leash verify wall times: {walls} s (median below)")
    print(f"{'':42} {'wall s':>8} {'samples/s':>10} {'CPU s':>8}   leash faster (wall, CPU)")
    print(
        f"{f'leash verify, {summary.workers} workers':42} {leash_s:8.2f} {n / leash_s:10.0f}"
        f" {leash_cpu:8.2f}   ({summary.verifier_calls} math-verify calls,"
        f" {summary.calls_saved} saved)"
    )
    labels = {
        "script": "common script: parse(completion), verify",
        "fresh": "leash's rules, every sample, no reuse",
        "cached": "leash's rules, every sample, mv's cache",
        "two-stage": "  same + leash's two-stage parser",
    }
    for key, (_, seconds, cpu) in runs.items():
        print(
            f"{labels[key]:42} {seconds:8.2f} {n / seconds:10.0f} {cpu:8.2f}"
            f"   {seconds / leash_s:5.1f}x, {cpu / leash_cpu:5.1f}x"
        )

    failed = False
    for key in ("fresh", "cached", "two-stage"):
        if key not in runs:
            continue
        statuses = runs[key][0]
        bad = _differences(statuses, leash_status)
        # an answer near the deadline may finish on one side and not the other
        slow = [i for i in bad if "timeout" in (statuses[i], leash_status[i])]
        wrong = [i for i in bad if i not in set(slow)]
        if wrong:
            failed = True
            i = wrong[0]
            print(
                f"VERDICTS DIFFER ({labels[key]}) on {len(wrong)} samples, e.g."
                f" {samples[i]['benchmark']}/{samples[i]['question_id']}#{samples[i]['sample']}:"
                f" {statuses[i]} vs leash {leash_status[i]}"
            )
        else:
            print(
                f"statuses identical to '{labels[key]}' on all {n} samples"
                + (f" but {len(slow)} that timed out on one side only" if slow else "")
            )
    if "script" in runs:
        leash_correct = [st == "correct" for st in leash_status]
        bad = _differences(runs["script"][0], leash_correct)
        boxed = [i for i in bad if "\\boxed" in samples[i]["text"]]
        print(
            f"common script agrees on correct/not on {1 - len(bad) / n:.2%} of samples;"
            f" {len(bad) - len(boxed)} differences are completions without a box (math-verify"
            f" then takes any expression; leash says no_answer), {len(boxed)} have a box"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
