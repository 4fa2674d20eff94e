"""The explorer's rough edges of a new user's first hour (issue 36), driven with Pilot.

A ``no_answer`` completion opens on its last lines with what found nothing; answers show
as written with the normal form beside; a target switch keeps the question in hand; ←/→
page the summary from the list; the budget plot keeps its 0.50 tick at 80x24; the support
threshold is on screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from leash_tui.explorer.screens.budget_screen import BudgetScreen
from leash_tui.explorer.widgets.completion_view import CompletionView
from leash_tui.explorer.widgets.summary_pane import SummaryPane
from sampler.demo_folder import DEMO_TARGETS
from tests.support.explorer_helpers import (
    open_app,
    open_question,
    screen_text,
    sync,
    wait_for_text,
    wait_ready,
)
from tests.support.folder_builders import write_folder

LONG = "\n".join(f"step {i}: still working" for i in range(300))


def _row(model: str, sample: int, **fields) -> dict:
    return {
        "benchmark": "m",
        "question_id": "1",
        "model": model,
        "sample": sample,
        "finish_reason": "stop",
        **fields,
    }


@pytest.fixture(scope="module")
def written_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Question m/1: the base right twice, written 10^{100} (normal form 10**100); the
    target's two samples cut off at the length limit before any answer."""
    rows = [
        _row(
            "base",
            s,
            text="so \\boxed{10^{100}}",
            answer="10**100",
            answer_written="10^{100}",
            answer_rule="box",
            status="correct",
            correct=True,
        )
        for s in range(2)
    ]
    rows += [
        _row(
            "rl",
            s,
            text="line zero of the completion\n" + LONG,
            answer=None,
            status="no_answer",
            correct=False,
            finish_reason="length",
        )
        for s in range(2)
    ]
    questions = [{"benchmark": "m", "question_id": "1", "problem": "a googol?", "gold": "10^{100}"}]
    return write_folder(
        tmp_path_factory.mktemp("first-hour") / "r", questions, [rows], models=["base", "rl"]
    )


