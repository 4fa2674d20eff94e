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

import pyarrow as pa
import pyarrow.compute as pc
from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.model.pair_view import QuestionRow
from leash_tui.explorer.styles import CATEGORY_STYLES
from leash_tui.safe_text import one_line


@dataclass(frozen=True)
class Column:
    title: str
    width: int
    align: str = "left"


def format_p(p: float | None) -> str:
    """A p-value as every explorer screen writes it: three decimals (``1.000``, ``0.024``),
    or two significant digits in scientific form below 0.001."""
    if p is None:
        return "–"
    if p >= 0.001:
        return f"{p:.3f}"
    return f"{p:.0e}"


#: Widest the id and benchmark columns grow to (MATH-500 ids: test/precalculus/807.json).
MAX_ID_WIDTH = 30
MAX_BENCHMARK_WIDTH = 20
#: Narrowest problem preview worth showing.
MIN_PROBLEM_WIDTH = 12


def _layout(
    width: int, id_width: int = 8, benchmark_width: int = 16, steps: int = 0
) -> list[Column]:
    """Columns that fit ``width``, laid out for 80 columns first.

    The columns that decide triage (category, base and target c/n, p, tag) and the id
    (as wide as the longest id, up to MAX_ID_WIDTH) come first; the benchmark column
    takes what it needs when there is room and shrinks first when there is not; a
    problem preview takes what is left. With a training series (``steps`` > 0), a strip
    of the question's support per step follows the category.
    """
    id_col = Column("id", max(2, min(id_width, MAX_ID_WIDTH)))
    triage = [
        Column("cat", 3),
        Column("base c/n", 9, "right"),
        Column("target c/n", 10, "right"),
        Column("p", 6, "right"),
        Column("tag", 7),
    ]
    if steps:
        triage.insert(1, Column("steps", max(5, steps)))
    bench = max(9, min(benchmark_width, MAX_BENCHMARK_WIDTH))
    used = sum(c.width + 1 for c in triage) + id_col.width + 1
    room = width - used - 1
    if room < bench:  # narrow: the id gives way to the benchmark's minimum, then both
        bench = max(4, room)
        if width - used - bench - 1 < 0:
            id_col = Column("id", max(4, id_col.width - (used + bench + 1 - width)))
    cols = [Column("benchmark", bench), id_col, *triage]
    left = width - sum(c.width + 1 for c in cols)
    if left >= MIN_PROBLEM_WIDTH:
        cols.append(Column("problem", left))
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
    QuestionList > .question-list--header { text-style: bold; color: $text; }
    QuestionList > .question-list--cursor { background: $accent 25%; text-style: bold; }
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
        #: (benchmark, question_id) under the cursor: the question the next key acts on.
        #: Kept apart from the position because a re-sort or filter moves rows under it.
        self.highlighted_key: tuple[str, str] | None = None
        self._widths_of: object | None = None
        self._widths = (8, 16)

    # -- data changes ---------------------------------------------------------------------
    def reload(self, keep: tuple[str, str] | None = None) -> None:
        """The view changed (filter, sort, target, tags): repaint with the cursor on ``keep``
        (default: the question highlighted before the change) wherever it moved. When the
        change took that question out of the list, the cursor stays at its position, on
        the question that took its place."""
        keep = keep or self.highlighted_key
        position = self.model.position_of(*keep) if keep else None
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.model) + 1)
        self.cursor = position if position is not None else self.cursor
        self.update_titles()
        self.refresh()

    def update_titles(self) -> None:
        model = self.model
        shown = f"{len(model):,} of {model.total:,} questions"
        if model.disagreement_filter:
            shown += " · grading disagreements"
        self.border_title = shown
        extra = model.filter_description()
        subtitle = f"sort: {model.sort_label}" + (f" · {extra}" if extra else "")
        if model.has_notes:  # the tag column's mark, said where it shows
            subtitle = f"* note · {subtitle}"
        self.border_subtitle = subtitle

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
        row = self.current
        self.highlighted_key = (row.benchmark, row.question_id) if row is not None else None
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
    def _text_widths(self) -> tuple[int, int]:
        """Longest question id and benchmark name of the pair (computed once per pair)."""
        pair = self.model.pair
        if self._widths_of is not pair:
            ids = pc.utf8_length(pair.table.column("question_id").cast(pa.string()))
            longest = pc.max(ids).as_py() or 2
            names = max((len(one_line(n, 200)) for n in pair.benchmark_names), default=9)
            self._widths = (int(longest), names)
            self._widths_of = pair
        return self._widths

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        series = self.model.series()
        columns = _layout(width, *self._text_widths(), steps=len(series.steps) if series else 0)
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
            "base c/n": f"{row.c_base:,}/{row.n_base:,}",
            "target c/n": f"{row.c_target:,}/{row.n_target:,}",
            # sorted by evidence: the losing side's 95% upper bound instead of Fisher's p
            "p": format_p(row.losing_upper if self.model.sort == "evidence" else row.fisher_p),
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
