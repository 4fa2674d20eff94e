"""One completion graded in this process the way ``leash verify`` grades a sample.

Extraction (default strategies), the gold's quirks, ``prepare_span``, the integer
shortcut and ``judge``, in that order: what a verification worker does for one
sample, without the pool. For trusted input only (test suites, ``bench/`` scripts);
``leash verify`` itself judges untrusted answers in workers under a hard deadline.
"""

from __future__ import annotations

from dataclasses import dataclass

from sampler.store.statuses import STATUS_NO_ANSWER, STATUS_NO_GOLD
from sampler.verify.answers.extraction import DEFAULT_STRATEGIES, extract_answer
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.math_verifier import judge_safely
from sampler.verify.answers.verdict import integer_verdict, prepare_span


@dataclass(frozen=True)
class Graded:
    """A sample's status, the answer as extracted, and the rule that found it."""

    status: str
    answer: str | None = None
    rule: str | None = None


def grade_completion(
    gold: str | None,
    completion: str,
    *,
    problem: str | None = None,
    metadata: dict | None = None,
    strategies: tuple[str, ...] = DEFAULT_STRATEGIES,
) -> Graded:
    """leash's verdict on ``completion`` against ``gold`` (``problem``: the question's text)."""
    g = gold_from_question(gold, metadata, problem=problem)
    if g is None:
        return Graded(STATUS_NO_GOLD)
    span = extract_answer(completion, strategies)
    if span is None:
        return Graded(STATUS_NO_ANSWER)
    prepared = prepare_span(span, g)
    verdict = integer_verdict(g, prepared) or judge_safely(g, prepared)
    return Graded(verdict.status, span.text, span.rule)
