"""Sorting and filtering the question list from the command palette, driven with Pilot.

The palette offers a "Sort by" command per sort order and a "Filter by" command per column
beside the command table's own (``s`` cycles the sorts, ``F`` opens the column filter); the
table feeds footer, help and palette alike; the last sort and filter come back when the
folder is opened again (issue 36, item 6).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from leash_tui.explorer.keys.commands import commands
from leash_tui.explorer.keys.palette import ExplorerCommands
from leash_tui.explorer.screens.help_screen import help_text
from tests.support.explorer_helpers import (
    open_app,
    open_help,
    run_from_palette,
    screen_text,
    sync,
    wait_ready,
)


def _listed(app) -> list:
    return [app.model.row(i) for i in range(len(app.model))]


@sync
async def test_sort_by_a_column_from_the_palette_is_remembered(fixture_folder: Path) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        assert app.model.sort != "base"
        await run_from_palette(pilot, "sort by base successes")
        await pilot.pause(0.2)
        assert app.model.sort == "base"
        counts = [r.c_base for r in _listed(app)]
        assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    again = open_app(fixture_folder)
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, again)
        assert again.model.sort == "base"
        assert [r.c_base for r in _listed(again)] == counts


@sync
async def test_filter_by_a_column_from_the_palette_begins_its_term(fixture_folder: Path) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        everything = len(app.model)
        await run_from_palette(pilot, "filter by target")
        await pilot.pause(0.2)
        search = app.screen.query_one("#search")
        assert search.value == "target>=" and search.has_focus
        await pilot.press("3", "enter")
        await pilot.pause(0.2)
        assert app.model.search == "target>=3", app.model.search
        rows = _listed(app)
        assert rows and all(r.c_target >= 3 for r in rows) and len(rows) < everything
    again = open_app(fixture_folder)
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, again)
        assert again.model.search == "target>=3" and len(again.model) == len(rows)


@sync
async def test_sort_and_filter_keys_come_from_the_one_table(fixture_folder: Path) -> None:
    table = {c.action: c for c in commands("main")}
    assert table["cycle_sort"].keys == "s" and table["filter_columns"].keys == "F"
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        assert "s sort" in screen_text(app)  # the footer, from the table
        offered = {action for _, _, action in ExplorerCommands(app.screen)._available()}
        assert {"cycle_sort", "filter_columns"} <= offered  # the palette, from the table
        assert {"sort_by('target')", "filter_columns('cat')"} <= offered
        before = app.model.sort
        await pilot.press("s")
        assert app.model.sort != before
        await pilot.press("F", *"cat:S", "enter")
        await pilot.pause(0.2)
        assert {r.category for r in _listed(app)} == {"S"}
        await open_help(pilot)
        assert type(app.screen).__name__ == "HelpScreen"
    console = Console(width=200, record=True)
    console.print(help_text())  # what the help screen shows, from the table
    shown = console.export_text()
    assert table["cycle_sort"].description in shown
    assert table["filter_columns"].description in shown
