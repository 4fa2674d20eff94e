"""Answers equal to the gold in a form math-verify does not prove equal.

``math_verifier.judge`` asks ``equal_in_form`` when its comparison says "not equal",
for a single gold (no parts). Each check is built for a class of forms, and each is
bounded in cost (the answer has passed ``answer_size``'s bounds before any parse):

- **degrees inside trigonometric functions**: ``\\sin(90^\\circ - x)`` is ``\\cos x``.
  math-verify drops the degree sign and reads ``\\sin(90 - x)``. Every ``N^\\circ`` of a
  side that calls a trigonometric function becomes ``N\\pi/180``, and the sides are
  compared again (sympy evaluates ``sin(pi/2 - x)`` to ``cos(x)`` as it builds it);
- **hyperbolic and trigonometric functions against exponentials**: ``\\sinh(at)/a`` and
  ``(e^{at} - e^{-at})/(2a)``. When one side calls such a function, both are rewritten in
  exponentials and their difference simplified, only for expressions of at most
  ``_MAX_OPS`` operations (``simplify`` on larger ones can take seconds);
- **set-builder notation**: ``\\{x | x = 3k\\}``, ``\\{x \\mid x=3k\\}`` and ``\\{ x \\,|\\,
  x = 3k \\}`` are one set. Both sides are read as (variable, condition); the variables
  must be the same, and the conditions equal as written without spacing, or as math. A set
  written by its elements' form, ``\\{3k \\mid k \\in \\mathbb{Z}\\}``, is the set ``\\{x \\mid
  x = 3k, k \\in \\mathbb{Z}\\}`` (the variable's defining equation first, then the rest);
- **a function's rule under another label**: the gold ``f(x) = 2x + 1`` and the answer ``y
  = 2x + 1`` (or the other way round, or ``f(x)`` for ``y(x)``): an equation whose left side
  is a label alone (``y``, or one letter applied to a variable the right side uses) states
  its right side; the right sides are compared. ``2x + 1`` alone already matches;
- **an ordering for a chain of inequalities**: the gold ``b > a > c`` and the answer
  ``b, a, c`` (the terms in the order the gold writes them), or the same chain written
  the other way (``c < a < b``). Terms in another order stay wrong;
- **a decimal comma**: the European gold ``1,22`` (one or two digits after the comma;
  three are thousands, ``1,000``) and the answer ``1.22``, a decimal of the same value.
  math-verify reads the gold as the list {1, 22}, which the answer ``1, 22`` still matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from sympy import Basic, exp, simplify

from sampler.verify.answers.golds import DECIMAL_COMMA_RE

Parse = Callable[[str], tuple[Any, ...]]
Same = Callable[[tuple[Any, ...], tuple[Any, ...]], bool]

#: the most operations (sympy ``count_ops``) a side rewritten in exponentials may hold
_MAX_OPS = 40
_TRIG_RE = re.compile(r"\\(?:sin|cos|tan|cot|sec|csc)(?![a-z])")
_HYPERBOLIC_RE = re.compile(r"\\(?:sinh|cosh|tanh|coth)(?![a-z])|\\operatorname\{(?:sinh|cosh)")
_DEGREE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°)")
_SPACING_RE = re.compile(r"\s+|\\[,;:! ]|~|\\q?quad|\\left|\\right")
_SET_BUILDER_RE = re.compile(r"\\\{(?P<var>[^{}|]{1,20}?)(?:\||\\mid|:)(?P<cond>.{1,200})\\\}")
_LETTER_VAR_RE = re.compile(r"[A-Za-z]")
#: an equation whose left side is a function's label: ``y``, ``f(x)``, ``y(t)``
_RULE_RE = re.compile(
    r"\s*(?P<lhs>y|[A-Za-z]\s*\(\s*(?P<var>[a-z])\s*\))\s*=\s*(?P<rhs>[^=]{1,300})"
)
_CHAIN_SPLIT_RE = re.compile(r"\s*(>|<|\\gt|\\lt)\s*")
_DECIMAL_POINT_RE = re.compile(r"-?\d+\.\d+")


def equal_in_form(gold: str, answer: str, parse: Parse, same: Same) -> bool:
    """Whether ``answer`` equals ``gold`` by one of the module's checks."""
    return (
        _same_with_degrees(gold, answer, parse, same)
        or _same_in_exponentials(gold, answer, parse)
        or _same_set_builder(gold, answer, parse, same)
        or _same_rule(gold, answer, parse, same)
        or _ordering_of_chain(gold, answer)
        or _decimal_comma(gold, answer)
    )


def _radians(text: str) -> str:
    return _DEGREE_RE.sub(lambda m: f"\\frac{{{m.group(1)}\\pi}}{{180}}", text)


