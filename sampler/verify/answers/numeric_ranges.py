"""A gold that is a range of numbers: ``110-130``, ``110–130``, ``from 260 to 280``, ``5-10%``.

Read as math, ``110-130`` is a subtraction, -20, and so is a wrong range ``160-180``: a
false accept. ``numeric_range`` reads a text that is nothing but a range (its low end below
its high end, both plain numbers, a percent sign on either end) as its two ends;
``range_verdict`` judges an answer against a range gold by its ends: the same ends are
correct, other ends or a single number are not. An answer that is neither (an option's
letter) is left to the other rules.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_NUMBER = r"\d+(?:\.\d+)?"
_RANGE_RE = re.compile(
    rf"(?:from[ \t]+|between[ \t]+)?(?P<low>{_NUMBER})[ \t]*(?P<p1>%|\\%)?[ \t]*"
    rf"(?:[-–—]|to|and)[ \t]*(?P<high>{_NUMBER})[ \t]*(?P<p2>%|\\%)?",
    re.IGNORECASE,
)
#: an option's label before its content: "(B) 160-180"
_LABEL_RE = re.compile(r"[ \t]*\(?[A-J]\)[ \t]+|[ \t]*[A-J][.:][ \t]+")
_NUMBER_ONLY_RE = re.compile(rf"[-−]?{_NUMBER}[ \t]*(?:%|\\%)?")


def numeric_range(text: str) -> tuple[Decimal, Decimal] | None:
    """The two ends of a text that is nothing but a range of numbers, low end first; None
    when it is anything else (also ``130-110``, which is no range)."""
    bare = text.strip().strip("$").strip().rstrip(".").strip()
    match = _RANGE_RE.fullmatch(bare)
    if match is None:
        return None
    joined = bare[match.end("low") : match.start("high")].strip(" \t%\\").lower()
    if joined == "and" and not bare.lower().startswith("between"):
        return None  # "2 and 3": two values, not a range
    try:
        low, high = Decimal(match.group("low")), Decimal(match.group("high"))
    except InvalidOperation:
        return None
    return (low, high) if low < high else None


def range_verdict(gold: str, answer: str) -> bool | None:
    """Whether ``answer`` states the range ``gold`` is (both ends the same); False for
    another range or a single number; None when ``gold`` is no range or ``answer`` neither a
    range nor a number (other rules judge it)."""
    wanted = numeric_range(gold)
    if wanted is None:
        return None
    label = _LABEL_RE.match(answer)
    content = answer[label.end() :] if label is not None else answer
    stated = numeric_range(content)
    if stated is not None:
        return stated == wanted
    if _NUMBER_ONLY_RE.fullmatch(content.strip().strip("$").strip().rstrip(".")):
        return False
    return None
