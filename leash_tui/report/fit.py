"""Tables that fit the terminal without cutting a name or a number.

rich shrinks a table that is wider than the console by truncating cells (``mod…``,
``…`` for a count). ``print_fitted`` never lets it: names and numbers are measured
whole, and a table too wide for the console is split into parts that repeat the
row's name columns and keep each group of columns together (counts, rates, ...).
When even one group does not fit beside the names, every row is stacked as a
record: its name on one line, then ``header value`` pairs packed to the width.
Only columns marked ``wrap`` (free text such as a source or sampling settings) may
wrap. Output to a pipe or file is printed at the table's natural width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box as rich_box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

#: Width measured against when asking a table for its natural size.
_UNBOUNDED = 1_000_000
#: Console width used for output to a pipe or file: wide enough for any table.
PIPE_WIDTH = 10_000


@dataclass(frozen=True)
class FitColumn:
    """One column: a header, alignment and how it behaves when the table is too wide."""

    header: str
    justify: str = "right"
    key: bool = False  # names the row: repeated in every part of a split table
    group: int = 0  # columns of one group stay in the same part
    wrap: bool = False  # free text that may wrap (never a name or a number)


@dataclass
class FitRow:
    """The cells of one row (``str`` or ``Text``), and whether a section ends after it."""

    cells: Sequence[str | Text]
    end_section: bool = False
    style: str = ""


@dataclass
class FitTable:
    """What ``print_fitted`` draws: columns, rows, and an optional title and caption."""

    columns: Sequence[FitColumn]
    rows: list[FitRow] = field(default_factory=list)
    title: Text | None = None
    caption: Text | None = None
    box: Any = rich_box.SIMPLE_HEAD
    title_justify: str = "center"
    show_edge: bool = True

    def add_row(self, *cells: str | Text, end_section: bool = False, style: str = "") -> None:
        self.rows.append(FitRow(list(cells), end_section, style))


def console_for(stream: Any, color: bool | None = None) -> Console:
    """A console for ``stream``: the terminal's width on a terminal, unbounded otherwise."""
    tty = stream.isatty() if hasattr(stream, "isatty") else False
    color = tty if color is None else color
    return Console(
        file=stream,
        width=None if tty else PIPE_WIDTH,
        no_color=not color,
        color_system="auto" if color else None,
        force_terminal=color or None,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=False,
    )


def _cell(value: str | Text) -> Text:
    return value.copy() if isinstance(value, Text) else Text(value)


def _table(spec: FitTable, indexes: list[int], title: Text | None, caption: Text | None) -> Table:
    table = Table(
        title=title,
        caption=caption,
        box=spec.box,
        title_justify=spec.title_justify,  # type: ignore[arg-type]
        show_edge=spec.show_edge,
        pad_edge=False,
    )
    for i in indexes:
        column = spec.columns[i]
        # a name or number column is never narrower than its widest cell: rich then
        # cannot cut it, and the table's measured minimum says whether it fits
        widest = None
        if not column.wrap:
            widest = max(
                [cell_len(column.header)] + [_cell(row.cells[i]).cell_len for row in spec.rows]
            )
        table.add_column(
            column.header,
            justify=column.justify,  # type: ignore[arg-type]
            no_wrap=not column.wrap,
            overflow="fold",
            min_width=widest,
        )
    for row in spec.rows:
        table.add_row(
            *(_cell(row.cells[i]) for i in indexes), end_section=row.end_section, style=row.style
        )
    return table


def _min_width(console: Console, table: Table) -> int:
    """The narrowest the table can be drawn without cutting a cell that must not wrap."""
    options = console.options.update_width(_UNBOUNDED)
    return table.__rich_measure__(console, options).minimum


def _parts(console: Console, spec: FitTable, width: int) -> list[list[int]] | None:
    """Column indexes of each part (names first), or None when one group cannot fit."""
    keys = [i for i, c in enumerate(spec.columns) if c.key]
    groups: dict[int, list[int]] = {}
    for i, column in enumerate(spec.columns):
        if not column.key:
            groups.setdefault(column.group, []).append(i)
    parts: list[list[int]] = []
    current: list[int] = []
    for members in groups.values():
        trial = sorted(keys + current + members)
        if _min_width(console, _table(spec, trial, None, None)) <= width:
            current += members
            continue
        if not current:
            return None  # this group alone does not fit beside the names
        parts.append(sorted(keys + current))
        current = list(members)
        if _min_width(console, _table(spec, sorted(keys + current), None, None)) > width:
            return None
    if current or not parts:
        parts.append(sorted(keys + current))
    return parts


def _records(console: Console, spec: FitTable, width: int) -> None:
    """Each row as a record: its names in bold, then ``header value`` pairs to the width."""
    if spec.title is not None:
        console.print(spec.title)
    keys = [i for i, c in enumerate(spec.columns) if c.key]
    for row in spec.rows:
        name = Text(" · ").join(_cell(row.cells[i]) for i in keys) if keys else Text("")
        name.stylize("bold")
        if row.style:
            name.stylize(row.style)
        console.print(name, overflow="fold")
        line = Text("  ")
        for i, column in enumerate(spec.columns):
            if column.key:
                continue
            value = _cell(row.cells[i])
            if column.wrap:  # free text: a line of its own, after what came before
                if cell_len(line.plain) > 2:
                    console.print(line, overflow="fold")
                    line = Text("  ")
                console.print(Text("  ") + Text(f"{column.header}: ", "dim") + value)
                continue
            item = Text(f"{column.header} ", "dim") + value if column.header else value
            if cell_len(line.plain) > 2 and cell_len(line.plain) + 3 + item.cell_len > width:
                console.print(line, overflow="fold")
                line = Text("  ")
            if cell_len(line.plain) > 2:
                line.append("   ")
            line.append_text(item)
        if cell_len(line.plain) > 2:
            console.print(line, overflow="fold")
        if row.end_section:
            console.print()
    if spec.caption is not None:
        console.print(spec.caption)


def print_fitted(console: Console, spec: FitTable) -> str:
    """Print ``spec`` whole, split into parts, or stacked as records; return which."""
    width = console.width
    everything = list(range(len(spec.columns)))
    if _min_width(console, _table(spec, everything, None, None)) <= width:
        console.print(_table(spec, everything, spec.title, spec.caption))
        return "whole"
    parts = _parts(console, spec, width)
    if parts is None:
        _records(console, spec, width)
        return "records"
    for n, indexes in enumerate(parts, 1):
        title = None
        if spec.title is not None:
            title = spec.title.copy()
            title.append(f" ({n}/{len(parts)})", style="dim")
        caption = spec.caption if n == len(parts) else None
        console.print(_table(spec, indexes, title, caption))
    return "parts"
