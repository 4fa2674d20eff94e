"""The benchmark summary pane: one row per benchmark, per domain and overall, for the pair.

Shows what ``analysis.support.summary_rows`` computes (N, P/E/S/O, SRR, NDR, SDS,
NSCR, pass@1 and pass@k of both models, token and answer entropy when known).
Selecting a row (Enter) filters the question list to that benchmark, that
domain's benchmarks, or everything (overall). The scope names stay in place; the
other columns are split into pages of whole columns that fit the pane (as
``leash report`` splits its tables), and ←/→ turn the page (from the question list too:
the main screen passes them on).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.binding import BindingType
from textual.message import Message
from textual.widgets import DataTable

from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.styles import COUNT_STYLES
from leash_tui.report.columns import pane_columns
from leash_tui.safe_text import one_line

#: From the report's column registry (``pane`` ranks), laid out for 80 columns first:
#: what decides triage (the counts, pass@k, the net change) comes first and fits at 80;
#: the rest follows as width allows (scroll right for it).
PANE = pane_columns()
COLUMNS = (("name", "scope"), *((column.key, header) for column, header in PANE))


def _number(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if value.is_integer() and digits == 0:
            return str(int(value))
        return f"{value:.{digits}f}"
    return str(value)


def _count(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"  # expected counts at a smaller budget
    return "–" if value is None else str(int(value))


def _pair(value: Any, digits: int = 2) -> str:
    if not isinstance(value, dict):
        return "–"
    return f"{_number(value.get('base'), digits)}→{_number(value.get('target'), digits)}"


def cells(row: dict) -> list[Text]:
    """The cells of one summary row, as rich Text (never markup)."""
    name = one_line(str(row.get("name", "")), 24)
    if row.get("scope") == "domain":
        name = f"{name} (domain)"
    out = [Text(name, style="bold" if row.get("scope") == "overall" else "")]
    for column, _ in PANE:
        value = column.value(row)
        if column.kind in ("int", "count"):
            style = COUNT_STYLES.get(column.key, "")
            out.append(Text(_count(value), style=style, justify="right"))
        elif column.kind == "pair":
            out.append(Text(_pair(value), justify="right"))
        else:
            out.append(Text(_number(value), justify="right"))
    return out


class SummaryPane(DataTable):
    """The per-benchmark / per-domain / overall table for the selected pair."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("list")

    DEFAULT_CSS = """
    SummaryPane {
        height: auto;
        max-height: 9;
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    SummaryPane:focus { border: round $accent; }
    """

    class Chosen(Message):
        """A row was chosen: filter the list to ``benchmarks`` (None = everything)."""

        def __init__(self, label: str, benchmarks: set[str] | None) -> None:
            self.label = label
            self.benchmarks = benchmarks
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._rows: list[dict] = []
        self._cells: list[list[Text]] = []
        self._domains: dict[str, str] = {}
        self._pages: list[list[int]] = [list(range(1, len(COLUMNS)))]
        self._page = 0
        self._status = ""  # what the screen says of the figures (entropies computing, ...)

    @property
    def column_pages(self) -> list[list[str]]:
        """The column titles of each page (the scope column is on every page)."""
        return [[COLUMNS[i][1] for i in page] for page in self._pages]

    @property
    def page(self) -> int:
        return self._page

    def _paginate(self) -> list[list[int]]:
        """Whole columns that fit the pane's width, page by page, after the scope names."""
        width = self.size.width or (self.app.size.width - 2)
        if len(self._cells) + 1 > 7:  # rows beyond the pane's height: a vertical scrollbar
            width -= 2
        widths = [w + 2 for w in self._widths()]  # a cell's padding on each side
        room = max(1, width - widths[0])
        pages: list[list[int]] = [[]]
        used = 0
        for i in range(1, len(COLUMNS)):
            if pages[-1] and used + widths[i] > room:
                pages.append([])
                used = 0
            pages[-1].append(i)
            used += widths[i]
        return pages

    def _widths(self) -> list[int]:
        """Each column's content width: its title or its widest cell."""
        return [
            max([cell_len(title), *(c[i].cell_len for c in self._cells)])
            for i, (_, title) in enumerate(COLUMNS)
        ]

    def _draw(self) -> None:
        cursor = self.cursor_row
        shown = [0, *self._pages[self._page]]
        widths = self._widths()
        self.clear(columns=True)
        for i in shown:  # fixed widths: a page never draws cut before its rows are measured
            title = COLUMNS[i][1]
            self.add_column(Text(title, justify="left" if i == 0 else "right"), width=widths[i])
        for n, row in enumerate(self._cells):
            self.add_row(*(row[i] for i in shown), key=str(n))
        self._draw_subtitle()
        if self._cells:
            self.move_cursor(row=min(cursor, len(self._cells) - 1), animate=False)

    def _draw_subtitle(self) -> None:
        """The status, then the page of columns shown: one subtitle, whichever of them
        changed last (a refreshed summary keeps the page hint, a turned page the status)."""
        parts = [self._status] if self._status else []
        if len(self._pages) > 1:
            parts.append(f"columns {self._page + 1}/{len(self._pages)} · ←/→")
        self.border_subtitle = Text(" · ".join(parts)) if parts else None

    def _repaginate(self) -> None:
        pages = self._paginate()
        if pages != self._pages or not self.columns:
            self._pages = pages
            self._page = min(self._page, len(pages) - 1)
            self._draw()

    def on_mount(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._repaginate()

    def show(
        self, rows: list[dict], domains: dict[str, str], title: Text, status: str = ""
    ) -> None:
        """Show ``rows``; ``status`` (plain text) goes in the subtitle before the page hint."""
        self._rows, self._domains, self._status = rows, domains, status
        self._cells = [cells(row) for row in rows]
        self.border_title = title
        self._pages = self._paginate()
        self._page = min(self._page, len(self._pages) - 1)
        self._draw()

    def turn_page(self, delta: int) -> bool:
        """Show the next (``delta`` 1) or previous (-1) page of columns; False when they
        all fit one page."""
        if len(self._pages) < 2:
            return False
        self._page = (self._page + delta) % len(self._pages)
        self._draw()
        return True

    def action_cursor_right(self) -> None:
        """The next page of columns (a pane that fits them all scrolls as a table does)."""
        if not self.turn_page(1):
            super().action_cursor_right()

    def action_cursor_left(self) -> None:
        if not self.turn_page(-1):
            super().action_cursor_left()

    def action_cursor_first(self) -> None:
        self.move_cursor(row=0)

    def action_cursor_last(self) -> None:
        self.move_cursor(row=max(0, self.row_count - 1))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self._rows[event.cursor_row]
        name, scope = row.get("name"), row.get("scope")
        if scope == "benchmark":
            self.post_message(self.Chosen(str(name), {str(name)}))
        elif scope == "domain":
            names = {b for b, d in self._domains.items() if d == name}
            self.post_message(self.Chosen(f"domain {name}", names))
        else:
            self.post_message(self.Chosen("overall", None))
