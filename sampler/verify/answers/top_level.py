"""A list written in LaTeX, split at its top-level commas: ``split_top_level``.

Golds (``golds``), answers (``verdict``) and the notations that rewrite them (``answer_forms``)
all read lists so; this module imports nothing of theirs, so any of them may use it.
"""

from __future__ import annotations

_OPENERS = "([{"
_CLOSERS = ")]}"


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
