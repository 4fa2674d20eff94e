"""Natural order of question ids: ``4`` before ``29`` before ``100``; text compares as text.

Every listing of questions (witnesses, warnings, export) sorts ids with ``natural_key``
so that numeric ids read in numeric order, as the explorer's list shows them.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"(\d+)")


def natural_key(question_id: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key for ``question_id``: runs of digits compare as numbers, the rest as text
    (``a2`` < ``a10``; ``olympiadbench/4`` < ``olympiadbench/29``)."""
    parts = _DIGITS.split(question_id)
    return tuple(
        (0, int(part), part) if i % 2 else (1, 0, part) for i, part in enumerate(parts) if part
    )
