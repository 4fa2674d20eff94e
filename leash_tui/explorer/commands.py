"""The explorer's one command table: it feeds key bindings, the footer, help and the palette.

Each ``Command`` names the keys, the action it runs, where it applies (``scope``)
and a description. Screens and widgets take their ``BINDINGS`` from
``bindings(scope)``; the help screen lists ``COMMANDS`` grouped by scope; the
command palette offers every command of the active screen whose ``palette`` flag
is set. Adding a command here adds it everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from sampler.store.triage_journal import TAGS

#: Scope -> heading in the help screen, in display order.
SCOPES = {
    "app": "Everywhere",
    "main": "Question list screen",
    "list": "Moving in a list",
    "question": "Question screen",
    "scroll": "Scrolling a completion or a long problem",
    "triage": "Triage (list and question screens)",
}


@dataclass(frozen=True)
class Command:
    """One command: keys (Textual key names, comma-separated), action, scope, description."""

    keys: str
    action: str
    scope: str
    description: str
    footer: str = ""  # short label: shown in the footer when set
    palette: bool = True  # offered in the command palette
    key_display: str | None = None

    @property
    def display_keys(self) -> str:
        if self.key_display:
            return self.key_display
        return "/".join(_KEY_NAMES.get(k, k) for k in self.keys.split(","))


_KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "ctrl+p": "^p",
    "escape": "esc",
    "shift+tab": "⇧tab",
    "pageup": "pgup",
    "pagedown": "pgdn",
}

_TAG_KEYS = {
    "real_loss": "r",
    "lucky_base": "b",
    "verifier_error": "v",
    "format": "f",
    "unclear": "u",
}

COMMANDS: tuple[Command, ...] = (
    # everywhere
    Command("question_mark", "app.help", "app", "Show all keys", footer="help"),
    Command("q", "app.quit", "app", "Quit", footer="quit"),
    Command("ctrl+p", "app.command_palette", "app", "Command palette", palette=False),
    Command("m", "app.next_target", "app", "Switch the target model", footer="target"),
    Command(
        "e",
        "app.load_entropies",
        "app",
        "Compute token and answer entropies again (after a failure)",
    ),
    # main screen
    Command("enter", "open_question", "main", "Open the question under the cursor", footer="open"),
    Command("tab", "app.focus_next", "main", "Next pane", palette=False),
    Command("shift+tab", "app.focus_previous", "main", "Previous pane", palette=False),
    Command("slash", "search", "main", "Search question text and ids", footer="search"),
    Command("s", "cycle_sort", "main", "Cycle the sort order", footer="sort"),
    Command("1", "toggle_category('P')", "main", "Filter: preserved (toggle)", key_display="1"),
    Command("2", "toggle_category('E')", "main", "Filter: expanded (toggle)", key_display="2"),
    Command("3", "toggle_category('S')", "main", "Filter: shrunk (toggle)", key_display="3"),
    Command(
        "4", "toggle_category('O')", "main", "Filter: out of support (toggle)", key_display="4"
    ),
    Command(
        "d",
        "toggle_disagreements",
        "main",
        "Filter: grading disagreements, leash vs imported verdicts (toggle)",
    ),
    Command(
        "w",
        "toggle_flips",
        "main",
        "Filter: questions whose support flips back and forth between training steps (toggle)",
    ),
    Command(
        "a",
        "toggle_fragile",
        "main",
        "Filter: fragile support claims, resting on 1 or 2 accepted samples (toggle)",
    ),
    Command("0", "clear_filters", "main", "Clear all filters and the search"),
    Command("t", "cycle_tag_filter", "main", "Cycle the tag filter (tagged, untagged, each tag)"),
    Command("p", "budget", "main", "Budget plot: pass@k and P/E/S/O against k"),
    # moving in the list
    Command("down,j", "cursor_down", "list", "Next row", palette=False),
    Command("up,k", "cursor_up", "list", "Previous row", palette=False),
    Command("home,g", "cursor_first", "list", "First row", palette=False),
    Command("end,G", "cursor_last", "list", "Last row", palette=False),
    Command("pagedown", "page_down", "list", "Page down", palette=False),
    Command("pageup", "page_up", "list", "Page up", palette=False),
    # question screen
    Command("escape,backspace", "back", "question", "Back to the list", footer="back"),
    Command(
        "tab",
        "switch_side",
        "question",
        "Switch between base and target",
        footer="side",
        palette=False,
    ),
    Command(
        "right,l",
        "sample(1)",
        "question",
        "Next sample of this side",
        footer="sample",
        key_display="→/l",
    ),
    Command("left,h", "sample(-1)", "question", "Previous sample of this side", key_display="←/h"),
    Command("c", "jump('correct')", "question", "Next correct sample of this side"),
    Command("i", "jump('incorrect')", "question", "Next incorrect sample of this side"),
    Command("o", "toggle_correct_only", "question", "Show only correct samples (toggle)"),
    Command(
        "right_square_bracket",
        "question(1)",
        "question",
        "Next question in the list",
        footer="next question",
    ),
    Command("left_square_bracket", "question(-1)", "question", "Previous question in the list"),
    Command("p", "budget", "question", "Budget plot for this question's benchmark"),
    # scrolling a completion
    Command("down,j", "scroll_down", "scroll", "Scroll down", palette=False),
    Command("up,k", "scroll_up", "scroll", "Scroll up", palette=False),
    Command("home,g", "scroll_home", "scroll", "Top of the completion", palette=False),
    Command("end,G", "scroll_end", "scroll", "End of the completion", palette=False),
    Command("pagedown,space", "page_down", "scroll", "Page down", palette=False),
    Command("pageup", "page_up", "scroll", "Page up", palette=False),
    # triage
    *(
        Command(key, f"tag('{tag}')", "triage", f"Tag: {TAGS[tag][1]}")
        for tag, key in _TAG_KEYS.items()
    ),
    Command("x", "tag('')", "triage", "Clear the tag"),
    Command("n", "note", "triage", "Write a note on the question", footer="note"),
)


def commands(*scopes: str) -> list[Command]:
    return [c for c in COMMANDS if c.scope in scopes]


def bindings(*scopes: str) -> list[Binding]:
    """Textual bindings for the commands of ``scopes`` (footer flag -> ``show``)."""
    out = []
    for c in commands(*scopes):
        if c.action == "app.command_palette":
            continue  # Textual binds the palette key itself (with priority, so inputs keep it)
        action = c.action.removeprefix("app.") if c.scope == "app" else c.action
        out.append(
            Binding(
                c.keys,
                action,
                c.footer or c.description,
                show=bool(c.footer),
                key_display=c.display_keys if c.key_display else None,
                tooltip=c.description,
            )
        )
    return out
