"""Two-stage LaTeX parsing against math-verify's own: same results on every gold, how much faster?

Takes every gold answer of the benchmark files, with its parts, a respelling and a
near miss (one digit changed), and parses each string the two ways leash's workers
do (as an answer, boxed; as a gold, in math mode) in one process: first with
latex2sympy's own LL parsing, then with ``sampler.verify.answers.two_stage_parsing`` installed.
It checks that every parse gives the same sympy objects (or the same exception)
and prints both times. Each pass runs in a fresh interpreter (math-verify loaded
before timing), so neither inherits the other's caches.

    python bench/parse_speed.py
    python bench/parse_speed.py --every 4      # a quarter of the questions
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sampler.benchmarks.presets import PRESETS, load_benchmark_file
from sampler.verify.answers.golds import gold_from_question

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "benchmarks"
BENCHMARKS = ("math500", "aime24", "aime25", "amc23", "minerva_math", "olympiadbench")


def corpus(data: Path, every: int, seed: int = 1) -> list[str]:
    """Gold strings, their parts, a braced respelling and a near miss, without repeats."""
    rng = random.Random(seed)
    strings: list[str] = []
    for name in BENCHMARKS:
        path = data / name / "test.jsonl"
        if not path.exists():
            continue
        for q in load_benchmark_file(name, str(path), PRESETS[name].mapping).questions[::every]:
            gold = gold_from_question(q.gold, q.to_row().get("metadata"))
            if gold is None:
                continue
            strings += [gold.latex, *gold.parts, f"{{{gold.latex}}}"]
            digits = [i for i, c in enumerate(gold.latex) if c.isdigit()]
            if digits:
                i = rng.choice(digits)
                bumped = str((int(gold.latex[i]) + 1) % 10)
                strings.append(gold.latex[:i] + bumped + gold.latex[i + 1 :])
    return list(dict.fromkeys(strings))


def parse_all(strings: list[str]) -> tuple[list[list], float]:
    """Every string parsed as an answer and as a gold; the results and the seconds taken."""
    from math_verify import parser
    from sympy import srepr

    from sampler.verify.answers import math_verifier
    from sampler.verify.answers.extraction import AnswerSpan

    math_verifier.clear_caches()
    parser.parse_latex_cached.cache_clear()
    parser.parse_expr_cached.cache_clear()
    ways = (
        lambda latex: math_verifier.parse_answer(AnswerSpan(latex)),
        math_verifier._parse_gold,
    )
    results = []
    started = time.perf_counter()
    for latex in strings:
        row: list = []
        for parse in ways:
            try:
                row.append([p if isinstance(p, str) else srepr(p) for p in parse(latex)])
            except Exception as exc:  # compared by type: math-verify raises many
                row.append(["raised", type(exc).__name__])
        results.append(row)
    return results, time.perf_counter() - started


def one_pass(strings_file: Path, two_stage: bool, out: Path) -> int:
    """In a fresh process: parse every string one way; write results and seconds to ``out``."""
    import sampler.verify.answers.math_verifier  # noqa: F401  (load math-verify before timing)
    from sampler.verify.answers import two_stage_parsing

    if two_stage and not two_stage_parsing.install():
        print("two-stage parsing cannot be installed on this latex2sympy", file=sys.stderr)
        return 2
    strings = json.loads(strings_file.read_text(encoding="utf-8"))
    results, seconds = parse_all(strings)
    out.write_text(json.dumps({"results": results, "seconds": seconds}), encoding="utf-8")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--every", type=int, default=1, help="take every n-th question")
    parser.add_argument("--pass", dest="one", choices=("ll", "two-stage"), help=argparse.SUPPRESS)
    parser.add_argument("--strings", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return one_pass(args.strings, args.one == "two-stage", args.out)
    strings = corpus(args.data, max(1, args.every))
    if not strings:
        print(f"no benchmark files at {args.data}", file=sys.stderr)
        return 2
    passes = {}
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "strings.json"
        listed.write_text(json.dumps(strings), encoding="utf-8")
        for mode in ("ll", "two-stage"):
            out = Path(tmp) / f"{mode}.json"
            command = [sys.executable, __file__, "--pass", mode, "--strings", str(listed)]
            subprocess.run([*command, "--out", str(out)], check=True)
            passes[mode] = json.loads(out.read_text(encoding="utf-8"))
    plain, fast = passes["ll"], passes["two-stage"]
    differing = [
        s for s, a, b in zip(strings, plain["results"], fast["results"], strict=True) if a != b
    ]
    print(f"{len(strings)} strings, each parsed as an answer and as a gold, one process each way")
    print(f"latex2sympy's LL parsing  {plain['seconds']:7.2f} s")
    ratio = plain["seconds"] / fast["seconds"]
    print(f"two-stage (SLL, then LL)  {fast['seconds']:7.2f} s   {ratio:.1f}x faster")
    if differing:
        print(f"RESULTS DIFFER on {len(differing)} strings, e.g. {differing[0]!r}")
        return 1
    print("identical results on every string")
    return 0


if __name__ == "__main__":
    sys.exit(main())
