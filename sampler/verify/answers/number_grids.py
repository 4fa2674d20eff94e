"""A gold that is a grid of numbers (a solved Sudoku, a matrix written as rows), compared whole.

A gold of two or more lines, each a row of integers of one length (``2 5 7 … 1\\n1 4 6 …``),
is a grid, ``Gold.kind == "grid"``. Read as math it was its last number, so any completion
whose last number matched was correct: a false accept of every wrong grid that happens to
end alike. The answer to a grid gold is the last run of rows of the gold's width that the
completion writes (spaces, commas, ``|`` or brackets between the numbers; a Markdown
table's rule line skipped), its last rows as many as the gold's; no such run is no answer.
The verdict is equality, cell by cell. Linear: one pass over the lines.
"""

from __future__ import annotations

import re

#: what may stand between and around a row's numbers: spaces, commas, bars, brackets
_ROW_NOISE_RE = re.compile(r"[|\[\](),;]")
_INTEGER_RE = re.compile(r"-?\d+")
#: a Markdown table's rule line: "|---|---|"
_TABLE_RULE_RE = re.compile(r"[\s|:+-]*-{3}[\s|:+-]*")
_MAX_LINES = 400


def grid_row(line: str) -> tuple[str, ...] | None:
    """``line`` as a row of two or more integers, else None."""
    cells = _ROW_NOISE_RE.sub(" ", line).split()
    if len(cells) < 2 or not all(_INTEGER_RE.fullmatch(c) for c in cells):
        return None
    return tuple(str(int(c)) for c in cells)


def gold_grid(gold: str) -> str | None:
    """A gold that is a grid, as rows of single-spaced numbers joined by line breaks; None
    for any other gold (one line, rows of other lengths, a cell that is no integer)."""
    lines = [line for line in gold.strip().splitlines() if line.strip()]
    if len(lines) < 2 or len(lines) > _MAX_LINES:
        return None
    rows = [grid_row(line) for line in lines]
    if any(r is None for r in rows) or len({len(r) for r in rows if r is not None}) != 1:
        return None
    return "\n".join(" ".join(r) for r in rows if r is not None)


def closing_grid(text: str, gold: str) -> str | None:
    """The grid a completion closes with for a grid ``gold``: the last rows of the gold's
    width, as many as the gold's, from the last run of such rows; None when it writes none."""
    gold_rows = gold.splitlines()
    height, width = len(gold_rows), len(gold_rows[0].split())
    best: list[tuple[str, ...]] = []
    run: list[tuple[str, ...]] = []
    for line in text.splitlines()[-_MAX_LINES * 4 :]:
        if _TABLE_RULE_RE.fullmatch(line) and run:
            continue
        row = grid_row(line)
        if row is not None and len(row) == width:
            run.append(row)
            if len(run) >= height:
                best = run[-height:]
        else:
            run = []
    return "\n".join(" ".join(r) for r in best) if best else None
