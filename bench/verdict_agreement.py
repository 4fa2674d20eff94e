"""Agreement with hand verdicts on the verdict corpus: leash, math-verify alone, Qwen2.5-Math.

The corpus (tests/data/verdict_corpus, README there) holds real completions from public
sources, each judged by hand, its sources split into a tuning half and a held-out half
before any grader ran on them. This prints, per half, per source and per category: how
often each grader agrees with the hand verdict, its ``no_answer`` share on completions that
state an answer, and its false-accept rate (graded correct, judged incorrect, over the
cases judged incorrect).

- leash: ``sampler.verify.answers.one_sample.grade_completion`` (the default extraction
  and rules, with the problem text where the source has one);
- math-verify alone: ``math_verify.parse`` on the whole completion and on the gold, then
  ``verify`` (its defaults); ``no_answer`` when the completion parses to nothing;
- Qwen2.5-Math's grader (``extract_answer`` then ``math_equal``), run by
  ``bench/qwen_grader_adapter.py`` in the Python given by ``--qwen-python`` (skipped, and
  said so, when that Python or its grader is missing).

    python bench/verdict_agreement.py [--half held_out] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "verdict_corpus"
QWEN_PYTHON = Path("/work/venvs/i32-verify/bin/python")
HALVES = ("held_out", "tuning")

Verdicts = list[str]  # per case: "correct", "incorrect" or "no_answer"


def load_corpus(folder: Path = CORPUS) -> list[dict[str, Any]]:
    """Every case of the corpus, source files in name order."""
    cases = []
    for path in sorted(folder.glob("*.jsonl")):
        cases += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return cases


def leash_verdicts(cases: list[dict[str, Any]]) -> Verdicts:
    sys.path.insert(0, str(ROOT))
    from sampler.verify.answers.one_sample import grade_completion

    out = []
    for case in cases:
        status = grade_completion(case["gold"], case["completion"], problem=case.get("problem"))
        out.append(status.status if status.status in ("correct", "no_answer") else "incorrect")
    return out


def math_verify_verdicts(cases: list[dict[str, Any]]) -> Verdicts:
    import logging

    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    out = []
    for case in cases:
        try:
            gold = parse(case["gold"]) or parse(f"${case['gold']}$")
            answer = parse(case["completion"])
            if not answer:
                out.append("no_answer")
                continue
            out.append("correct" if verify(gold, answer) else "incorrect")
        except Exception:
            out.append("incorrect")
    return out


def qwen_verdicts(cases: list[dict[str, Any]], python: Path) -> Verdicts | None:
    if not python.exists():
        return None
    pairs = "".join(json.dumps([c["gold"], c["completion"]]) + "\n" for c in cases)
    adapter = Path(__file__).with_name("qwen_grader_adapter.py")
    done = subprocess.run(
        [str(python), str(adapter)], input=pairs, capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        print(f"Qwen2.5-Math grader skipped: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return [
        "no_answer" if not r["answer"] else ("correct" if r["correct"] else "incorrect")
        for r in rows
    ]


def score(cases: list[dict[str, Any]], verdicts: Verdicts) -> dict[str, float | int]:
    """Agreement, no_answer share (on cases that state an answer) and false accepts."""
    n = len(cases)
    pairs = list(zip(cases, verdicts, strict=True))
    agree = sum((v == "correct") == (c["expected"] == "correct") for c, v in pairs)
    stated = [v for c, v in zip(cases, verdicts, strict=True) if c["states_answer"]]
    wrong = [v for c, v in zip(cases, verdicts, strict=True) if c["expected"] != "correct"]
    false_accepts = sum(v == "correct" for v in wrong)
    return {
        "n": n,
        "agree": agree,
        "accuracy": agree / n if n else 0.0,
        "no_answer": sum(v == "no_answer" for v in stated) / len(stated) if stated else 0.0,
        "false_accepts": false_accepts,
        "false_accept_rate": false_accepts / len(wrong) if wrong else 0.0,
    }


def grouped(
    cases: list[dict[str, Any]], verdicts: dict[str, Verdicts], key: Callable[[dict], str]
) -> dict[str, dict[str, dict[str, float | int]]]:
    index: dict[str, list[int]] = defaultdict(list)
    for i, case in enumerate(cases):
        index[key(case)].append(i)
    return {
        group: {
            name: score([cases[i] for i in rows], [v[i] for i in rows])
            for name, v in verdicts.items()
        }
        for group, rows in sorted(index.items())
    }


def table(title: str, rows: dict[str, dict[str, dict]], graders: Iterable[str]) -> str:
    graders = list(graders)
    head = "| " + title + " | n | " + " | ".join(graders) + " | no_answer " + " / ".join(graders)
    head += " | false accepts " + " / ".join(graders) + " |"
    lines = [head, "|" + "---|" * (3 + len(graders))]
    for group, by in rows.items():
        first = by[graders[0]]
        acc = " | ".join(f"{by[g]['accuracy']:.1%}" for g in graders)
        na = " / ".join(f"{by[g]['no_answer']:.1%}" for g in graders)
        fa = " / ".join(
            f"{by[g]['false_accepts']} ({by[g]['false_accept_rate']:.1%})" for g in graders
        )
        lines.append(f"| {group} | {first['n']} | {acc} | {na} | {fa} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--half", choices=HALVES, help="only this half")
    parser.add_argument("--qwen-python", type=Path, default=QWEN_PYTHON)
    parser.add_argument("--no-qwen", action="store_true")
    parser.add_argument("--json", type=Path, help="write every case's verdicts here")
    parser.add_argument(
        "--cache", type=Path, help="reuse (and store) math-verify's and Qwen's verdicts here"
    )
    parser.add_argument("--only-leash", action="store_true", help="leash alone (fast)")
    args = parser.parse_args()
    cases = load_corpus(args.corpus)
    if args.half:
        cases = [c for c in cases if c["split"] == args.half]
    verdicts: dict[str, Verdicts] = {"leash": leash_verdicts(cases)}
    cached = json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    if not args.only_leash:
        ids = [c["id"] for c in cases]
        if all(i in cached.get("math-verify", {}) for i in ids):
            verdicts["math-verify"] = [cached["math-verify"][i] for i in ids]
        else:
            verdicts["math-verify"] = math_verify_verdicts(cases)
        if all(i in cached.get("qwen2.5-math", {}) for i in ids):
            verdicts["qwen2.5-math"] = [cached["qwen2.5-math"][i] for i in ids]
        elif not args.no_qwen:
            qwen = qwen_verdicts(cases, args.qwen_python)
            if qwen is not None:
                verdicts["qwen2.5-math"] = qwen
        if "qwen2.5-math" not in verdicts:
            print("(Qwen2.5-Math grader not run: no Python with evalscope 0.17.1 at --qwen-python)")
        if args.cache:
            for name in ("math-verify", "qwen2.5-math"):
                if name in verdicts:
                    cached.setdefault(name, {}).update(zip(ids, verdicts[name], strict=True))
            args.cache.write_text(json.dumps(cached))
    for half in HALVES:
        part = [i for i, c in enumerate(cases) if c["split"] == half]
        if not part:
            continue
        sub = [cases[i] for i in part]
        sub_v = {k: [v[i] for i in part] for k, v in verdicts.items()}
        print(f"\n## {half} ({len(sub)} cases, {len({c['source'] for c in sub})} sources)\n")
        whole = grouped(sub, sub_v, lambda c: "all")
        print(table("half", whole, verdicts))
        print()
        print(table("source", grouped(sub, sub_v, lambda c: c["source"]), verdicts))
        print()
        print(table("category", grouped(sub, sub_v, lambda c: c["category"]), verdicts))
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "id": c["id"],
                        "expected": c["expected"],
                        **{k: v[i] for k, v in verdicts.items()},
                    }
                    for i, c in enumerate(cases)
                ],
                indent=0,
            )
        )


if __name__ == "__main__":
    main()
