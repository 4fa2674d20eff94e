"""``math``: the default verifier, math-verify on the extracted LaTeX answer.

Verification of math benchmarks keeps its own path in ``sampler.verify.run``
(extraction strategies per benchmark and model, the integer shortcut, the
deduplicating ``AnswerVerifier``); this entry gives it a name in the registry and
delegates to the modules that do the work, so that its rules live in one place.
"""

from __future__ import annotations

from typing import Any, ClassVar

from sampler.store import DEFAULT_DOMAIN, DEFAULT_VERIFIER
from sampler.verify.answers.extraction import AnswerSpan, extract_answer
from sampler.verify.answers.golds import Gold, gold_from_question
from sampler.verify.answers.verdict import Verdict
from sampler.verify.verifiers.base import Verifier


class MathVerifier(Verifier):
    name: ClassVar[str] = DEFAULT_VERIFIER
    description: ClassVar[str] = "math-verify on the last \\boxed{} (or the configured extraction)"
    in_worker: ClassVar[bool] = True
    default_domain: ClassVar[str] = DEFAULT_DOMAIN

    def gold(self, gold: str | None, metadata: dict[str, Any]) -> Gold | None:
        return gold_from_question(gold, metadata)

    def extract(self, text: str) -> AnswerSpan | None:
        return extract_answer(text)

    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        from sampler.verify.answers.math_verifier import judge_safely

        return judge_safely(gold, span)


VERIFIER = MathVerifier()
