"""The explorer's grading-disagreement filter (key d and the palette), driven with Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.explorer_helpers import (
    open_app,
    run_from_palette,
    screen_text,
    sync,
    wait_for_text,
    wait_ready,
)
from tests.support.folder_builders import build_folder

T, F = True, False
SPEC = {("alg", str(q)): {"base": "C I7 I7", "rlvr": "C C I7", "rl2": "C C C"} for q in range(1, 6)}
#: source verdicts equal to leash's (from SPEC) except: base on alg/1, rlvr on alg/2,
#: rl2 on alg/3; alg/4 agrees everywhere and alg/5 has no source verdict at all
AGREE = {"base": [T, F, F], "rlvr": [T, T, F], "rl2": [T, T, T]}
SOURCE = {("alg", q, m): list(v) for q in ("1", "2", "3", "4") for m, v in AGREE.items()}
SOURCE[("alg", "1", "base")] = [T, T, F]  # leash incorrect, source correct
SOURCE[("alg", "2", "rlvr")] = [T, T, T]
SOURCE[("alg", "3", "rl2")] = [T, T, F]  # leash correct, source incorrect


@pytest.fixture
def pair_folder(tmp_path: Path) -> Path:
    """Two targets, with the source's verdicts beside leash's."""
    return build_folder(tmp_path / "r", SPEC, targets=("rlvr", "rl2"), source_correct=SOURCE)


def listed_ids(app) -> set[str]:
    return {app.model.row(i).question_id for i in range(len(app.model))}


async def wait_filtered(pilot, app) -> None:
    shown = await wait_for_text(pilot, app, "· grading disagreements")
    assert "· grading disagreements" in shown


@sync
async def test_disagreement_key_filters_both_models_of_the_pair(pair_folder: Path) -> None:
    app = open_app(pair_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        assert len(app.model) == 5
        await pilot.press("d")
        await wait_filtered(pilot, app)
        assert listed_ids(app) == {"1", "2"}  # base's and rlvr's disagreements
        assert "2 of 5 questions · grading disagreements" in screen_text(app)
        await pilot.press("m")  # the other target: base's and rl2's
        await pilot.pause(0.1)
        assert listed_ids(app) == {"1", "3"}
        assert "2 of 5 questions · grading disagreements" in screen_text(app)
        await pilot.press("d")  # off again
        await pilot.pause(0.1)
        assert len(app.model) == 5
        assert "grading disagreements" not in screen_text(app)
        await pilot.press("d", "2")  # on again (no second read) and with a category filter
        await pilot.pause(0.1)
        assert app.model.disagreement_filter
        await pilot.press("0")  # clears every filter, this one too
        await pilot.pause(0.1)
        assert len(app.model) == 5 and not app.model.disagreement_filter


@sync
async def test_palette_offers_the_disagreement_filter(pair_folder: Path) -> None:
    app = open_app(pair_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await run_from_palette(pilot, "grading disagreements")
        await wait_filtered(pilot, app)
        assert listed_ids(app) == {"1", "2"}


@sync
async def test_without_source_verdicts_the_filter_says_so(tmp_path: Path) -> None:
    root = build_folder(tmp_path / "r", SPEC, targets=("rlvr", "rl2"))
    app = open_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("d")
        for _ in range(500):
            if app.model.disagreements_known:
                break
            await pilot.pause(0.01)
        await pilot.pause(0.1)
        messages = [n.message for n in app._notifications]
        assert any("no sample carries an imported source verdict" in m for m in messages)
        assert "grading disagreements" not in screen_text(app)
        assert not app.model.disagreement_filter and len(app.model) == 5
