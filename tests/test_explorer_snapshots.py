"""Snapshots of the explorer's main and question screens on the fixed fixture folder.

Regenerate after an intended change with ``pytest tests/test_explorer_snapshots.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.explorer_helpers import (  # isolated_cache: autouse fixture
    isolated_cache,  # noqa: F401
    open_app,
    wait_loaded,
    wait_ready,
    write_fixture,
)


@pytest.fixture(scope="module")
def fixture_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fixture(tmp_path_factory.mktemp("snapshots"))


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


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_main_screen(snap_compare, fixture_folder: Path, size: tuple[int, int]) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_question_screen(snap_compare, fixture_folder: Path, size: tuple[int, int]) -> None:
    assert snap_compare(open_app(fixture_folder), terminal_size=size, run_before=question_open)
