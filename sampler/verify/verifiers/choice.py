"""``choice``: multiple choice, the letter a completion picks against the gold letter.

The answer is looked for where a final answer goes (``<answer>`` tags, the last
``\\boxed{}``, an "Answer:" line, the text after ``</think>``, else the last line),
and the letter is read from its start, with or without its content: "(D) (2,0)",
"D.", "\\text{(D)}", "**D**". A record may list its options in ``choices``; then
only their letters count, and they are appended to the problem as "(A) ...".
"""

from __future__ import annotations

import re
import string
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
    first_found,
)

LETTERS = string.ascii_uppercase
_WRAPPER_RE = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}")
_LEADING_RE = re.compile(r"^[\s*_$(\[{]*\(?([A-Za-z])\)?(?=$|[\s.:,;)\]}*_$])")
_ANSWER_IS_RE = re.compile(  # possessive: runs of spaces cost linear time
    r"(?i:answer|option|choice)\s*+(?i:is|:)?\s*+[:*_$\s]*+\(?([A-Z])\)?(?![A-Za-z])"
)
_GOLD_RE = re.compile(r"^\(?([A-Za-z])\)?\.?$")


def gold_letter(value: str | None) -> str | None:
    """``D``, ``(D)``, ``d`` or ``D.`` as ``D``; None when it is not one letter."""
    if value is None:
        return None
    match = _GOLD_RE.match(value.strip())
    return match.group(1).upper() if match else None


def _clean(fragment: str) -> str:
    fragment = _WRAPPER_RE.sub(r"\1", fragment)
    return fragment.replace("\\(", "(").replace("\\)", ")").strip()


def letter_of(fragment: str) -> str | None:
    """The letter a final-answer fragment starts with, else the one it says is the answer."""
    fragment = _clean(fragment)
    lead = _LEADING_RE.match(fragment)
    if lead:
        return lead.group(1).upper()
    said = list(_ANSWER_IS_RE.finditer(fragment))
    return said[-1].group(1).upper() if said else None


def _last_line(text: str) -> str | None:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else None


class ChoiceVerifier(Verifier):
    name: ClassVar[str] = "choice"
    description: ClassVar[str] = "multiple choice: the picked letter against the gold letter"
    #: Judged in a verification worker, so that ``--deadline`` bounds it like math.
    in_worker: ClassVar[bool] = True

    def refine(self, name: str, where: str, record: Record, question: Question) -> Question:
        letter = gold_letter(question.gold)
        if letter is None:
            raise LeashError(
                f"{where}: gold {question.gold!r} of benchmark {name!r} is not one letter"
                " (a choice benchmark's gold is the option's letter, e.g. 'D' or '(D)')"
            )
        metadata = dict(question.metadata)
        problem = question.problem
        choices = record.get("choices")
        if choices is not None:
            if not isinstance(choices, list) or not 1 < len(choices) <= len(LETTERS):
                raise LeashError(f"{where}: field 'choices' must be a list of 2 to 26 options")
            if LETTERS.index(letter) >= len(choices):
                raise LeashError(f"{where}: gold {letter!r} but only {len(choices)} choices")
            metadata["choices"] = [str(c) for c in choices]
            problem += "\n\n" + "\n".join(
                f"({LETTERS[i]}) {c}" for i, c in enumerate(metadata["choices"])
            )
        return Question(name, question.question_id, problem, letter, metadata)

    def gold(self, gold: str | None, metadata: dict[str, Any]) -> tuple[str, int] | None:
        letter = gold_letter(gold)
        if letter is None:
            return None
        choices = metadata.get("choices")
        return letter, len(choices) if isinstance(choices, list) else len(LETTERS)

    def extract(self, text: str) -> AnswerSpan | None:
        found = first_found(text, (answer_tags, boxed, answer_line, after_think, _last_line))
        return AnswerSpan(found.strip()) if found else None

    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        letter_gold, options = gold
        letter = letter_of(span.text)
        if letter is None or LETTERS.index(letter) >= options:
            return Verdict(STATUS_NO_ANSWER, None, "no option letter in the answer")
        status = STATUS_CORRECT if letter == letter_gold else STATUS_INCORRECT
        return Verdict(status, letter)


VERIFIER = ChoiceVerifier()
