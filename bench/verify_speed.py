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
  (worker startup, reading and writing shards included).

It checks the verdicts are identical, prints both times and the ratio, and, for
reference, the time and agreement of the commonest script of all, math-verify's
``parse`` on the whole completion.

    python bench/verify_speed.py                       # k = 64, 20 questions per benchmark
    python bench/verify_speed.py --k 256 --per-benchmark 8 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow as pa

from sampler.answer_extraction import extract_answer
from sampler.benchmark_presets import PRESETS, load_benchmark
from sampler.gold_answers import gold_from_question
from sampler.results_manifest import new_manifest
from sampler.results_schema import BenchmarkEntry, ModelEntry
from sampler.results_writer import (
    append_samples,
    create_results,
    merge_questions,
    questions_table,
)

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
        bench = load_benchmark(name, str(path), PRESETS[name].mapping)
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


def naive(
    questions: list[dict], samples: list[dict], library_cache: bool
) -> tuple[list[str], float]:
    """Every sample extracted, parsed and verified from scratch, in this process.

    With ``library_cache`` math-verify keeps its own small cache of the last 20
    parsed LaTeX strings (which, samples being in question order, catches most
    repeats); without it every parse is done afresh.
    """
    from math_verify import parser as mv_parser

    from sampler.answer_verdict import clear_caches, judge_safely
    from sampler.verdict_types import prepare_span

    golds = {
        (q["benchmark"], q["question_id"]): gold_from_question(q["gold"], q["metadata"])
        for q in questions
    }
    statuses = []
    started = time.perf_counter()
    cpu = time.process_time()
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
        statuses.append(judge_safely(gold, prepare_span(span, gold)).status)
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
    questions: list[dict], samples: list[dict], workers: int | None
) -> tuple[list[str], float, object]:
    from leash_tui.results_reader import Results
    from sampler.verify_results import verify_results

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
        started = time.perf_counter()
        cpu = _cpu_with_children()
        summary = verify_results(root, workers=workers)
        seconds = time.perf_counter() - started
        cpu = _cpu_with_children() - cpu
        table = Results.open(root).samples(columns=["benchmark", "question_id", "sample", "status"])
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


def _cpu_with_children() -> float:
    """CPU seconds of this process and its finished children (leash's zygote and workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _differences(a: list, b: list) -> list[int]:
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--per-benchmark", type=int, default=20, help="questions per benchmark")
    parser.add_argument("--k", type=int, default=64, help="samples per question")
    parser.add_argument("--workers", type=int, default=None, help="leash workers (default: cores)")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no benchmark files at {args.data}", file=sys.stderr)
        return 2
    questions, samples = build_corpus(args.data, args.per_benchmark, args.k)
    n = len(samples)
    print(f"corpus: {len(questions)} questions x {args.k} samples = {n} samples")
    load = os.getloadavg()[0]
    leash_status, leash_s, leash_cpu, summary = leash(questions, samples, args.workers)
    script, script_s, script_cpu = whole_text_script(questions, samples)
    fresh, fresh_s, fresh_cpu = naive(questions, samples, library_cache=False)
    cached, cached_s, cached_cpu = naive(questions, samples, library_cache=True)
    print(f"load average at start: {load:.1f}, {os.cpu_count()} cores (wall times need idle cores)")
    print(f"{'':42} {'wall s':>8} {'samples/s':>10} {'CPU s':>8}   leash faster (wall, CPU)")
    print(
        f"{f'leash verify, {summary.workers} workers':42} {leash_s:8.2f} {n / leash_s:10.0f}"
        f" {leash_cpu:8.2f}   ({summary.verifier_calls} math-verify calls,"
        f" {summary.calls_saved} saved)"
    )
    rows = [
        ("common script: parse(completion), verify", script_s, script_cpu),
        ("leash's rules, every sample, no reuse", fresh_s, fresh_cpu),
        ("leash's rules, every sample, mv's cache", cached_s, cached_cpu),
    ]
    for label, seconds, cpu in rows:
        print(
            f"{label:42} {seconds:8.2f} {n / seconds:10.0f} {cpu:8.2f}"
            f"   {seconds / leash_s:5.1f}x, {cpu / leash_cpu:5.1f}x"
        )

    failed = False
    for label, statuses in (("no reuse", fresh), ("mv's cache", cached)):
        bad = _differences(statuses, leash_status)
        if bad:
            failed = True
            i = bad[0]
            print(
                f"VERDICTS DIFFER (leash rules, {label}) on {len(bad)} samples, e.g."
                f" {samples[i]['benchmark']}/{samples[i]['question_id']}#{samples[i]['sample']}:"
                f" {statuses[i]} vs leash {leash_status[i]}"
            )
    if not failed:
        print(f"statuses identical to the one-process runs on all {n} samples")
    leash_correct = [st == "correct" for st in leash_status]
    bad = _differences(script, leash_correct)
    boxed = [i for i in bad if "\\boxed" in samples[i]["text"]]
    print(
        f"common script agrees on correct/not on {1 - len(bad) / n:.2%} of samples;"
        f" {len(bad) - len(boxed)} differences are completions without a box (math-verify then"
        f" takes any expression; leash says no_answer), {len(boxed)} have a box"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
