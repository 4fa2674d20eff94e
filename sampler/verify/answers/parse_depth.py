"""How deeply an answer nests, so that the parser is never handed a pathological one.

math-verify's LaTeX parser reads ``\\frac{1}{\\frac{1}{...2}}`` nested 150 or more
deep as ``1/2`` (it gives up on the inner levels silently), so such an answer could
be graded correct. No real answer nests anywhere near ``MAX_PARSE_DEPTH``; deeper
ones get status ``error`` instead of a parse.
"""

from __future__ import annotations

#: braces, brackets and parentheses open at once, at most, in what the parser is given
MAX_PARSE_DEPTH = 64

_OPEN = frozenset("{[(")
_CLOSE = frozenset("}])")


def nesting_depth(text: str) -> int:
    """The largest number of brackets of any kind open at once in ``text`` (linear)."""
    depth = deepest = 0
    for ch in text:
        if ch in _OPEN:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in _CLOSE and depth:
            depth -= 1
    return deepest


def too_deep(text: str) -> str | None:
    """Why ``text`` is not handed to the parser (None when it may be)."""
    depth = nesting_depth(text)
    if depth > MAX_PARSE_DEPTH:
        return f"nested {depth} deep, more than the {MAX_PARSE_DEPTH} leash hands to the parser"
    return None
