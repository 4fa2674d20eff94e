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

from sampler.store import TAGS

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
    #: footer priority, 1 first: a narrow footer drops the highest numbers. Commands of one
    #: scope with the same footer label share one footer entry (1-4 filter, rbvfu tag).
    rank: int = 50

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
    Command("question_mark", "app.help", "app", "Show all keys", footer="help", rank=2),
    Command("q", "app.quit", "app", "Quit", footer="quit", rank=3),
    Command("ctrl+p", "app.command_palette", "app", "Command palette", palette=False),
    Command("m", "app.next_target", "app", "Switch the target model", footer="target", rank=20),
    Command(
        "e",
        "app.load_entropies",
        "app",
        "Compute token and answer entropies again (after a failure)",
    ),
    # main screen
    Command(
        "enter",
        "open_question",
        "main",
        "Open the question under the cursor",
        footer="open",
        rank=1,
    ),
    Command("tab", "app.focus_next", "main", "Next pane", palette=False),
    Command("shift+tab", "app.focus_previous", "main", "Previous pane", palette=False),
    Command("slash", "search", "main", "Search question text and ids", footer="search", rank=6),
    Command(
        "right",
        "summary_page(1)",
        "main",
        "Next page of the summary's columns (from the list too)",
        key_display="→",
    ),
    Command(
        "left",
        "summary_page(-1)",
        "main",
        "Previous page of the summary's columns",
        key_display="←",
    ),
    Command(
        "s",
        "cycle_sort",
        "main",
        "Cycle the sort order (any column: base, target, problem...)",
        footer="sort",
        rank=8,
    ),
    Command(
        "F",
        "filter_columns",
        "main",
        "Filter by column: cat:S, benchmark:alg, base>=2, p<0.05 (in the search box)",
    ),
    Command(
        "1",
        "toggle_category('P')",
        "main",
        "Filter: preserved (toggle; filters combine)",
        key_display="1",
        footer="filter",
        rank=4,
    ),
    Command(
        "2",
        "toggle_category('E')",
        "main",
        "Filter: expanded (toggle; filters combine)",
        key_display="2",
        footer="filter",
        rank=4,
    ),
    Command(
        "3",
        "toggle_category('S')",
        "main",
        "Filter: shrunk (toggle; filters combine)",
        key_display="3",
        footer="filter",
        rank=4,
    ),
    Command(
        "4",
        "toggle_category('O')",
        "main",
        "Filter: out of support (toggle; filters combine)",
        key_display="4",
        footer="filter",
        rank=4,
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
    Command(
        "0", "clear_filters", "main", "Clear all filters and the search", footer="clear", rank=7
    ),
    Command("escape", "clear_search", "main", "Clear the search (in the list or the box)"),
    Command("t", "cycle_tag_filter", "main", "Cycle the tag filter (tagged, untagged, each tag)"),
    Command(
        "p", "budget", "main", "Budget plot: pass@k and P/E/S/O against k", footer="plot", rank=10
    ),
    Command(
        "P",
        "series_plot",
        "main",
        "Series plot: NSCR, SRR and NDR against the training step (targets NAME@STEP)",
    ),
    # moving in the list
    Command("down,j", "cursor_down", "list", "Next row", palette=False),
    Command("up,k", "cursor_up", "list", "Previous row", palette=False),
    Command("home,g", "cursor_first", "list", "First row", palette=False),
    Command("end,G", "cursor_last", "list", "Last row", palette=False),
    Command("pagedown", "page_down", "list", "Page down", palette=False),
    Command("pageup", "page_up", "list", "Page up", palette=False),
    # question screen
    Command("escape,backspace", "back", "question", "Back to the list", footer="back", rank=1),
    Command(
        "tab",
        "switch_side",
        "question",
        "Switch between base and target",
        footer="side",
        rank=4,
        palette=False,
    ),
    Command(
        "right,l",
        "sample(1)",
        "question",
        "Next sample of this side",
        footer="sample",
        rank=5,
        key_display="→/l",
    ),
    Command("left,h", "sample(-1)", "question", "Previous sample of this side", key_display="←/h"),
    Command("c", "jump('correct')", "question", "Next correct sample of this side"),
    Command("i", "jump('incorrect')", "question", "Next incorrect sample of this side"),
    Command(
        "o",
        "toggle_correct_only",
        "question",
        "Show only correct samples (toggle)",
        footer="correct only",
        rank=13,
    ),
    Command(
        "right_square_bracket",
        "question(1)",
        "question",
        "Next question in the list",
        footer="next question",
        rank=6,
    ),
    Command("left_square_bracket", "question(-1)", "question", "Previous question in the list"),
    Command(
        "p",
        "budget",
        "question",
        "Budget plot for this question's benchmark",
        footer="plot",
        rank=14,
    ),
    # scrolling a completion
    Command("down,j", "scroll_down", "scroll", "Scroll down", palette=False),
    Command("up,k", "scroll_up", "scroll", "Scroll up", palette=False),
    Command("home,g", "scroll_home", "scroll", "Top of the completion", palette=False),
    Command("end,G", "scroll_end", "scroll", "End of the completion", palette=False),
    Command("pagedown,space", "page_down", "scroll", "Page down", palette=False),
    Command("pageup", "page_up", "scroll", "Page up", palette=False),
    # triage
    *(
        Command(key, f"tag('{tag}')", "triage", f"Tag: {TAGS[tag][1]}", footer="tag", rank=9)
        for tag, key in _TAG_KEYS.items()
    ),
    Command("x", "tag('')", "triage", "Clear the tag", footer="untag", rank=11),
    Command("n", "note", "triage", "Write a note on the question", footer="note", rank=12),
)


def commands(*scopes: str) -> list[Command]:
    return [c for c in COMMANDS if c.scope in scopes]


@dataclass(frozen=True)
class FooterEntry:
    """One footer item: the keys of the commands sharing a label, the label, its rank."""

    keys: str
    label: str
    rank: int
    actions: tuple[str, ...]


def _join_keys(keys: list[str]) -> str:
    """1,2,3,4 -> 1-4; r,b,v,f,u -> rbvfu; anything else joined with '/'."""
    if len(keys) > 2 and all(k.isdigit() for k in keys):
        numbers = [int(k) for k in keys]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{numbers[0]}-{numbers[-1]}"
    if len(keys) > 1 and all(len(k) == 1 for k in keys):
        return "".join(keys)
    return "/".join(keys)


def footer_entries(*scopes: str) -> list[FooterEntry]:
    """The footer of a screen whose commands are those of ``scopes``: one entry per footer
    label, in table order, each with its rank (the footer drops the highest first)."""
    groups: dict[tuple[str, str], list[Command]] = {}
    for c in commands(*scopes):
        if c.footer:
            groups.setdefault((c.scope, c.footer), []).append(c)
    entries = [
        FooterEntry(
            _join_keys([c.display_keys for c in group]),
            label,
            min(c.rank for c in group),
            tuple(c.action for c in group),
        )
        for (_, label), group in groups.items()
    ]
    return entries


def fit_footer(entries: list[FooterEntry], width: int, gap: int = 2) -> list[FooterEntry]:
    """The entries that fit ``width`` cells, the lowest ranks kept, in their own order."""
    chosen: set[int] = set()
    used = 0
    for index in sorted(range(len(entries)), key=lambda i: entries[i].rank):
        entry = entries[index]
        size = len(entry.keys) + 1 + len(entry.label) + (gap if chosen else 0)
        if used + size <= width:
            chosen.add(index)
            used += size
    return [entry for i, entry in enumerate(entries) if i in chosen]


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
