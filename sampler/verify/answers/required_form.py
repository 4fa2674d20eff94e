"""The form a question requires: "Factor completely" wants a product, "Expand" a sum.

``required_form`` reads the instruction a problem opens a sentence with ("Factor
$x^2-1$.", "Factor the expression completely.", "Expand $(x+1)^2$.") as ``factor`` or
``expand``, or None. ``form_differs`` says whether an answer that equals the gold is still
in the wrong form: a sum where the question says factor and the gold is a product, a
product (or power) where it says expand and the gold is a sum. Without a problem text,
or for any other question, nothing changes.
"""

from __future__ import annotations

import re
from typing import Any

from sympy import Add, Expr, Mul, Pow

_INSTRUCTION_RE = re.compile(
    r"(?:^|[.!?:]\s+|\n\s*)(factor|factorise|factorize|expand)\b",
    re.IGNORECASE,
)


def required_form(problem: str | None) -> str | None:
    """``factor`` or ``expand`` when the problem instructs it (module docstring), else None."""
    if not problem:
        return None
    match = _INSTRUCTION_RE.search(problem[-1500:])
    if match is None:
        return None
    return "expand" if match.group(1).lower() == "expand" else "factor"


def form_differs(form: str, gold: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
    """Whether the answer, equal in value, is not in the form the question requires."""
    g = next((p for p in gold if isinstance(p, Expr)), None)
    a = next((p for p in answer if isinstance(p, Expr)), None)
    if g is None or a is None:
        return False
    if form == "factor":
        return isinstance(g, Mul | Pow) and isinstance(a, Add)
    return isinstance(g, Add) and isinstance(a, Mul | Pow)
