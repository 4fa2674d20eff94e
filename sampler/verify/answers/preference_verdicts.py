"""A pairwise judge's verdict label against a gold that states a preference.

Arena-Hard's judges end ``My final verdict is: [[B>>A]]`` on a five-point scale (``A>>B``,
``A>B``, ``A=B``, ``B>A``, ``B>>A``); benchmarks of judges (JudgeBench) give the gold as
the direction alone, ``B>A``, and count ``B>>A`` as agreeing with it. Read as math or text,
``B>>A`` was no ``B>A``, and ``A<B`` (the same preference written the other way) was not
either.

``stated_preference`` writes both in one form, the preferred label first (``A<B`` is
``B>A``, ``B=A`` is ``A=B``), and against a gold without strength (one ``>``) leaves out
the answer's (``B>>A`` is ``B>A``); a gold with strength (``B>>A``) keeps it, so ``B>A``
is not it. The verdict then compares the two forms.
"""

from __future__ import annotations

import re

_PREFERENCE_RE = re.compile(r"\s*([A-Z])\s*(>>|>|=|<<|<)\s*([A-Z])\s*\.?\s*")


def _canonical(left: str, relation: str, right: str) -> tuple[str, str, str]:
    """(preferred, relation, other), ``>`` or ``>>`` or ``=`` (ties in label order)."""
    if relation == "=":
        first, second = sorted((left, right))
        return first, "=", second
    if relation.startswith("<"):
        return right, ">" * len(relation), left
    return left, relation, right


def stated_preference(answer: str, gold: str) -> str | None:
    """``answer``'s preference written as the gold's is compared (module docstring); None
    when the gold or the answer is no preference between two labels."""
    wanted = _PREFERENCE_RE.fullmatch(gold)
    said = _PREFERENCE_RE.fullmatch(answer)
    if wanted is None or said is None or said.group(1) == said.group(3):
        return None
    preferred, relation, other = _canonical(*said.groups())
    if _canonical(*wanted.groups())[1] == ">" and relation == ">>":
        relation = ">"  # the gold states the direction only
    return f"{preferred}{relation}{other}"
