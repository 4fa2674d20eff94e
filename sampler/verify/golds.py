"""Gold answers as the verifier needs them: the preset quirks, resolved once per question.

A question's gold (``questions.gold`` plus its ``metadata`` JSON) becomes a ``Gold``:
the LaTeX to parse (bare LaTeX such as ``\\dfrac{9}{7}`` parses to nothing in
math-verify, so it is wrapped in ``$...$``; integral float golds such as AMC's
``27.0`` become ``27``), the parts of a multi-part answer (OlympiadBench rows with
``is_multiple_answer``, or ``gold_parts`` in the metadata) and the unit
(``metadata["unit"]``), which is removed from a model's answer before parsing.
These are pure string functions: parsing happens in the verification workers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_INTEGRAL_FLOAT_RE = re.compile(r"^\s*(-?\d+)\.0*\s*$")
_UNESCAPED_DOLLAR_RE = re.compile(r"(?<!\\)\$")
_OPENERS = "([{"
_CLOSERS = ")]}"


@dataclass(frozen=True)
class Gold:
    """One question's gold answer, ready for verification.

    ``latex`` is the whole answer without math delimiters; ``parts`` holds the
    answers of a multi-part gold (every one must be matched), empty otherwise;
    ``unit`` is the unit the answer may carry, as the benchmark wrote it.
    """

    latex: str
    parts: tuple[str, ...] = ()
    unit: str | None = None

    @property
    def parse_input(self) -> str:
        """The string to give math-verify's ``parse`` for the whole gold."""
        return math_mode(self.latex)

    def key(self) -> tuple[str, tuple[str, ...], str | None]:
        return (self.latex, self.parts, self.unit)


def math_mode(latex: str) -> str:
    """``latex`` wrapped in ``$...$`` so that math-verify's LaTeX extraction finds it."""
    return f"${latex}$"


def strip_math_delimiters(text: str) -> str:
    """Remove unescaped ``$`` and surrounding ``\\(...\\)``/``\\[...\\]`` (``\\$`` stays)."""
    text = text.strip()
    for left, right in (("\\(", "\\)"), ("\\[", "\\]")):
        if text.startswith(left) and text.endswith(right):
            text = text[len(left) : -len(right)]
    return _UNESCAPED_DOLLAR_RE.sub("", text).strip()


def normalise_gold_text(gold: str) -> str:
    """A gold string without math delimiters; integral floats ("27.0") lose their decimals."""
    match = _INTEGRAL_FLOAT_RE.match(gold)
    if match:
        return str(int(match.group(1)))
    return strip_math_delimiters(gold)


def split_top_level(text: str) -> list[str]:
    """Split at commas that are outside brackets and braces (``\\,`` is a space, not a comma).

    Intervals such as ``[1,2)`` count as one bracketed group. Empty pieces are dropped.
    """
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt == "{":
                depth += 1  # \{ opens a set
            elif nxt == "}":
                depth = max(depth - 1, 0)
            i += 2  # any other escape (\, \! \$) never opens, closes or splits
            continue
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


_AND_RE = re.compile(r"\\(?:text|mathrm|textrm)\s*\{\s*and\s*\}|\s+and\s+")


def answer_parts(answer: str) -> list[str]:
    """Split a model's answer to a multi-part question into its parts ("a, b", "a and b")."""
    return split_top_level(_AND_RE.sub(",", strip_math_delimiters(answer)))


def _unit_pattern(unit: str) -> re.Pattern[str] | None:
    """A regex for ``unit`` at the end of an answer, in the spellings models use.

    Between the unit's characters it allows braces, spaces, ``~`` and wrappers such
    as ``\\text{`` and ``\\mathrm{``, so "km/h" matches ``\\text{ km/h}``,
    ``\\mathrm{~km} / \\mathrm{h}`` and ``km/h``.
    """
    core = re.sub(r"\\(?:text|mathrm|textrm|mbox|operatorname)\b", "", unit)
    core = re.sub(r"[\s{}~$]", "", core)
    if not core:
        return None
    wrapper = r"\\(?:text|mathrm|textrm|mbox|operatorname)\s*"
    lead = rf"(?:\s|~|\\[,;:! ]|{wrapper}\{{)*"  # no bare brace: it belongs to the answer
    filler = rf"(?:\s|~|\{{|\}}|\\[,;:! ]|{wrapper})*"
    pieces = []
    for ch in core:
        if ch == "%":
            pieces.append(r"(?:\\?%|\s*percent)")
        else:
            pieces.append(re.escape(ch))
    body = filler.join(pieces)
    # Plural forms of word units ("minute" also removes "minutes").
    tail = r"s?" if core[-1].isalpha() else ""
    return re.compile(lead + r"(?<![A-Za-z])" + body + tail + filler + r"$")


def strip_unit(answer: str, unit: str | None) -> str:
    """``answer`` without a trailing ``unit`` (in any usual spelling); unchanged when absent."""
    if not unit:
        return answer
    pattern = _unit_pattern(unit)
    if pattern is None:
        return answer
    stripped = pattern.sub("", answer).rstrip()
    if not stripped or not _balanced(stripped):
        return answer  # the "unit" was part of the expression, e.g. s in \frac{3}{s}
    return stripped


def _balanced(text: str) -> bool:
    depth = 0
    i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return depth == 0


def _metadata(metadata: str | dict | None) -> dict:
    if metadata is None:
        return {}
    if isinstance(metadata, dict):
        return metadata
    try:
        parsed = json.loads(metadata)
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


def gold_from_question(gold: str | None, metadata: str | dict | None = None) -> Gold | None:
    """The ``Gold`` of a question row (gold text and metadata JSON); None when it has no gold."""
    if gold is None or not str(gold).strip():
        return None
    meta = _metadata(metadata)
    latex = normalise_gold_text(str(gold))
    parts: tuple[str, ...] = ()
    listed = meta.get("gold_parts")
    if isinstance(listed, list) and len(listed) > 1:
        parts = tuple(normalise_gold_text(str(p)) for p in listed if str(p).strip())
    elif _truthy(meta.get("is_multiple_answer")):
        pieces = split_top_level(latex)
        if len(pieces) > 1:
            parts = tuple(pieces)
    if parts:
        latex = ", ".join(parts)
    unit = meta.get("unit")
    unit = str(unit).strip() if unit else None
    return Gold(latex=latex, parts=parts, unit=unit or None)
