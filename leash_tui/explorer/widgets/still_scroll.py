"""Scrolling keys that jump: Home/End (g/G) and page keys move at once, never animated.

Textual animates ``scroll_home``/``scroll_end`` and page scrolls; over SSH and under load
the motion is still running most of a second later. Widgets that scroll by key mix this
in ahead of their Textual base class.
"""

from __future__ import annotations

from textual.actions import SkipAction


class StillScroll:
    """Scroll actions without animation (mix in before the scrolling widget class)."""

    def action_scroll_home(self) -> None:
        if not self.allow_vertical_scroll:  # type: ignore[attr-defined]
            raise SkipAction()
        self.scroll_home(animate=False, immediate=True)  # type: ignore[attr-defined]

    def action_scroll_end(self) -> None:
        if not self.allow_vertical_scroll:  # type: ignore[attr-defined]
            raise SkipAction()
        self.scroll_end(animate=False, immediate=True)  # type: ignore[attr-defined]

    def action_page_down(self) -> None:
        if not self.allow_vertical_scroll:  # type: ignore[attr-defined]
            raise SkipAction()
        self.scroll_page_down(animate=False)  # type: ignore[attr-defined]

    def action_page_up(self) -> None:
        if not self.allow_vertical_scroll:  # type: ignore[attr-defined]
            raise SkipAction()
        self.scroll_page_up(animate=False)  # type: ignore[attr-defined]
