"""Render a support-dynamics report as a rich table, JSON, CSV, Markdown or LaTeX.

The report becomes one document of sections (report.pair_sections) and each format is
one walk over it (report.write_people: table, Markdown, LaTeX; report.write_data: JSON,
CSV). All formats show the same rows: per target, the benchmarks, then the domains,
then overall. JSON is docs/interchange.md section 2 (numbers unrounded, undefined =
null); CSV is one flat table for scripts (full precision, undefined = empty cell); the
table, Markdown and LaTeX are for people (rounded, undefined = en dash) and say the
epsilon of each budget shown.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from leash_tui.report.build import Report
from leash_tui.report.formats import FORMATS
from leash_tui.report.pair_sections import pair_document
from leash_tui.report.write_data import write_csv, write_json
from leash_tui.report.write_people import latex_escape, print_document, write_latex, write_markdown

__all__ = ["RENDERERS", "latex_escape", "print_table", "render_table", "table_console"]


def render_json(report: Report) -> str:
    return write_json(pair_document(report))


def render_csv(report: Report) -> str:
    """One table; with curves or parts, a first column ``row`` tells the kinds of line apart."""
    return write_csv(pair_document(report))


def render_markdown(report: Report) -> str:
    return write_markdown(pair_document(report))


def render_latex(report: Report) -> str:
    return write_latex(pair_document(report))


def render_table(report: Report, width: int | None = None) -> str:
    """The table as plain text; at its natural width unless ``width`` is given."""
    console = table_console(io.StringIO(), width, color=False)
    print_table(report, console)
    return console.file.getvalue()


def table_console(file: Any, width: int | None, color: bool) -> Any:
    """A console for ``file``: ``width`` None means the terminal's width on a terminal,
    else the table's natural width (a pipe or file is never cut)."""
    from leash_tui.report.fit import PIPE_WIDTH, console_for

    console = console_for(file, color=color)
    if width is not None:
        console.width = width
    elif not color:
        console.width = PIPE_WIDTH
    return console


def print_table(report: Report, console: Any) -> None:
    """One block per target: rows per benchmark, then per domain, then overall.

    Names and numbers are never cut: a table wider than the console is split into
    parts (counts, rates, pass@k, entropies), each repeating the row names, or at
    very narrow widths stacked as one record per row (report.fit).
    """
    print_document(pair_document(report), console)


_BY_NAME: dict[str, Callable[[Report], str]] = {
    "json": render_json,
    "csv": render_csv,
    "markdown": render_markdown,
    "latex": render_latex,
    "table": render_table,
}
#: one renderer per name of report.formats.FORMATS, in that order
RENDERERS: dict[str, Callable[[Report], str]] = {name: _BY_NAME[name] for name in FORMATS}
