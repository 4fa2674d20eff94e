"""Find the final answer in a completion, by configurable strategies, per benchmark and model.

Strategies (tried in the order given, the first that finds something wins):

- ``boxed`` (default): the final answer of a boxed completion (``final_boxed``): the last
  ``\\boxed{...}``, or the closing run of boxes joined only by connectives, read as one
  list answer; a "final answer is ..." statement after the last box wins;
- ``answer_line``: the last line such as ``Answer: 42`` or ``Final Answer: The final
  answer is $42$. I hope it is correct.``;
- ``answer_tags``: the last ``<answer>...</answer>``;
- ``after_think``: what follows the last ``</think>`` (its last ``\\boxed{}`` if any,
  else the whole tail read by math-verify as free text); nothing if the model never
  closed its thinking.

Extraction is string work done in the main process, in time linear in the text (a
72 KB completion looping ``\\boxed{x `` or ``<answer>`` takes milliseconds), so that no
input can hold it longer than the per-answer deadline; its result, an ``AnswerSpan``,
is what verification deduplicates and parses. The chosen
``ExtractionConfig`` is stored in the results manifest so that reruns extract the
same way.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sampler.errors import LeashError
from sampler.latex_boxed import final_box_run

STRATEGIES = ("boxed", "answer_line", "answer_tags", "after_think")
DEFAULT_STRATEGIES: tuple[str, ...] = ("boxed",)

_ANSWER_LINE_RE = re.compile(
    r"^[ \t>*#_-]*(?:final\s+answer|answer)[ \t*_]*[:：][ \t*_]*(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_FINAL_IS_PREFIX_RE = re.compile(r"(?:the\s+)?final\s+answer\s+is\s*:?\s*", re.IGNORECASE)
_FINAL_IS_RE = re.compile(r"final\s+answer\s+is\s*:?[ \t]*", re.IGNORECASE)
_HOPE_TAIL_RE = re.compile(r"\.?\s*(?:I\s+hope\s+it\s+is\s+correct\.?)?\s*$", re.IGNORECASE)
_MATH_OPEN = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}
# A stated answer has a digit, a LaTeX command or an operator, or is one letter (a choice).
_MATHY_RE = re.compile(r"[\d\\^_=+/]|^\(?[A-Za-z]\)?$")
_SENTENCE_END_RE = re.compile(r"\.(?:\s|$)|\n")
_ANSWER_TAG_RE = re.compile(r"<(/?)answer>", re.IGNORECASE | re.ASCII)
_THINK_END = "</think>"
_WORDS_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}(?![A-Za-z])")
_TEXT_COMMAND_RE = re.compile(r"\\(?:text|mathrm|textbf|textrm|mbox|operatorname)\s*\{[^{}]*\}")
_SPACES_RE = re.compile(r"\s+")


@dataclass(frozen=True)
class AnswerSpan:
    """An extracted answer: LaTeX to parse as a boxed expression, or free text to search."""

    text: str
    free_text: bool = False


def _latex_span(text: str) -> AnswerSpan | None:
    """A LaTeX answer with its whitespace collapsed (so that equal answers deduplicate)."""
    text = _SPACES_RE.sub(" ", text).strip()
    return AnswerSpan(text) if text else None


def _strip_hope(text: str) -> str:
    """``text`` without a closing "I hope it is correct." (searched in its last 80 characters)."""
    text = text.rstrip()
    cut = max(0, len(text) - 80)
    match = _HOPE_TAIL_RE.search(text, cut)
    return text[: match.start()] if match else text


def _span_from_fragment(fragment: str) -> AnswerSpan | None:
    """An answer fragment (a line's or a tag's content): its final box(es), bare LaTeX or prose."""
    fragment = fragment.strip()
    if not fragment:
        return None
    boxed = final_boxed(fragment)
    if boxed is not None:
        return boxed
    stripped = fragment.strip("*_ ").rstrip(".").strip()
    if stripped.startswith("$") and stripped.endswith("$") and stripped.count("$") in (2, 4):
        return _latex_span(stripped.strip("$"))
    if "$" in stripped or "\\(" in stripped or _WORDS_RE.search(_TEXT_COMMAND_RE.sub("", stripped)):
        return AnswerSpan(stripped, free_text=True)
    return _latex_span(stripped)


def _stated_after(tail: str) -> AnswerSpan | None:
    """The answer of the last "final answer is X" statement in ``tail``, when X is math.

    X is the math span that follows (``$7$``, ``\\(7\\)``) or the rest of the sentence;
    prose ("the final answer is correct") states nothing.
    """
    last = next(iter(deque(_FINAL_IS_RE.finditer(tail), maxlen=1)), None)
    if last is None:
        return None
    rest = tail[last.end() :]
    for left, right in _MATH_OPEN.items():
        if rest.startswith(left):
            close = rest.find(right, len(left))
            if close > len(left):
                return _latex_span(rest[len(left) : close])
            return None
    end = _SENTENCE_END_RE.search(rest)
    statement = _strip_hope(rest[: end.start()] if end else rest).strip("*_ ")
    if not _MATHY_RE.search(statement) or _WORDS_RE.search(statement) or "$" in statement:
        return None
    return _latex_span(statement)


def final_boxed(text: str) -> AnswerSpan | None:
    """The final answer of a completion that boxes it (the ``boxed`` strategy).

    The last box; when the boxes before it are joined to it only by connectives
    (``\\boxed{1}, \\boxed{2}``, ``x_1 = \\boxed{a} \\text{ and } x_2 = \\boxed{b}``), the
    whole run as one list answer ("1, 2"); a "final answer is X" statement after the
    last box wins. An earlier box separated by prose never joins.
    """
    run = final_box_run(text)
    if not run:
        return None
    stated = _stated_after(text[run[-1][1] :])
    if stated is not None:
        return stated
    contents = [text[a:b].strip() for _, _, a, b in run]
    return _latex_span(", ".join(c for c in contents if c))


def extract_boxed(text: str) -> AnswerSpan | None:
    return final_boxed(text)


def extract_answer_line(text: str) -> AnswerSpan | None:
    matches = list(_ANSWER_LINE_RE.finditer(text))
    for match in reversed(matches):
        rest = _strip_hope(match.group("rest"))
        prefix = _FINAL_IS_PREFIX_RE.match(rest)
        if prefix and rest[prefix.end() :].strip():
            rest = rest[prefix.end() :]
        span = _span_from_fragment(rest)
        if span is not None:
            return span
    return None


def extract_answer_tags(text: str) -> AnswerSpan | None:
    """The last ``<answer>`` before the last ``</answer>``, found in ``text`` itself (ASCII
    case-insensitively): offsets found in ``text.lower()`` would shift after each ``İ``."""
    close = opened = None
    for tag in _ANSWER_TAG_RE.finditer(text):
        if tag.group(1):
            close = tag
    if close is None:
        return None
    for tag in _ANSWER_TAG_RE.finditer(text, 0, close.start()):
        if not tag.group(1):
            opened = tag
    if opened is None:
        return None
    return _span_from_fragment(text[opened.end() : close.start()])


def extract_after_think(text: str) -> AnswerSpan | None:
    end = text.rfind(_THINK_END)
    if end < 0:
        return None
    tail = text[end + len(_THINK_END) :].strip()
    if not tail:
        return None
    boxed = final_boxed(tail)
    if boxed is not None:
        return boxed
    return AnswerSpan(tail, free_text=True)


_EXTRACTORS = {
    "boxed": extract_boxed,
    "answer_line": extract_answer_line,
    "answer_tags": extract_answer_tags,
    "after_think": extract_after_think,
}


def extract_answer(
    text: str | None, strategies: tuple[str, ...] = DEFAULT_STRATEGIES
) -> AnswerSpan | None:
    """The answer of ``text`` by the first of ``strategies`` that finds one; None if none does."""
    if not text:
        return None
    for name in strategies:
        span = _EXTRACTORS[name](text)
        if span is not None:
            return span
    return None


def parse_strategies(
    spec: str | list[str] | tuple[str, ...], where: str = "strategy"
) -> tuple[str, ...]:
    """``"answer_tags,boxed"`` (or a list) as a checked tuple of strategy names."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [str(n).strip() for n in names if str(n).strip()]
    if not names:
        raise LeashError(f"{where}: empty extraction strategy; choose from {', '.join(STRATEGIES)}")
    unknown = [n for n in names if n not in _EXTRACTORS]
    if unknown:
        raise LeashError(
            f"{where}: unknown extraction strategy {unknown[0]!r}; choose from"
            f" {', '.join(STRATEGIES)} (several, tried in order, as a comma-separated list)"
        )
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class ExtractionConfig:
    """Which strategies apply to which samples: a model's setting beats its benchmark's,
    which beats the default."""

    default: tuple[str, ...] = DEFAULT_STRATEGIES
    benchmarks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    models: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def strategies_for(self, benchmark: str, model: str) -> tuple[str, ...]:
        if model in self.models:
            return self.models[model]
        if benchmark in self.benchmarks:
            return self.benchmarks[benchmark]
        return self.default

    def to_json(self) -> dict[str, Any]:
        return {
            "default": list(self.default),
            "benchmarks": {k: list(v) for k, v in sorted(self.benchmarks.items())},
            "models": {k: list(v) for k, v in sorted(self.models.items())},
        }

    @classmethod
    def from_json(cls, payload: Any, where: str = "extraction config") -> ExtractionConfig:
        if not isinstance(payload, dict):
            raise LeashError(f"{where}: expected an object with default/benchmarks/models")

        def table(name: str) -> dict[str, tuple[str, ...]]:
            raw = payload.get(name) or {}
            if not isinstance(raw, dict):
                raise LeashError(f"{where}: field {name!r} must map names to strategy lists")
            return {str(k): parse_strategies(v, f"{where} {name}.{k}") for k, v in raw.items()}

        return cls(
            default=parse_strategies(
                payload.get("default", list(DEFAULT_STRATEGIES)), f"{where} default"
            ),
            benchmarks=table("benchmarks"),
            models=table("models"),
        )


def parse_assignment(spec: str, what: str) -> tuple[str, tuple[str, ...]]:
    """``NAME=STRATEGY[,STRATEGY...]`` from the command line."""
    name, sep, value = spec.partition("=")
    if not sep or not name.strip():
        raise LeashError(
            f"--extract-{what} {spec!r}: expected NAME=STRATEGY, e.g. aime24=answer_line"
        )
    return name.strip(), parse_strategies(value, f"--extract-{what} {name.strip()}")
