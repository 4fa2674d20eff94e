"""Repeating decimals written with a bar or dots, read as the fractions they are.

math-verify reads ``0.\\overline{3}`` as 0.3 times a bar over 3 (a symbol), so it never
equals 1/3. ``repeating_to_fraction`` rewrites every repeating decimal in a text as its
exact fraction: ``0.\\overline{3}`` is ``\\frac{1}{3}``, ``1.2\\overline{34}`` is
``\\frac{611}{495}``, ``0.\\bar{6}`` is ``\\frac{2}{3}``, and the dotted notation
``0.\\dot{1}\\dot{2}`` (the digits from the first dot to the last repeat) is
``\\frac{4}{33}``. Applied to the gold and the answer alike
(``sampler.verify.answers.golds``, ``sampler.verify.answers.verdict.prepare_span``); a text
without a bar or a dot is returned as it is.
"""

from __future__ import annotations

import re
from fractions import Fraction

_BAR = r"\\(?:overline|bar)\s*\{\s*(?P<rep>\d{1,12})\s*\}"
_DOTS = r"(?P<dots>\\dot\s*\{?\s*\d\s*\}?(?:\d{0,10}\\dot\s*\{?\s*\d\s*\}?)?)"
_REPEATING_RE = re.compile(
    r"(?<![\d.])(?P<sign>-?)(?P<int>\d*)\.(?P<fixed>\d{0,12})(?:" + _BAR + "|" + _DOTS + ")"
)
_DOT_DIGIT_RE = re.compile(r"\\dot\s*\{?\s*(\d)\s*\}?")


def repeating_to_fraction(text: str) -> str:
    """``text`` with each repeating decimal as its fraction (module docstring)."""
    if "\\overline" not in text and "\\bar" not in text and "\\dot" not in text:
        return text
    return _REPEATING_RE.sub(_fraction, text)


def _fraction(match: re.Match[str]) -> str:
    repeat = match.group("rep") or _DOT_DIGIT_RE.sub(r"\1", match.group("dots") or "")
    fixed = match.group("fixed")
    whole = int(match.group("int") or 0)
    value = whole + Fraction(
        int(fixed + repeat) - int(fixed or 0), 10 ** len(fixed) * (10 ** len(repeat) - 1)
    )
    if match.group("sign"):
        value = -value
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"{sign}{value.numerator}"
    return f"{sign}\\frac{{{value.numerator}}}{{{value.denominator}}}"