def _same_with_degrees(gold: str, answer: str, parse: Parse, same: Same) -> bool:
    sides = (gold, answer)
    if not any(_TRIG_RE.search(s) and _DEGREE_RE.search(s) for s in sides):
        return False
    g, a = (_radians(s) if _TRIG_RE.search(s) else s for s in sides)
    parsed_gold, parsed_answer = parse(g), parse(a)
    return bool(parsed_gold and parsed_answer) and same(parsed_gold, parsed_answer)


def _expression(parsed: tuple[Any, ...]) -> Basic | None:
    return next((p for p in parsed if isinstance(p, Basic)), None)


def _same_in_exponentials(gold: str, answer: str, parse: Parse) -> bool:
    if not (_HYPERBOLIC_RE.search(gold) or _HYPERBOLIC_RE.search(answer)):
        return False
    g, a = _expression(parse(gold)), _expression(parse(answer))
    if g is None or a is None or g.count_ops() > _MAX_OPS or a.count_ops() > _MAX_OPS:
        return False
    try:
        difference = simplify((g - a).rewrite(exp))
    except (TypeError, ValueError, AttributeError):
        return False
    return difference == 0


def _set_builder(text: str) -> tuple[str, str] | None:
    compact = _SPACING_RE.sub("", text).replace("\\mid", "|")
    match = _SET_BUILDER_RE.fullmatch(compact)
    return (match.group("var"), match.group("cond")) if match else None


def _by_element(builder: tuple[str, str]) -> tuple[str, str] | None:
    """``(x, "x=3k,k\\in\\mathbb{Z}")`` as the elements' form and the rest: ``("3k",
    "k\\in\\mathbb{Z}")``; None when the condition does not open with the variable's equation."""
    var, cond = builder
    if not _LETTER_VAR_RE.fullmatch(var) or not cond.startswith(var + "="):
        return None
    element, comma, rest = cond[len(var) + 1 :].partition(",")
    return (element, rest) if comma and element and rest else None


def _same_set_builder(gold: str, answer: str, parse: Parse, same: Same) -> bool:
    g, a = _set_builder(gold), _set_builder(answer)
    if g is None or a is None:
        return False
    if g[0] != a[0]:  # "{3k | k in Z}" for "{x | x = 3k, k in Z}": by the elements' form
        g, a = _by_element(g) or g, _by_element(a) or a
        if g[0] != a[0] and not _same_math(g[0], a[0], parse, same):
            return False
    if g[1] == a[1]:
        return True
    return _same_math(g[1], a[1], parse, same)


def _same_math(gold: str, answer: str, parse: Parse, same: Same) -> bool:
    parsed_gold, parsed_answer = parse(gold), parse(answer)
    return bool(parsed_gold and parsed_answer) and same(parsed_gold, parsed_answer)


def _rule(text: str) -> tuple[str, str] | None:
    """(label, right side) of an equation whose left side is a function's label alone
    (``y``, ``f(x)`` with x on the right), else None."""
    match = _RULE_RE.fullmatch(text.strip().rstrip("."))
    if match is None or "=" in match.group("rhs"):
        return None
    var = match.group("var")
    if var is not None and not re.search(rf"(?<![A-Za-z\\]){var}(?![A-Za-z])", match.group("rhs")):
        return None
    return _SPACING_RE.sub("", match.group("lhs")), match.group("rhs")


def _same_rule(gold: str, answer: str, parse: Parse, same: Same) -> bool:
    g, a = _rule(gold), _rule(answer)
    if g is None or a is None or g[0] == a[0]:
        return False  # the same label: the comparison of the equations stands
    return _same_math(g[1], a[1], parse, same)


def _chain(text: str) -> tuple[list[str], list[str]] | None:
    """The terms of a chain of one strict inequality sign (``b > a > c``): as written, and
    largest first."""
    pieces = _CHAIN_SPLIT_RE.split(text.strip())
    terms, signs = pieces[::2], {p.replace("\\gt", ">").replace("\\lt", "<") for p in pieces[1::2]}
    if len(terms) < 3 or len(signs) != 1 or not all(t.strip() for t in terms):
        return None
    terms = [_SPACING_RE.sub("", t) for t in terms]
    return terms, (terms if signs == {">"} else terms[::-1])


def _ordering_of_chain(gold: str, answer: str) -> bool:
    chain = _chain(gold)
    if chain is None:
        return False
    written, largest_first = chain
    listed = [_SPACING_RE.sub("", t) for t in answer.split(",")]
    if len(listed) == len(written) and all(listed):
        return listed == written  # the terms in the order the gold writes them
    theirs = _chain(answer)
    return theirs is not None and theirs[1] == largest_first


def _decimal_comma(gold: str, answer: str) -> bool:
    """A gold with a decimal comma (``1,22``) and an answer with a decimal point, equal."""
    g, a = gold.strip(), answer.strip()
    if not (DECIMAL_COMMA_RE.fullmatch(g) and _DECIMAL_POINT_RE.fullmatch(a)):
        return False
    return Decimal(g.replace(",", ".")) == Decimal(a)
