"""One completion graded in this process the way ``leash verify`` grades a sample.

Extraction (default strategies), the gold's quirks, ``prepare_span``, the integer
shortcut and ``judge``, in that order: what a verification worker does for one
sample, without the pool. For trusted input only (test suites, ``bench/`` scripts);
``leash verify`` itself judges untrusted answers in workers under a hard deadline.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

from sampler.store import STATUS_NO_ANSWER, STATUS_NO_GOLD, STATUS_TIMEOUT
from sampler.verify.answers.extraction import (
    DEFAULT_STRATEGIES,
    extract_answer,
    statement_for_gold,
)
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
    deadline_s: float = 10.0,
) -> Graded:
    """leash's verdict on ``completion`` against ``gold`` (``problem``: the question's text).

    Judging stops after ``deadline_s`` CPU seconds with status ``timeout``, as the pool's
    deadline does (a SIGPROF timer, which counts this process's CPU time: call it from the
    main thread)."""
    g = gold_from_question(gold, metadata, problem=problem)
    if g is None:
        return Graded(STATUS_NO_GOLD)
    span = statement_for_gold(extract_answer(completion, strategies), g, completion)
    if span is None:
        return Graded(STATUS_NO_ANSWER)
    prepared = prepare_span(span, g)
    previous = signal.signal(signal.SIGPROF, _past_deadline)
    signal.setitimer(signal.ITIMER_PROF, deadline_s)
    try:
        verdict = integer_verdict(g, prepared) or judge_safely(g, prepared)
    except _PastDeadline:
        return Graded(STATUS_TIMEOUT, span.text, span.rule)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    return Graded(verdict.status, span.text, span.rule)


class _PastDeadline(BaseException):
    """Raised by the timer; a BaseException so that ``judge_safely`` does not catch it."""


def _past_deadline(signum: int, frame: object) -> None:
    raise _PastDeadline
