"""The one interface every verifier implements: load questions, extract an answer, judge it.

A verifier owns what is specific to one kind of benchmark: what a question of its
file looks like (``load_questions``), what its gold is (``gold``), where the final
answer is in a completion (``extract``) and whether it is right (``judge``). The
registry (``sampler.verify.verifiers``) finds every module of this package that
defines ``VERIFIER``, so adding one is a single file.

Completions are untrusted text: ``extract`` is cheap string work on it in the main
process, and ``judge`` runs either in a verification worker under the pool's hard
deadline (``in_worker``) or, for cheap or self-sandboxed verifiers, through
``judge_many`` in the main process.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

from sampler.benchmarks.files import Record
from sampler.benchmarks.presets import FieldMapping, Question, questions_from_records
from sampler.latex_boxed import last_boxed
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import MAX_ANSWER_CHARS, Verdict

#: The domain tag of a benchmark graded by anything but math, unless the user names one.
NON_MATH_DOMAIN = "non-math"


class Verifier(ABC):
    """One kind of benchmark. Subclasses set ``name`` and ``description``."""

    name: ClassVar[str]
    description: ClassVar[str]
    #: Judge in a verification worker (hard deadline from outside) rather than in-process.
    in_worker: ClassVar[bool] = False
    #: Modules the verification zygote imports for it (its package), when ``in_worker``.
    preload: ClassVar[tuple[str, ...]] = ()
    default_domain: ClassVar[str] = NON_MATH_DOMAIN
    #: Grading runs model-written programs or evaluators: refused without a sandbox.
    runs_untrusted_code: ClassVar[bool] = False

    # -- questions -----------------------------------------------------------------
    def load_questions(
        self, name: str, records: Sequence[tuple[str, Record]], mapping: FieldMapping
    ) -> list[Question]:
        """The benchmark's questions from its file's records (the generic field mapping),
        each passed through ``refine`` with its record."""
        questions = questions_from_records(name, records, mapping)
        return [
            self.refine(name, where, record, question)
            for (where, record), question in zip(records, questions, strict=True)
        ]

    def refine(self, name: str, where: str, record: Record, question: Question) -> Question:
        """One question of benchmark ``name`` checked and completed from its ``record`` (read
        at ``where``); as it is by default."""
        return question

    def generate(self, name: str, source: str) -> list[Question] | None:
        """Questions made from ``source`` itself (no file), or None to read ``source`` as a file."""
        return None

    # -- grading -------------------------------------------------------------------
    @abstractmethod
    def gold(self, gold: str | None, metadata: dict[str, Any]) -> Hashable | None:
        """What ``judge`` compares with, from a question's gold and metadata; None: ungradable.

        It is hashed for deduplication and pickled to workers: keep it small and plain.
        """

    @abstractmethod
    def extract(self, text: str) -> AnswerSpan | None:
        """The final answer of a completion, or None when it gives none."""

    @abstractmethod
    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        """The verdict of one extracted answer against one gold (``gold``'s own result)."""

    def judge_many(
        self,
        pairs: Sequence[tuple[Any, AnswerSpan]],
        *,
        workers: int,
        deadline_s: float,
        on_result: Callable[[int, Verdict], None],
    ) -> None:
        """Judge here, reporting each verdict (verifiers that run programs override it)."""
        for index, (gold, span) in enumerate(pairs):
            on_result(index, judge_safely(self, gold, span))


def judge_safely(verifier: Verifier, gold: Any, span: AnswerSpan) -> Verdict:
    """``verifier.judge``, with any exception turned into status ``error`` and its reason."""
    from sampler.store import STATUS_ERROR

    try:
        return verifier.judge(gold, span)
    except MemoryError:
        return Verdict(STATUS_ERROR, None, "out of memory")
    except Exception as exc:  # a task's own scorer may raise anything on odd input
        return Verdict(STATUS_ERROR, clip(span.text), f"{type(exc).__name__}: {str(exc)[:200]}")


def clip(text: str | None) -> str | None:
    """An answer as stored: at most ``MAX_ANSWER_CHARS`` characters."""
    return None if text is None else text[:MAX_ANSWER_CHARS]


def metadata_object(raw: str | None) -> dict[str, Any]:
    """A question's metadata column as a dict (empty when null or not an object)."""
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


# -- answer locations shared by the non-math verifiers ------------------------------------

_ANSWER_TAG_RE = re.compile(r"<(/?)answer>", re.IGNORECASE | re.ASCII)
# Possessive quantifiers (``*+``) where runs of white space meet, and a greedy rest
# stripped afterwards: a failed match costs time linear in the line, whatever its spaces.
_ANSWER_LINE_RE = re.compile(
    r"^[ \t>*#_-]*+(?:the\s++)?(?:final\s++answer|answer)[ \t*_]*+(?:[:：]|\s*+is\b[ \t]*+:?)"
    r"[ \t*_]*+(?P<rest>\S.*)",
    re.IGNORECASE | re.MULTILINE,
)
_THINK_END = "</think>"


def answer_tags(text: str) -> str | None:
    """The content of the last ``<answer>...</answer>``, stripped (None when absent or empty).

    One pass over the tags: an opening tag, then the first closing tag after it (as a
    lazy regex would pair them), so that many unclosed tags cost linear time.
    """
    body, opened = None, None
    for tag in _ANSWER_TAG_RE.finditer(text):
        if tag.group(1):
            if opened is not None:
                body, opened = text[opened : tag.start()], None
        elif opened is None:
            opened = tag.end()
    return body.strip() or None if body is not None else None


def boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{}``, stripped."""
    found = last_boxed(text)
    return found.strip() or None if found is not None else None


def after_think(text: str) -> str | None:
    """What follows the last ``</think>``, stripped (None if thinking never ended)."""
    end = text.rfind(_THINK_END)
    if end < 0:
        return None
    return text[end + len(_THINK_END) :].strip() or None


def answer_line(text: str) -> str | None:
    """The rest of the last line such as ``Answer: D`` or ``The final answer is D``."""
    last = None
    for last in _ANSWER_LINE_RE.finditer(text):  # noqa: B007 - the last one is the answer
        pass
    return last.group("rest").strip() or None if last is not None else None


def first_found(text: str, finders: Sequence[Callable[[str], str | None]]) -> str | None:
    """The answer of the first finder that finds one."""
    for finder in finders:
        found = finder(text)
        if found is not None:
            return found
    return None
