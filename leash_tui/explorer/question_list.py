"""The question list: a virtual list that renders only the rows on screen (Textual Line API).

A DataTable builds a row object per question up front, which grows with the
folder; this widget keeps nothing per row. It asks the ``ExplorerModel`` for the
rows it paints, so a list of a million questions opens as fast as one of ten.
The first line is a fixed header. Untrusted text (ids, problem previews) is made
visible with ``safe_text`` and painted as plain segments, never parsed as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from leash_tui.explorer.commands import bindings
from leash_tui.explorer.explorer_model import ExplorerModel, QuestionRow
from leash_tui.safe_text import one_line

CATEGORY_STYLES = {
    "S": Style(color="red", bold=True),
    "E": Style(color="green", bold=True),
    "P": Style(),
    "O": Style(dim=True),
}


@dataclass(frozen=True)
class Column:
    title: str
    width: int
    align: str = "left"


def format_p(p: float | None) -> str:
    if p is None:
        return "–"
    if p == 1.0:
        return "1"
    if p >= 0.001:
        return f"{p:.3f}"
    return f"{p:.0e}"


def _layout(width: int, steps: int = 0) -> list[Column]:
    """Columns that fit ``width``; a problem preview takes what is left when there is room.
    With a training series (``steps`` > 0), a strip of the question's support per step."""
    cols = [
        Column("benchmark", 16),
        Column("id", 8),
        Column("cat", 3),
        Column("base c/n", 11, "right"),
        Column("target c/n", 11, "right"),
        Column("p", 7, "right"),
        Column("tag", 7),
    ]
    if steps:
        cols.insert(3, Column("steps", max(5, steps)))
    used = sum(c.width + 1 for c in cols)
    if width - used >= 20:
        cols.append(Column("problem", width - used))
    elif width < used:  # narrow terminal: shrink the benchmark column first
        cols[0] = Column("benchmark", max(6, cols[0].width - (used - width)))
    return cols


def _fit(text: str, width: int, align: str) -> str:
    """``text`` cut (with an ellipsis) or padded to exactly ``width`` terminal cells."""
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…" if width > 1 else set_cell_size(text, width)
    pad = " " * (width - cell_len(text))
    return pad + text if align == "right" else text + pad


class QuestionList(ScrollView, can_focus=True):
    """Virtual list over ``ExplorerModel.view``."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("list")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"question-list--header", "question-list--cursor"}
    DEFAULT_CSS = """
    QuestionList {
        height: 1fr;
        overflow-x: hidden;
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    QuestionList:focus { border: round $accent; }
    QuestionList > .question-list--header { text-style: bold; color: $text-muted; }
    QuestionList > .question-list--cursor { background: $accent 40%; }
    QuestionList:blur > .question-list--cursor { background: $panel-lighten-2; }
    """

    cursor: reactive[int] = reactive(0, always_update=True)

    class Highlighted(Message):
        def __init__(self, row: QuestionRow | None) -> None:
            self.row = row
            super().__init__()

    class Opened(Message):
        def __init__(self, row: QuestionRow) -> None:
            self.row = row
            super().__init__()

    def __init__(self, model: ExplorerModel, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model

    # -- data changes ---------------------------------------------------------------------
    def reload(self, keep: tuple[str, str] | None = None) -> None:
        """The view changed (filter, sort, target, tags): repaint; keep ``keep`` under the
        cursor when it is still listed, else go to the top."""
        position = self.model.position_of(*keep) if keep else None
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.model) + 1)
        self.cursor = position if position is not None else 0
        self._update_titles()
        self.refresh()

    def _update_titles(self) -> None:
        model = self.model
        shown = f"{len(model):,} of {model.total:,} questions"
        if model.disagreement_filter:
            shown += " · grading disagreements"
        self.border_title = shown
        extra = model.filter_description()
        self.border_subtitle = f"sort: {model.sort_label}" + (f" · {extra}" if extra else "")

    def on_mount(self) -> None:
        self.reload()

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.model) + 1)

    @property
    def current(self) -> QuestionRow | None:
        if not len(self.model):
            return None
        return self.model.row(min(self.cursor, len(self.model) - 1))

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.model) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self.current))

    def _scroll_to_cursor(self) -> None:
        visible = max(1, self.scrollable_content_region.height - 1)
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + visible:
            self.scroll_to(y=self.cursor - visible + 1, animate=False, immediate=True)

    # -- actions ------------------------------------------------------------------------
    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_cursor_first(self) -> None:
        self.cursor = 0

    def action_cursor_last(self) -> None:
        self.cursor = len(self.model) - 1

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 2)

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 2)

    def open_current(self) -> None:
        row = self.current
        if row is not None:
            self.post_message(self.Opened(row))

    async def _on_click(self, event) -> None:  # mouse is optional; keys do everything
        row = self.scroll_offset.y + event.y - 1
        if 0 <= row < len(self.model):
            self.cursor = row

    # -- painting -----------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        series = self.model.series()
        columns = _layout(width, len(series.steps) if series else 0)
        if y == 0:
            style = self.get_component_rich_style("question-list--header")
            text = " ".join(_fit(c.title, c.width, c.align) for c in columns)
            return Strip([Segment(_fit(text, width, "left"), style)]).simplify()
        position = self.scroll_offset.y + y - 1
        base_style = self.rich_style
        if position >= len(self.model):
            return Strip.blank(width, base_style)
        row = self.model.row(position)
        values = self._cells(row, columns)
        cursor = position == self.cursor
        line_style = base_style + (
            self.get_component_rich_style("question-list--cursor") if cursor else Style()
        )
        segments = []
        for column, value in zip(columns, values, strict=True):
            style = line_style
            if column.title == "cat":
                style = line_style + CATEGORY_STYLES.get(row.category, Style())
            segments.append(Segment(_fit(value, column.width, column.align), style))
            segments.append(Segment(" ", line_style))
        return Strip(segments).crop_extend(0, width, line_style).simplify()

    def _cells(self, row: QuestionRow, columns: list[Column]) -> list[str]:
        values = {
            "benchmark": one_line(row.benchmark, 200),
            "id": one_line(row.question_id, 200),
            "cat": row.category,
            "base c/n": f"{row.c_base}/{row.n_base}",
            "target c/n": f"{row.c_target}/{row.n_target}",
            "p": format_p(row.fisher_p),
            "tag": self.model.tag_label(row),
            "steps": self.model.strip(row),
        }
        out = []
        for column in columns:
            if column.title == "problem":
                out.append(one_line(row.problem, column.width + 1))
            else:
                out.append(values[column.title])
        return out
