"""One command table: the footer, the help screen and README's key table agree with it.

The footer shows the screen's most useful keys that fit the width (lowest rank first,
table order kept); README's key table names every key of the table a user presses.
"""

from __future__ import annotations

import re

from leash_tui.explorer.keys.commands import (
    COMMANDS,
    FooterEntry,
    fit_footer,
    footer_entries,
)
from tests.support.explorer_helpers import open_app, sync, wait_ready, write_fixture
from tests.support.paths import REPO_ROOT

README = REPO_ROOT / "README.md"
MAIN = ("app", "main", "list", "triage")


def test_filters_and_tags_share_one_footer_entry_each():
    entries = {e.label: e for e in footer_entries(*MAIN)}
    assert entries["filter"].keys == "1-4"
    assert entries["tag"].keys == "rbvfu"
    assert entries["open"].rank < entries["filter"].rank < entries["plot"].rank


def test_a_narrow_footer_keeps_the_lowest_ranks_in_table_order():
    entries = [
        FooterEntry("a", "one", 3, ("x",)),
        FooterEntry("b", "two", 1, ("y",)),
        FooterEntry("c", "three", 2, ("z",)),
    ]
    assert [e.label for e in fit_footer(entries, 100)] == ["one", "two", "three"]
    assert [e.label for e in fit_footer(entries, len("b two  c three"))] == ["two", "three"]
    assert [e.label for e in fit_footer(entries, 5)] == ["two"]


def test_the_main_footer_at_80_columns_shows_the_triage_keys():
    shown = {e.label for e in fit_footer(footer_entries(*MAIN), 78)}
    assert {"help", "quit", "open", "filter", "tag"} <= shown
    wide = {e.label for e in fit_footer(footer_entries(*MAIN), 198)}
    assert {"plot", "note", "clear", "untag"} <= wide


def footer_text(app) -> str:
    return str(app.screen.query_one("KeyFooter").render())


@sync
async def test_the_footer_fits_the_terminal_and_hides_target_with_one_target(tmp_path):
    app = open_app(write_fixture(tmp_path))  # one target
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        text = footer_text(app)
        assert len(text) <= 80 and "1-4 filter" in text and "rbvfu tag" in text
        assert "target" not in text
        await pilot.resize_terminal(200, 40)
        await pilot.pause(0.2)
        wide = footer_text(app)
        assert "p plot" in wide and "n note" in wide and len(wide) > len(text)


def readme_keys() -> str:
    """The first column of README's explorer key table, as one string."""
    text = README.read_text(encoding="utf-8")
    table = text.split("| keys | action |", 1)[1].split("\n\n", 1)[0]
    return " ".join(line.split("|")[1] for line in table.splitlines() if line.startswith("| "))


def test_readme_names_every_key_of_the_command_table():
    keys = readme_keys().lower()
    keys += " " + " ".join(str(d) for d in range(1, 5)) if "1–4" in keys else ""
    names = {"question_mark": "?", "slash": "/", "right": "→", "left": "←"}
    missing = []
    for command in COMMANDS:
        if command.scope in ("scroll", "list"):
            continue  # movement keys: README names them once for lists and completions
        for key in command.keys.split(","):
            single = command.key_display if "," not in command.keys else None
            shown = names.get(key, single or key).lower()
            shown = {"right_square_bracket": "]", "left_square_bracket": "["}.get(key, shown)
            if shown in ("shift+tab", "backspace", "escape"):
                continue
            if not re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w])", keys):
                missing.append(f"{key} ({command.description})")
    assert not missing, f"README's key table lacks: {missing}"
