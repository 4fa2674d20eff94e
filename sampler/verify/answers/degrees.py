"""Degrees against radians: ``30^\\circ`` and ``\\frac{\\pi}{6}`` are one angle.

``degrees_value`` reads an answer or gold written in degrees (``30^\\circ``, ``30^{\\circ}``,
``30°``, ``30 \\text{ degrees}``) as its number of degrees, else None. ``same_angle`` says
whether a side in degrees and a side in radians written with π (``\\frac{\\pi}{6}``) name
the same angle, to one part in a billion; math-verify drops the degree sign and compares
30 with π/6. Used by ``math_verifier.judge`` when the plain comparison fails.
"""

from __future__ import annotations

import re
from typing import Any

from sympy import Expr, pi

_DEGREES_RE = re.compile(
    r"\s*(-?\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°|\\text\s*\{\s*degrees?\s*\})\s*"
)


def degrees_value(text: str) -> float | None:
    """The number of degrees ``text`` states, or None when it is no angle in degrees."""
    match = _DEGREES_RE.fullmatch(text)
    return float(match.group(1)) if match else None


def same_angle(degrees: float, radians_text: str, radians: tuple[Any, ...]) -> bool:
    """Whether ``degrees`` equals the parsed radians (a side written with π)."""
    if "\\pi" not in radians_text and "π" not in radians_text:
        return False
    value = next((p for p in radians if isinstance(p, Expr)), None)
    if value is None:
        return False
    try:
        angle = complex((value * 180 / pi).evalf())
    except (TypeError, ValueError, ArithmeticError):
        return False
    return angle.imag == 0 and abs(angle.real - degrees) <= 1e-9 * max(1.0, abs(degrees))
