"""A scrolling, wrapping view of one completion that paints only the lines on screen.

Completions are untrusted and can be a megabyte on one line. The text is first made
visible (``safe_text.visible``: control characters, ANSI and OSC sequences, NUL
bytes become printable stand-ins), then wrapped into line offsets for the current
width (a cheap pass over the string, redone only when the width changes), and
``render_line`` paints a single wrapped line as plain segments, so nothing is ever
parsed as markup and painting cost does not grow with the text. The final-answer
span is highlighted.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.widgets.still_scroll import StillScroll
from leash_tui.safe_text import visible

TAB = "    "


def display_text(text: str) -> str:
    """What the view shows for ``text``: controls made visible, tabs as spaces."""
    return visible(text).replace("\t", TAB)


def _ascii_chunks(text: str, start: int, end: int, width: int) -> list[tuple[int, int]]:
    out = []
    s = start
    while s < end:
        e = min(end, s + width)
        if e < end:
            space = text.rfind(" ", s + (width * 2) // 3, e)
            if space > s:
                e = space + 1
        out.append((s, e))
        s = e
    return out


def _cell_chunks(text: str, start: int, end: int, width: int) -> list[tuple[int, int]]:
    out = []
    s = start
    while s < end:
        e = min(end, s + width)
        while e > s + 1 and cell_len(text[s:e]) > width:
            over = cell_len(text[s:e]) - width
            e -= max(1, over // 2)
        out.append((s, e))
        s = e
    return out


def wrap_offsets(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each display line of ``text`` wrapped at ``width`` cells."""
    width = max(1, width)
    lines: list[tuple[int, int]] = []
    position = 0
    for logical in text.split("\n"):
        start, end = position, position + len(logical)
        if start == end:
            lines.append((start, start))
        elif logical.isascii():
            lines.extend(_ascii_chunks(text, start, end, width))
        else:
            lines.extend(_cell_chunks(text, start, end, width))
        position = end + 1
    return lines


class CompletionView(StillScroll, ScrollView, can_focus=True):
    """One completion, wrapped, with the answer span highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("scroll")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"completion-view--answer"}
    DEFAULT_CSS = """
    CompletionView {
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
        width: 1fr;
        height: 1fr;
        overflow-x: hidden;
        padding: 0 0 0 1;
    }
    CompletionView:focus { border: round $accent; }
    CompletionView > .completion-view--answer { background: $warning 45%; text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = ""
        self._highlight: tuple[int, int] | None = None
        self._lines: list[tuple[int, int]] = [(0, 0)]
        self._wrapped_width = -1
        self._cache: LRUCache[tuple[int, int], Strip] = LRUCache(256)
        self._generation = 0
        self._follow_highlight = False

    def show(self, text: str, highlight: tuple[int, int] | None = None) -> None:
        """Show ``text`` (already a display text) with ``highlight`` offsets into it."""
        self._text = text
        self._highlight = highlight
        self._wrapped_width = -1
        self._generation += 1
        self._follow_highlight = False
        self._cache.clear()
        self._rewrap()
        self.scroll_to(0, 0, animate=False, immediate=True, force=True)
        self.refresh()

    def set_highlight(self, highlight: tuple[int, int] | None) -> None:
        """Highlight ``highlight`` (offsets into the text on view), found after ``show``."""
        self._highlight = highlight
        self._cache.clear()
        self.refresh()

    @property
    def text(self) -> str:
        return self._text

    def _content_width(self) -> int:
        return max(1, self.scrollable_content_region.width)

    def _rewrap(self) -> None:
        width = self._content_width()
        if width == self._wrapped_width:
            return
        self._lines = wrap_offsets(self._text, width) or [(0, 0)]
        self._wrapped_width = width
        self._cache.clear()
        self.virtual_size = Size(width, len(self._lines))

    def on_resize(self) -> None:
        width_before = self._wrapped_width
        self._rewrap()
        if self._follow_highlight and self._wrapped_width != width_before:
            # offsets were computed for another width (e.g. before the first layout)
            self.call_after_refresh(self._scroll_to_highlight_now, self._generation)

    def scroll_to_highlight(self) -> None:
        """Scroll so the answer span is in view (near the bottom of long completions)."""
        self._follow_highlight = True
        self.call_after_refresh(self._scroll_to_highlight_now, self._generation)

    def _scroll_to_highlight_now(self, generation: int, attempt: int = 0) -> None:
        if self._highlight is None or generation != self._generation:
            return
        self._rewrap()
        line = max(0, bisect_right(self._lines, (self._highlight[0], len(self._text) + 1)) - 1)
        height = self.scrollable_content_region.height
        target = line - height // 2
        if height > 0 and line < height:
            return
        if (height <= 0 or target > self.max_scroll_y) and attempt < 50:
            # the new virtual size is not laid out yet: scrolling now would be clamped
            self.call_after_refresh(self._scroll_to_highlight_now, generation, attempt + 1)
            return
        self.scroll_to(y=target, animate=False, immediate=True)

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self._content_width()
        index = self.scroll_offset.y + y
        key = (index, width)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        base = self.rich_style
        if index >= len(self._lines):
            strip = Strip.blank(width, base)
        else:
            start, end = self._lines[index]
            segments = self._segments(start, end, base)
            strip = Strip(segments).crop_extend(0, width, base).simplify()
        self._cache[key] = strip
        return strip

    def _segments(self, start: int, end: int, base: Style) -> list[Segment]:
        text = self._text
        if self._highlight is None:
            return [Segment(text[start:end], base)]
        hs, he = self._highlight
        a, b = max(start, hs), min(end, he)
        if a >= b:
            return [Segment(text[start:end], base)]
        mark = base + self.get_component_rich_style("completion-view--answer")
        return [
            Segment(text[start:a], base),
            Segment(text[a:b], mark),
            Segment(text[b:end], base),
        ]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
