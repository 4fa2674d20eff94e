"""A formula gold with rounded decimal coefficients, compared with an answer at sample points.

A gold such as ``1386.15(e^{0.013t}-1)``, ``0.333333-0.0185185(x-5)`` or
``2.71828182845905^{\\cosh(4x)}\\sinh(4x)4`` states some of its numbers rounded, and
math-verify, which compares exactly, calls the exact answer (``\\frac{18.02}{0.013}(e^{0.013t}
- 1)``, ``\\frac{23-x}{54}``, ``4e^{\\cosh(4x)}\\sinh(4x)``) wrong. ``same_up_to_rounding``
accepts the answer when, at each of a few sample points of the gold's variables, it lies
within the gold's own rounding:

- a decimal literal of the gold with at least ``MIN_ROUNDED_DIGITS`` significant digits is
  rounded to its last digit (as ``gold_types.stated_precision`` reads a decimal gold);
  shorter ones (``0.013``, ``0.5``) may be exact and are taken as exact, so that
  ``e^{0.014t}`` stays wrong;
- the bound at a point is how far the gold moves when each rounded literal moves by half a
  unit in its last place (the farther of up and down, summed over the literals), so an
  answer that states another rounding (``1386.16``) stays wrong, and a difference near a
  root of the gold (``x = 23`` above) is judged on the scale of its terms;
- both sides are evaluated with mpmath at 30 digits; a point where a side has no finite
  value is skipped, and at least two points (one for a gold without variables) must count.

It is asked only after the exact comparison said "not equal", for a single gold holding a
rounded literal, and it is bounded: at most ``_MAX_LITERALS`` rounded literals and
``_MAX_VARIABLES`` variables, a handful of evaluations each (the answer has passed
``answer_size`` and ``parse_depth`` already).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import mpmath
from sympy import Dummy, Expr, Float, lambdify

from sampler.verify.answers.gold_types import MIN_ROUNDED_DIGITS

_LITERAL_RE = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?![\d.])")
_MAX_LITERALS = 8
_MAX_VARIABLES = 3
_POINTS = ("0.37", "0.71", "1.13")
_SHIFT = "0.11"  # each further variable is sampled this much apart from the one before
_DIGITS = 30
_SLACK = mpmath.mpf("1e-20")  # relative: evaluation error at 30 digits


def rounded_literals(latex: str) -> list[tuple[Decimal, Decimal]]:
    """The gold's decimal literals stated to at least ``MIN_ROUNDED_DIGITS`` significant
    digits, each with one unit in its last place: ``1386.15`` is (1386.15, 0.01)."""
    out = []
    for match in _LITERAL_RE.finditer(latex):
        digits = (match.group(1) + match.group(2)).lstrip("0")
        if len(digits) >= MIN_ROUNDED_DIGITS:
            out.append((Decimal(match.group(0)), Decimal(1).scaleb(-len(match.group(2)))))
    return out


def _rounded_atoms(gold: Expr, literals: list[tuple[Decimal, Decimal]]) -> dict[Float, Decimal]:
    """The gold's float atoms that are its rounded literals, each with its unit."""
    out = {}
    for atom in gold.atoms(Float):
        value = abs(Decimal(str(float(atom))))
        for literal, unit in literals:
            if abs(value - literal) <= literal * Decimal("1e-12"):
                out[atom] = unit
                break
    return out


def _finite(value: object) -> bool:
    try:
        return not (mpmath.isnan(value) or mpmath.isinf(value))
    except (TypeError, ValueError):
        return False


def same_up_to_rounding(latex: str, gold: Expr, answer: Expr) -> bool:
    """Whether ``answer`` equals the formula gold ``gold`` (written ``latex``) within the
    rounding of its decimal literals, at every sample point (see the module docstring)."""
    literals = rounded_literals(latex)
    if not literals or len(literals) > _MAX_LITERALS:
        return False
    variables = sorted(gold.free_symbols, key=str)
    if len(variables) > _MAX_VARIABLES or not answer.free_symbols <= set(variables):
        return False
    atoms = _rounded_atoms(gold, literals)
    if not atoms:
        return False
    names = {atom: Dummy() for atom in atoms}
    values = {names[atom]: mpmath.mpf(str(atom)) for atom in atoms}
    units = {names[atom]: mpmath.mpf(str(unit)) for atom, unit in atoms.items()}
    coefficients = list(names.values())
    try:
        gold_at = lambdify(variables + coefficients, gold.xreplace(names), "mpmath")
        answer_at = lambdify(variables, answer, "mpmath")
    except Exception:  # sympy's printers raise many types on odd input; no verdict then
        return False
    counted = 0
    with mpmath.workdps(_DIGITS):
        for point in _POINTS if variables else _POINTS[:1]:
            xs = [mpmath.mpf(point) + i * mpmath.mpf(_SHIFT) for i in range(len(variables))]
            verdict = _agrees_at(gold_at, answer_at, xs, coefficients, values, units)
            if verdict is False:
                return False
            counted += verdict is True
    return counted >= (2 if variables else 1)


def _agrees_at(
    gold_at: Callable[..., Any],
    answer_at: Callable[..., Any],
    xs: list[Any],
    coefficients: list[Dummy],
    values: dict[Dummy, Any],
    units: dict[Dummy, Any],
) -> bool | None:
    """True/False: the answer is/is not within the gold's rounding at ``xs``; None: no
    finite value on either side there (the point is skipped)."""
    try:
        exact = [values[c] for c in coefficients]
        g, a = gold_at(*xs, *exact), answer_at(*xs)
        if not (_finite(g) and _finite(a)):
            return None if not (_finite(g) or _finite(a)) else False
        bound = mpmath.mpf(0)
        for i, c in enumerate(coefficients):
            moves = []
            for step in (units[c] / 2, -units[c] / 2):
                moved = [*exact[:i], exact[i] + step, *exact[i + 1 :]]
                moves.append(abs(gold_at(*xs, *moved) - g))
            bound += max(moves)
    except Exception:  # mpmath raises many types outside a function's domain: no point
        return None
    if not _finite(bound):
        return None
    return bool(abs(g - a) <= bound + _SLACK * max(abs(g), abs(a)))
