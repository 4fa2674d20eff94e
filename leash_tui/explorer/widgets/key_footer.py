"""The footer: the screen's most useful keys from the one command table, as many as fit.

Unlike Textual's ``Footer``, which shows every binding flagged for it and cuts the rest
at the right edge, this footer takes the footer entries of the command table
(``commands.footer_entries``), keeps the lowest ranks that fit the width, and shows them
in table order; it is redrawn on every resize. Commands that do nothing here (switching
the target of a folder with one target) can be hidden.
"""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import Static

from leash_tui.explorer.keys.commands import fit_footer, footer_entries


class KeyFooter(Static):
    """One line of ``key label`` entries that fits the terminal's width."""

    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def __init__(self, *scopes: str, hidden: tuple[str, ...] = (), id: str | None = None):
        super().__init__(id=id, markup=False)
        self.scopes = scopes
        self.hidden = set(hidden)

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self, event: Resize) -> None:
        self.redraw()

    def shown_entries(self, width: int) -> list:
        entries = [e for e in footer_entries(*self.scopes) if not set(e.actions) <= self.hidden]
        return fit_footer(entries, width)

    def redraw(self) -> None:
        width = max(0, (self.size.width or self.app.size.width) - 2)
        text = Text(no_wrap=True, overflow="crop")
        for i, entry in enumerate(self.shown_entries(width)):
            if i:
                text.append("  ")
            text.append(entry.keys, style="bold reverse")
            text.append(" " + entry.label)
        self.update(text)
