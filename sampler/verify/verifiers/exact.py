"""``exact``: normalised string match, for short factual answers.

Normalisation follows SQuAD's evaluation script (Rajpurkar et al., 2016): lower
case, punctuation and the articles a/an/the removed, white space collapsed; LaTeX
``\\text{}`` wrappers and ``$`` are dropped first. The answer is the content of the
last ``<answer>`` tags, else the last ``\\boxed{}``, else an "Answer:" line, else the
text after ``</think>``. A record's ``aliases`` (a list) are accepted too.
"""

from __future__ import annotations

import re
import string
from dataclasses import replace
from typing import Any, ClassVar

from sampler.benchmarks.files import Record
from sampler.benchmarks.presets import Question
from sampler.errors import LeashError
from sampler.store import STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import Verdict
from sampler.verify.verifiers.base import (
    Verifier,
    after_think,
    answer_line,
    answer_tags,
    boxed,
    clip,
    first_found,
)

_WRAPPER_RE = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textit)\s*\{([^{}]*)\}")
_ARTICLES_RE = re.compile(r"\b(?:a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalise(text: str) -> str:
    """The SQuAD normal form of ``text`` (after dropping ``\\text{}`` and ``$``)."""
    text = _WRAPPER_RE.sub(r"\1", text).replace("$", "")
    text = text.lower().translate(_PUNCTUATION)
    text = _ARTICLES_RE.sub(" ", text)
    return " ".join(text.split())


class ExactVerifier(Verifier):
    name: ClassVar[str] = "exact"
    description: ClassVar[str] = "normalised string match (SQuAD normalisation), with aliases"
    #: Judged in a verification worker, so that ``--deadline`` bounds it like math.
    in_worker: ClassVar[bool] = True

    def refine(self, name: str, where: str, record: Record, question: Question) -> Question:
        aliases = record.get("aliases")
        if aliases is None:
            return question
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise LeashError(f"{where}: field 'aliases' must be a list of strings")
        return replace(question, metadata={**question.metadata, "aliases": aliases})

    def gold(self, gold: str | None, metadata: dict[str, Any]) -> tuple[str, ...] | None:
        accepted = [gold] if gold is not None else []
        aliases = metadata.get("aliases")
        if isinstance(aliases, list):
            accepted += [a for a in aliases if isinstance(a, str)]
        forms = tuple(dict.fromkeys(n for n in map(normalise, accepted) if n))
        return forms or None

    def extract(self, text: str) -> AnswerSpan | None:
        found = first_found(text, (answer_tags, boxed, answer_line, after_think))
        return AnswerSpan(found) if found else None

    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        answer = normalise(span.text)
        if not answer:
            return Verdict(STATUS_NO_ANSWER)
        status = STATUS_CORRECT if answer in gold else STATUS_INCORRECT
        return Verdict(status, clip(answer))


VERIFIER = ExactVerifier()
