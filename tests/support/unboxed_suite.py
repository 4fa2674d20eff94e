"""The unboxed-finals suite (tests/data/graders_unboxed): every case graded the way a sample is.

``grade`` runs one completion through leash's default extraction, the gold's quirks,
``prepare_span``, the integer shortcut and ``judge`` (in-process: the suite is trusted
test data). ``python -m tests.support.unboxed_suite`` prints the agreement and each
disagreement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sampler.verify.answers.extraction import extract_answer, statement_for_gold
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.math_verifier import judge
from sampler.verify.answers.verdict import integer_verdict, prepare_span
from tests.support.paths import TESTS_DATA

SUITE = TESTS_DATA / "graders_unboxed" / "cases.jsonl"


@dataclass(frozen=True)
class UnboxedCase:
    id: str
    source: str
    gold: str
    completion: str
    expected: str  # "correct" or "not correct"


def load_unboxed_cases() -> list[UnboxedCase]:
    rows = [json.loads(line) for line in SUITE.read_text().splitlines() if line.strip()]
    return [UnboxedCase(**row) for row in rows]


def grade(gold: str, completion: str) -> str:
    """leash's status for one completion against one gold."""
    g = gold_from_question(gold)
    if g is None:
        return "no_gold"
    span = statement_for_gold(extract_answer(completion), g, completion)
    if span is None:
        return "no_answer"
    span = prepare_span(span, g)
    quick = integer_verdict(g, span)
    return (quick or judge(g, span)).status


def agrees(case: UnboxedCase) -> bool:
    status = grade(case.gold, case.completion)
    return (status == "correct") == (case.expected == "correct")


def main() -> None:
    cases = load_unboxed_cases()
    wrong = [c for c in cases if not agrees(c)]
    print(f"{len(cases) - len(wrong)} of {len(cases)} agree")
    for case in wrong:
        print(f"  {case.id}: expected {case.expected}, leash {grade(case.gold, case.completion)}")


if __name__ == "__main__":
    main()
