"""Every key path of the explorer, driven headless with Textual's Pilot on a fixed folder."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from leash_tui.explorer.screens.main_screen import MainScreen
from leash_tui.explorer.screens.question_screen import QuestionScreen
from leash_tui.explorer.widgets.question_list import QuestionList
from sampler.demo_folder import DEMO_BASE, DEMO_TARGETS
from sampler.store.folder import ResultsFolder
from sampler.store.journals.triage_journal import TriageJournal
from tests.support.explorer_helpers import (
    open_app,
    run_from_palette,
    screen_text,
    sync,
    wait_loaded,
    wait_ready,
)


@pytest.fixture
def folder(fixture_folder: Path, tmp_path: Path) -> Path:
    """A private copy: tests that tag write to its journal."""
    return Path(shutil.copytree(fixture_folder, tmp_path / fixture_folder.name))


def expected_categories(root: Path, target: str) -> dict[tuple[str, str], str]:
    """Categories from the raw counts (all questions have the same n, so k = n is exact)."""
    solved = {}
    for r in ResultsFolder.open(root).verdict_counts().to_pylist():
        solved[(r["benchmark"], r["question_id"], r["model"])] = r["n_correct"] > 0
    out = {}
    for (b, q, m), ok in solved.items():
        if m == DEMO_BASE:
            t = solved[(b, q, target)]
            out[(b, q)] = {(True, True): "P", (False, True): "E", (True, False): "S"}.get(
                (ok, t), "O"
            )
    return out


def listed(app) -> list:
    model = app.model
    return [model.row(i) for i in range(len(model))]


@sync
async def test_open_sorts_shrinkage_first_strongest_evidence_first(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        rows = listed(app)
        truth = expected_categories(folder, DEMO_TARGETS[0])
        assert len(rows) == len(truth) == 24
        assert {(r.benchmark, r.question_id): r.category for r in rows} == truth
        order = "SEPO"
        ranks = [order.index(r.category) for r in rows]
        assert ranks == sorted(ranks)
        shrunk = [r for r in rows if r.category == "S"]
        keys = [(r.fisher_p, -r.c_base) for r in shrunk]
        assert keys == sorted(keys)
        text = screen_text(app)
        assert "24 of 24 questions" in text
        assert "SYNTHETIC" in text
        assert f"{DEMO_BASE} → {DEMO_TARGETS[0]}" in text


@sync
async def test_category_filters_sort_and_movement_keys(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        truth = expected_categories(folder, DEMO_TARGETS[0])
        n_shrunk = sum(c == "S" for c in truth.values())
        await pilot.press("3")
        assert {r.category for r in listed(app)} == {"S"}
        assert f"{n_shrunk} of 24 questions" in screen_text(app)
        await pilot.press("2")  # shrunk + expanded
        assert {r.category for r in listed(app)} == {"S", "E"}
        await pilot.press("0")
        assert len(listed(app)) == 24

        qlist = app.screen.query_one(QuestionList)
        first = qlist.current
        await pilot.press("s")  # p-value
        assert qlist.current == first  # the highlight follows the question, not the position
        ps = [r.fisher_p for r in listed(app)]
        assert ps == sorted(ps)
        assert "sort: p-value" in screen_text(app)
        await pilot.press("s", "s")  # pass@1 drop, then benchmark/id
        rows = listed(app)
        keys = [(r.benchmark, int(r.question_id)) for r in rows]
        assert keys == sorted(keys)

        assert qlist.current == first
        await pilot.press("g", "j", "j", "down")
        assert qlist.cursor == 3
        await pilot.press("k")
        assert qlist.cursor == 2
        await pilot.press("G")
        assert qlist.cursor == 23
        await pilot.press("g")
        assert qlist.cursor == 0
        await pilot.press("pagedown")
        assert qlist.cursor > 5


@sync
async def test_search_filters_by_problem_text_and_id_and_escape_clears(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("slash", *"solve")
        rows = listed(app)
        assert rows and all("solve" in (r.problem or "").lower() for r in rows)
        assert len(rows) == 12  # the algebra half
        await pilot.press("escape")
        assert len(listed(app)) == 24
        await pilot.press("slash", "1", "1", "enter")
        rows = listed(app)
        assert rows and all("11" in r.question_id or "11" in (r.problem or "") for r in rows)
        assert isinstance(app.focused, QuestionList)  # Enter went back to the list
        await pilot.press("0")
        assert len(listed(app)) == 24


@sync
async def test_switch_target_key_and_palette(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("m")
        assert app.model.target == DEMO_TARGETS[1]
        truth = expected_categories(folder, DEMO_TARGETS[1])
        assert {(r.benchmark, r.question_id): r.category for r in listed(app)} == truth
        assert f"{DEMO_BASE} → {DEMO_TARGETS[1]}" in screen_text(app)
        # the palette offers the other target
        await run_from_palette(pilot, "switch target")
        await pilot.pause(0.2)
        assert app.model.target == DEMO_TARGETS[0]


@sync
async def test_palette_runs_a_command_from_the_table(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await run_from_palette(pilot, "filter: shrunk")
        await pilot.pause(0.2)
        assert {r.category for r in listed(app)} == {"S"}


@sync
async def test_tag_note_and_restart_shows_them(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        first = app.screen.question_list.current
        await pilot.press("r")
        await pilot.pause()
        assert "real" in screen_text(app)
        await pilot.press("j", "b")  # second question: lucky guess by base
        second = app.screen.question_list.current
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"looks like [bold]a guess[/bold]", "enter")
        await pilot.pause()
        await pilot.press("t")  # tag filter: tagged only
        assert {(r.benchmark, r.question_id) for r in listed(app)} == {
            (first.benchmark, first.question_id),
            (second.benchmark, second.question_id),
        }
    journal = TriageJournal(folder)
    entry = journal.get(second.benchmark, second.question_id, DEMO_BASE, DEMO_TARGETS[0])
    assert (entry.tag, entry.note) == ("lucky_base", "looks like [bold]a guess[/bold]")

    again = open_app(folder)  # a fresh explorer sees what was saved
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, again)
        labels = [again.model.tag_label(r) for r in listed(again)[:2]]
        assert labels == ["real", "lucky*"]
        text = screen_text(again)
        assert "real" in text and "lucky*" in text
        await pilot.press("j", "x")  # clear the tag; the note stays
        await pilot.pause()
        assert again.model.tag_label(listed(again)[1]) == "*"


@sync
async def test_tags_from_another_explorer_appear(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        row = app.screen.question_list.current
        TriageJournal(folder).record(
            row.benchmark, row.question_id, DEMO_BASE, DEMO_TARGETS[0], tag="verifier_error"
        )
        app._poll_journal()
        await pilot.pause()
        assert "verif" in screen_text(app)


@sync
async def test_summary_row_filters_the_list_to_its_benchmark(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("tab")  # to the summary pane
        assert type(app.focused).__name__ == "SummaryPane"
        await pilot.press("j", "enter")  # the second benchmark row
        second = app.screen.query_one("SummaryPane")._rows[1]["name"]
        rows = listed(app)
        assert {r.benchmark for r in rows} == {second}
        assert len(rows) == 12
        assert isinstance(app.focused, QuestionList)
        await pilot.press("tab", "G", "enter")  # overall: everything again
        assert len(listed(app)) == 24


@sync
async def test_question_screen_keys(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("3", "enter")  # first shrunk question
        screen = app.screen
        assert isinstance(screen, QuestionScreen)
        await wait_loaded(pilot, screen)
        detail = screen.detail
        base_flags = detail.base.correct_flags()
        # base opens on a correct sample (what was lost); target on its most common answer
        assert base_flags[screen.positions["base"]]
        top = detail.target.histogram[0][0]
        opened = detail.target.sample(screen.positions["target"])["answer"]
        assert (opened or "NA") == top
        text = screen_text(app)
        assert "shrunk" in text and "gold" in text

        start = screen.positions["base"]
        await pilot.press("l")
        assert screen.positions["base"] == (start + 1) % len(detail.base)
        await pilot.press("h")
        assert screen.positions["base"] == start
        await pilot.press("i")
        assert not base_flags[screen.positions["base"]]
        await pilot.press("c")
        assert base_flags[screen.positions["base"]]
        await pilot.press("o", "l", "l", "l")  # correct only: every step lands on a correct one
        assert base_flags[screen.positions["base"]]
        await pilot.press("o")

        await pilot.press("tab")  # to the target side
        assert app.focused.id == "view-target"
        before = screen.positions["target"]
        await pilot.press("l")
        assert screen.positions["target"] == (before + 1) % len(detail.target)
        await pilot.press("j", "G", "g")  # scrolling keys on a completion do not fail

        first = screen.row
        await pilot.press("right_square_bracket")
        await wait_loaded(pilot, screen)
        assert screen.row.index != first.index and screen.position == 1
        await pilot.press("left_square_bracket")
        await wait_loaded(pilot, screen)
        assert screen.row.index == first.index

        await pilot.press("f")  # tagging works on this screen too
        await pilot.pause()
        assert "tag: format" in screen_text(app)
        await pilot.press("right_square_bracket")
        await wait_loaded(pilot, screen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.screen.question_list.cursor == 1  # the list follows the question screen


@sync
async def test_help_budget_and_quit(folder: Path) -> None:
    app = open_app(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "Switch the target model" in text and "Cycle the sort order" in text
        await pilot.press("end")  # the help scrolls with the keyboard
        await pilot.pause()
        assert "Tag: real loss" in screen_text(app) or "Write a note" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("p")
        await pilot.pause(0.3)
        assert type(app.screen).__name__ == "BudgetScreen"
        assert "pass@k" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code in (0, None)


def journal_lines(root: Path) -> list[tuple[str, str, str | None]]:
    """(benchmark, question_id, tag) of each tag update in the triage journal, in order."""
    import json

    lines = (root / "triage.jsonl").read_text(encoding="utf-8").splitlines()
    return [
        (obj["benchmark"], obj["question_id"], obj["tag"])
        for obj in map(json.loads, lines)
        if "tag" in obj
    ]


def key_of(row) -> tuple[str, str]:
    return (row.benchmark, row.question_id)


@sync
async def test_sorted_by_tag_each_key_acts_on_the_highlighted_question(folder: Path) -> None:
    """Issue 13: with the list sorted by tag, tagging moved the row but not the cursor, so
    `u` then `x` cleared the tag of another question. The journal says what each key did."""
    app = open_app(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        qlist = app.screen.query_one(QuestionList)
        await pilot.press("s", "s", "s", "s")
        assert app.model.sort == "tag"
        await pilot.press("j", "j", "j", "j", "j")
        first = key_of(qlist.current)
        await pilot.press("u")  # tagged rows sort first: this row moves to the top
        assert journal_lines(folder)[-1] == (*first, "unclear")
        assert key_of(qlist.current) == first and qlist.cursor == 0
        await pilot.press("x")  # must clear the same question's tag
        assert journal_lines(folder)[-1] == (*first, None)
        await pilot.press("j", "j")
        second = key_of(qlist.current)
        assert second != first
        await pilot.press("r", "f")  # tag, then retag the same question
        assert journal_lines(folder)[-2:] == [(*second, "real_loss"), (*second, "format")]
        assert key_of(qlist.current) == second

        # on the question screen: tag, then next question; back shows the last one shown
        await pilot.press("j", "j", "j", "enter")
        screen = app.screen
        assert isinstance(screen, QuestionScreen)
        await wait_loaded(pilot, screen)
        third = key_of(screen.row)
        order_before = [key_of(r) for r in listed(app)]
        await pilot.press("b")
        assert journal_lines(folder)[-1] == (*third, "lucky_base")
        await pilot.press("right_square_bracket")
        fourth = key_of(screen.row)
        assert fourth == order_before[order_before.index(third) + 1]
        await pilot.press("v")
        assert journal_lines(folder)[-1] == (*fourth, "verifier_error")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        tags = {key_of(r): app.model.tag_label(r) for r in listed(app)}
        assert tags[third] and tags[fourth]
        assert key_of(qlist.current) == fourth  # re-sorted, the highlight on the last shown
        await pilot.press("x")
        assert journal_lines(folder)[-1] == (*fourth, None)

        # with a tag filter on, a tagged question that leaves the list leaves the cursor
        # on the question that took its place, never on one elsewhere in the list
        await pilot.press("t", "t")  # untagged only
        assert app.model.tag_filter == "untagged"
        before = [key_of(r) for r in listed(app)]
        position = qlist.cursor
        acted = key_of(qlist.current)
        await pilot.press("u")
        assert journal_lines(folder)[-1] == (*acted, "unclear")
        assert acted not in [key_of(r) for r in listed(app)]
        assert key_of(qlist.current) == before[position + 1]


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder with a short path: the hint's ``leash verify PATH`` fits 80 columns whatever
    pytest's temporary root is (pytest-xdist's adds ``popen-gwN/``)."""
    folder = Path(tempfile.mkdtemp(prefix="lv"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@sync
async def test_an_unverified_folder_says_so_and_how_to_verify(
    short_tmp: Path, folder: Path
) -> None:
    from sampler.importers.formats.jsonl import import_jsonl
    from tests.support.records import sample_records, write_jsonl

    tmp_path = short_tmp
    records = sample_records({"base": [[True, False]], "rl": [[True, True]]})
    for record in records:
        record.pop("correct")
    root = tmp_path / "unverified"
    import_jsonl([write_jsonl(tmp_path / "s.jsonl", records)], root, base="base")
    app = open_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        text = " ".join(screen_text(app).split())
        assert "4 samples are not verified yet" in text
        assert f"leash verify {root}" in text
    app = open_app(folder)  # verified: no hint
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        assert "not verified" not in screen_text(app)
