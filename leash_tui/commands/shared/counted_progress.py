"""The rich progress bars of the commands: a title, a bar and done/total, then columns.

``leash sample``, ``leash verify``, ``leash entropy``/``perplexity`` and ``leash demo --train``
each show such a bar; they differ only in the title and the columns after done/total.
"""

from __future__ import annotations

from typing import Any

#: In ``counted_progress``'s columns: the time elapsed, and the time remaining.
ELAPSED: Any = object()
REMAINING: Any = object()


def counted_progress(title: str, *columns: Any, **options: Any) -> Any:
    """``Progress(TextColumn(title), BarColumn(), MofNCompleteColumn(), *columns, **options)``.

    In ``columns`` a str is a ``TextColumn`` template, ``ELAPSED`` and ``REMAINING`` the time
    columns, anything else a rich column used as it is."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    def column(spec: Any) -> Any:
        if spec is ELAPSED:
            return TimeElapsedColumn()
        if spec is REMAINING:
            return TimeRemainingColumn()
        return TextColumn(spec) if isinstance(spec, str) else spec

    return Progress(
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        *(column(spec) for spec in columns),
        **options,
    )
