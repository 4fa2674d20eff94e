"""The help screen: every command of the command table, grouped by where it applies."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from leash_tui.explorer.keys.commands import COMMANDS, SCOPES, bindings
from leash_tui.explorer.widgets.still_scroll import StillScroll


def help_text() -> Group:
    """Every command of the table under its scope's heading: keys, then what they do, in
    two columns (a wrapped description keeps its indent under the description)."""
    width = max(len(c.display_keys) for c in COMMANDS) + 2
    parts: list[Text | Table] = []
    for scope, heading in SCOPES.items():
        parts.append(Text(heading, style="bold underline"))
        grid = Table.grid(padding=(0, 0))
        grid.add_column(width=width + 2, no_wrap=True)
        grid.add_column(ratio=1)
        for command in (c for c in COMMANDS if c.scope == scope):
            grid.add_row(Text(f"  {command.display_keys}", style="bold"), Text(command.description))
        parts.extend([grid, Text("")])
    return Group(*parts)


class HelpScroll(StillScroll, VerticalScroll):
    """The help text, scrolled with the keys of a completion (j/k, g/G, space, pgup/pgdn)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("scroll")


class HelpScreen(ModalScreen[None]):
    """All keys; any of escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "close")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > HelpScroll {
        width: 90%; max-width: 100; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        with HelpScroll() as scroll:
            scroll.border_title = "leash explore: keys (esc closes)"
            yield Static(help_text(), markup=False)

    def on_mount(self) -> None:
        self.query_one(HelpScroll).focus()
