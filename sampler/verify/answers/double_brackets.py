"""Answers wrapped in double square brackets, the format a prompt asks for.

"Wrap your final answer in double square brackets, like this: [[A]]" (KOR-Bench's puzzles,
judges' ``[[5]]``): ``final_statements.double_brackets`` reads the last such answer of a
completion, and a gold written in the wrapper is what it wraps (``unwrapped_double_brackets``).
Not a wrapper: brackets after a name, a call or an opening bracket (``np.array([[1, 2]])``),
or that hold brackets themselves (a matrix's rows ``[[1, 2], [3, 4]]``).
"""

from __future__ import annotations

import re

DOUBLE_BRACKETS_RE = re.compile(r"(?<![\w(=,\[])\[\[(?P<rest>[^\[\]\n]{1,200})\]\](?!\])")


def unwrapped_double_brackets(gold: str) -> str | None:
    """A gold written in the wrapper its prompt asked for (``[[UHMF]]``): what it wraps."""
    match = DOUBLE_BRACKETS_RE.fullmatch(gold.strip())
    return match.group("rest").strip() if match is not None else None
