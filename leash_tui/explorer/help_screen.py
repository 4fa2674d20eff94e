"""The help screen: every command of the command table, grouped by where it applies."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from leash_tui.explorer.commands import COMMANDS, SCOPES


def help_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for scope, heading in SCOPES.items():
        table.add_row(Text(heading, style="bold underline"), Text(""))
        for command in (c for c in COMMANDS if c.scope == scope):
            table.add_row(Text(command.display_keys), Text(command.description))
        table.add_row(Text(""), Text(""))
    return table


class HelpScreen(ModalScreen[None]):
    """All keys; any of escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "close")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "leash explore: keys (esc closes)"
            yield Static(help_table())

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