@sync
async def test_no_answer_opens_on_its_last_lines_with_the_rules_that_found_nothing(
    written_folder: Path,
) -> None:
    app = open_app(written_folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        screen = await open_question(pilot, app)
        shown = await wait_for_text(pilot, app, "no extraction rule")
        view = screen.query_one("#view-target", CompletionView)
        assert view.scroll_offset.y > 250  # at the end of 300 lines, not at the top
        assert "line zero of the completion" not in shown
        assert "step 299: still working" in shown
        assert "no extraction rule" in shown  # the note, under the last lines
        assert view.text.endswith(
            "── no answer: no extraction rule (boxed, stated, tool_output) found a final"
            " answer; finish reason length: the completion was cut off (truncation)"
        )
        # the base side, a boxed answer, still opens at its top
        assert screen.query_one("#view-base", CompletionView).scroll_offset.y == 0


@sync
async def test_answers_show_as_written_with_the_normal_form_beside(written_folder: Path) -> None:
    app = open_app(written_folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await open_question(pilot, app)
        shown = await wait_for_text(pilot, app, "normal form")
        assert "10^{100} = 10**100" in shown  # the histogram's answer class
        assert "answer 10^{100}" in shown  # the completion's subtitle
        assert "normal form 10**100" in shown
        assert "answer 10**100" not in shown


@sync
async def test_enter_after_a_target_switch_opens_the_question_highlighted(
    fixture_folder: Path,
) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("j", "j", "j", "j", "j")
        listing = app.screen.question_list
        chosen = listing.current
        await pilot.press("m")
        assert app.model.target == DEMO_TARGETS[1]
        assert listing.current == app.model.row_of(chosen.benchmark, chosen.question_id)
        assert listing.cursor != 0  # the highlight moved with the question, not to the top
        screen = await open_question(pilot, app)
        assert (screen.row.benchmark, screen.row.question_id) == (
            chosen.benchmark,
            chosen.question_id,
        )


@sync
async def test_a_target_switch_on_a_question_keeps_that_question(fixture_folder: Path) -> None:
    """Even when the list's category filter no longer holds it under the new target."""
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("3")  # shrunk under the first target
        keys = {(r.benchmark, r.question_id) for r in map(app.model.row, range(len(app.model)))}
        other = app.model.pair_with(DEMO_TARGETS[1]).table.to_pylist()
        moved = [
            i
            for i, (b, q) in enumerate(sorted(keys))
            if next(r for r in other if (r["benchmark"], r["question_id"]) == (b, q))["category"]
            != "S"
        ]
        assert moved, "the fixture has a question shrunk under one target only"
        key = sorted(keys)[moved[0]]
        position = app.model.position_of(*key)
        for _ in range(position):
            await pilot.press("j")
        screen = await open_question(pilot, app)
        assert (screen.row.benchmark, screen.row.question_id) == key
        await pilot.press("m")
        await pilot.pause(0.2)
        assert app.model.position_of(*key) is None  # filtered out of the new list
        assert (screen.row.benchmark, screen.row.question_id) == key
        assert screen.sub_title.endswith(DEMO_TARGETS[1])


@sync
async def test_left_and_right_page_the_summary_from_the_list(fixture_folder: Path) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        pane = app.screen.query_one(SummaryPane)
        assert len(pane.column_pages) > 1
        assert not pane.has_focus  # the list has it: no Tab needed
        assert "←/→" in screen_text(app)
        await pilot.press("right")
        assert pane.page == 1
        await pilot.press("left")
        assert pane.page == 0


@sync
async def test_budget_plot_at_80x24_keeps_its_half_tick(fixture_folder: Path) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("p")
        for _ in range(200):
            if isinstance(app.screen, BudgetScreen):
                break
            await pilot.pause(0.01)
        shown = await wait_for_text(pilot, app, "0.50")
        assert "0.50" in shown and "1.00" in shown and "0.00" in shown


@sync
async def test_the_support_threshold_is_on_screen(fixture_folder: Path) -> None:
    app = open_app(fixture_folder, tau=0.25)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        assert "support τ = 0.25" in screen_text(app)
        await open_question(pilot, app)
        assert "support τ = 0.25" in screen_text(app)
    plain = open_app(fixture_folder)
    async with plain.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, plain)
        assert "τ" not in screen_text(plain)


@sync
async def test_column_filters_and_sorts_are_remembered_per_folder(fixture_folder: Path) -> None:
    app = open_app(fixture_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("F", *"cat:P base>=2", "enter")
        rows = [app.model.row(i) for i in range(len(app.model))]
        assert rows and all(r.category == "P" and r.c_base >= 2 for r in rows)
        everything = app.model.pair.table.to_pylist()
        assert len(rows) == sum(r["category"] == "P" and r["c_base"] >= 2 for r in everything)
        while app.model.sort != "target":
            await pilot.press("s")
        listed = [app.model.row(i).c_target for i in range(len(app.model))]
        assert listed == sorted(listed, reverse=True)
    again = open_app(fixture_folder)  # the folder opens as it was left
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, again)
        assert (again.model.sort, again.model.search) == ("target", "cat:P base>=2")
        assert len(again.model) == len(rows)
        assert "cat:P base>=2" in screen_text(again)
        await pilot.press("0")  # cleared, and remembered cleared
    fresh = open_app(fixture_folder)
    async with fresh.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, fresh)
        assert fresh.model.search == "" and len(fresh.model) == 24


def test_column_filter_terms(tmp_path) -> None:
    from leash_tui.explorer.model.list_view import load_view, parse_column_filters, save_view

    terms = parse_column_filters("p<0.05 benchmark:alg")
    assert [(t.column, t.op, t.number, t.text) for t in terms] == [
        ("p", "<", 0.05, None),
        ("benchmark", None, None, "alg"),
    ]
    assert parse_column_filters("triangle area") is None  # a plain search
    assert parse_column_filters("base:abc") is None  # a number column takes a comparison
    save_view(tmp_path, {"sort": "p"})
    assert load_view(tmp_path)["sort"] == "p"
    assert load_view(tmp_path / "other") == {}
