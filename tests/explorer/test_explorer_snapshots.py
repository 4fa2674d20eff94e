"""Snapshots of the explorer's main and question screens on the fixed fixture folder.

Every ``run_before`` ends with ``workers_done``: a snapshot is taken once every worker of the
app has finished, so a loaded machine cannot catch a pane half drawn.

Regenerate after an intended change with ``pytest tests/explorer/test_explorer_snapshots.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.explorer_helpers import (
    open_app,
    wait_loaded,
    wait_ready,
    workers_done,
)
from tests.support.folder_builders import build_folder


async def settled(pilot) -> None:
    """The list is painted and the entropies (computed after the first paint) are in."""
    app = pilot.app
    for _ in range(2000):
        if app.entropy_state == "ready":
            break
        await pilot.pause(0.01)
    await wait_ready(pilot, app)


async def question_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("3", "enter")
    await wait_loaded(pilot, pilot.app.screen)


SIZES = [(80, 24), (160, 45)]
SIZE_IDS = ["80x24", "160x45"]


@pytest.fixture(scope="module")
def disagreement_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.explorer.test_explorer_disagreements import SOURCE, SPEC

    root = tmp_path_factory.mktemp("snapshots-disagree") / "r"
    return build_folder(root, SPEC, targets=("rlvr", "rl2"), source_correct=SOURCE)


async def help_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("question_mark")
    await pilot.pause(0.2)


async def budget_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("p")
    await pilot.pause(0.3)


async def disagreements_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("d")
    app = pilot.app
    for _ in range(2000):
        if app.model.disagreement_filter:
            break
        await pilot.pause(0.01)
    app.clear_notifications()  # the "finding…" toast would make the snapshot timing-bound
    await pilot.pause(0.2)


@pytest.fixture
def snap_compare(snap_compare):
    """pytest-textual-snapshot's ``snap_compare``, whose ``run_before`` then waits for every
    worker of the app and its animations (``workers_done``)."""

    def compare(app, *, terminal_size, run_before):
        async def run(pilot) -> None:
            await run_before(pilot)
            await workers_done(pilot)

        return snap_compare(app, terminal_size=terminal_size, run_before=run)

    return compare


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_main_screen(snap_compare, fixture_folder: Path, size, theme) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_question_screen(snap_compare, fixture_folder: Path, size, theme) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=question_open)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_help_screen(snap_compare, fixture_folder: Path, size, theme) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=help_open)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_budget_plot(snap_compare, fixture_folder: Path, size, theme) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=budget_open)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_disagreement_view(snap_compare, disagreement_folder: Path, size, theme) -> None:
    app = open_app(disagreement_folder)
    assert snap_compare(app, terminal_size=size, run_before=disagreements_open)


@pytest.fixture(scope="module")
def series_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.analysis.test_series import SPEC, TARGETS

    root = tmp_path_factory.mktemp("snapshots-series") / "r"
    return build_folder(root, SPEC, targets=TARGETS)


@pytest.fixture(scope="module")
def long_problem_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One question whose problem is far longer than its box (the gold must stay in view)."""
    from tests.support.folder_builders import sample_rows, write_folder

    root = tmp_path_factory.mktemp("snapshots-long") / "r"
    problem = " ".join(f"clause {i} of a long olympiad problem." for i in range(60))
    row = {"benchmark": "olympiadbench", "question_id": "334", "problem": problem, "gold": "42"}
    rows = sample_rows("olympiadbench", "334", "base", "C I1 I1")
    rows += sample_rows("olympiadbench", "334", "rlvr", "I1 I1 I1")
    write_folder(root, [row], [rows], models=["base", "rlvr"])
    return root


async def series_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("P")
    await pilot.pause(0.3)


async def summary_second_page(pilot) -> None:
    await settled(pilot)
    await pilot.press("tab", "right")
    await pilot.pause(0.2)


async def long_question_open(pilot) -> None:
    await settled(pilot)
    await pilot.press("enter")
    await wait_loaded(pilot, pilot.app.screen)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_series_plot(snap_compare, series_folder: Path, size, theme) -> None:
    app = open_app(series_folder, target="rl@300")
    assert snap_compare(app, terminal_size=size, run_before=series_open)


def test_summary_columns_second_page_at_80x24(snap_compare, fixture_folder: Path, theme) -> None:
    app = open_app(fixture_folder)
    assert snap_compare(app, terminal_size=(80, 24), run_before=summary_second_page)


def test_long_problem_keeps_the_gold_at_80x24(
    snap_compare, long_problem_folder: Path, theme
) -> None:
    app = open_app(long_problem_folder)
    assert snap_compare(app, terminal_size=(80, 24), run_before=long_question_open)
