"""The benchmark summary pane: one row per benchmark, per domain and overall, for the pair.

Shows what ``analysis.support.summary_rows`` computes (N, P/E/S/O, SRR, NDR, SDS,
NSCR, pass@1 and pass@k of both models, token and answer entropy when known).
Selecting a row (Enter) filters the question list to that benchmark, that
domain's benchmarks, or everything (overall).
"""

from __future__ import annotations

from typing import Any, ClassVar

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
        self._domains: dict[str, str] = {}

    def on_mount(self) -> None:
        for _, title in COLUMNS:
            self.add_column(Text(title, justify="left" if title == "scope" else "right"))

    def show(self, rows: list[dict], domains: dict[str, str], title: Text) -> None:
        cursor = self.cursor_row
        self._rows, self._domains = rows, domains
        self.clear()
        for i, row in enumerate(rows):
            self.add_row(*cells(row), key=str(i))
        self.border_title = title
        if rows:
            self.move_cursor(row=min(cursor, len(rows) - 1), animate=False)

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
