"""Border titles and subtitles that fit: whole parts or whole words, then an ellipsis.

Textual cuts a border title that is too long at the last cell that fits (``75 t…``,
``demo-rlvr-…``). ``fit_parts`` keeps as many whole `` · ``-separated parts as fit
and ends with `` …`` when it dropped some; ``cut_at_word`` does the same for words.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text

ELLIPSIS = "…"
#: Cells a round border and its corner decoration take from a title's room.
BORDER_CELLS = 6


def cut_at_word(text: str, width: int) -> str:
    """``text`` if it fits ``width`` cells, else its longest run of whole words that fits
    with `` …`` after it (a single word longer than the room is cut inside, with ``…``)."""
    if cell_len(text) <= width:
        return text
    room = max(1, width - 2)
    words = text.split(" ")
    kept = ""
    for word in words:
        trial = f"{kept} {word}" if kept else word
        if cell_len(trial) > room:
            break
        kept = trial
    if not kept:
        cut = text
        while cut and cell_len(cut) > max(0, width - 1):
            cut = cut[:-1]
        return cut + ELLIPSIS
    return f"{kept} {ELLIPSIS}"


def fit_parts(parts: Sequence[Text], width: int, separator: str = " · ") -> Text:
    """The first parts, joined by ``separator``, that fit ``width`` cells; `` …`` marks
    parts left out. The first part is cut at a word when even it does not fit."""
    out = Text()
    for i, part in enumerate(parts):
        joiner = separator if i else ""
        rest = len(parts) - i - 1
        need = cell_len(joiner) + part.cell_len + (2 if rest else 0)
        if out.cell_len + need > width:
            if i == 0:
                return Text(cut_at_word(part.plain, width), style=part.style)
            out.append(f" {ELLIPSIS}")
            return out
        out.append(joiner)
        out.append_text(part)
    return out
