"""The explorer at 80x24: summary pages, search by benchmark/id and Esc, keys that jump,
border titles cut at whole parts, and numbers written one way."""

from __future__ import annotations

from rich.text import Text

from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.widgets.border_text import cut_at_word, fit_parts
from leash_tui.explorer.widgets.question_list import format_p
from leash_tui.explorer.widgets.summary_pane import COLUMNS, SummaryPane
from sampler.store.folder import ResultsFolder
from tests.support.explorer_helpers import (
    open_app,
    open_help,
    screen_text,
    sync,
    wait_ready,
    workers_done,
    write_fixture,
)


@sync
async def test_summary_columns_come_in_whole_pages_beside_fixed_scope_names(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        pane = app.screen.query_one(SummaryPane)
        pages = pane.column_pages
        assert len(pages) >= 2  # 13 columns do not fit 78 cells
        assert sorted(t for page in pages for t in page) == sorted(t for _, t in COLUMNS[1:])
        await pilot.press("tab")
        for page in pages:
            text = screen_text(app)
            header = next(line for line in text.splitlines() if "scope" in line)
            assert all(title in header for title in page), (page, header)
            assert "demo-arithmetic" in text and "overall" in text  # names on every page
            assert pane.virtual_size.width <= pane.size.width  # nothing to scroll, nothing cut
            await pilot.press("right")
            await pilot.pause(0.1)
        assert pane.page == 0  # round again
        assert "SDS" in " ".join(pages[pane.page] + pages[-1])


@sync
async def test_a_refreshed_summary_keeps_its_page_and_a_stale_one_is_dropped(tmp_path):
    """The summary is computed in a thread, more than once as the folder opens (entropies
    come later): a late result of an older computation must not replace a newer one, and
    a refresh keeps the page of columns shown and its hint."""
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        screen = app.screen
        pane = screen.query_one(SummaryPane)
        await pilot.press("tab", "right")
        await pilot.pause(0.1)
        assert pane.page == 1
        hint = f"columns 2/{len(pane.column_pages)}"
        assert hint in str(pane.border_subtitle)
        stale = screen._summary_generation
        screen.refresh_summary()
        await workers_done(pilot)
        assert not screen.summary_pending
        assert pane.page == 1 and hint in str(pane.border_subtitle)
        rows = pane.row_count
        screen._show_summary(stale, app.model.target, [], "computing")  # arrives late
        await pilot.pause()
        assert pane.row_count == rows and "computing" not in str(pane.border_subtitle)


@sync
async def test_esc_in_the_list_clears_a_search_and_the_box_shows_above_the_footer(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        total = len(app.model)
        await pilot.press("slash", *"demo-algebra/1", "enter")
        await pilot.pause(0.1)
        assert 0 < len(app.model) < total
        assert {app.model.row(i).benchmark for i in range(len(app.model))} == {"demo-algebra"}
        box = app.screen.query_one("#search")
        footer = app.screen.query_one("KeyFooter")
        assert box.region.bottom <= footer.region.y  # its bottom border is not under the footer
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert len(app.model) == total and app.model.search == ""


def test_search_matches_the_benchmark_slash_id_form(tmp_path):
    model = ExplorerModel(ResultsFolder.open(write_fixture(tmp_path)))
    row = model.row(0)
    model.set_search(f"{row.benchmark}/{row.question_id}")
    found = {(model.row(i).benchmark, model.row(i).question_id) for i in range(len(model))}
    assert (row.benchmark, row.question_id) in found
    assert all(b == row.benchmark and q.startswith(row.question_id) for b, q in found)


@sync
async def test_end_jumps_at_once_without_animation(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        scroll = await open_help(pilot)
        app.animation_level = "full"  # as on a user's terminal (tests default to none)
        scroll.action_scroll_end()  # what G runs; Pilot would wait out an animation
        assert scroll.scroll_y == scroll.max_scroll_y > 0  # there at once, no frames between
        scroll.action_scroll_home()
        assert scroll.scroll_y == 0


def test_border_text_is_cut_at_whole_parts_and_words():
    parts = [Text("correct"), Text("answer -2"), Text("stop"), Text("75 tok")]
    assert fit_parts(parts, 60).plain == "correct · answer -2 · stop · 75 tok"
    assert fit_parts(parts, 30).plain == "correct · answer -2 · stop …"
    assert fit_parts(parts, 12).plain == "correct …"
    assert cut_at_word("leash · demo — demo-base vs demo-rlvr-early", 30) == (
        "leash · demo — demo-base vs …"
    )
    assert cut_at_word("short", 30) == "short"


def test_p_is_written_with_three_decimals_everywhere():
    assert [format_p(p) for p in (1.0, 0.9996, 0.024, 0.0004, None)] == [
        "1.000",
        "1.000",
        "0.024",
        "4e-04",
        "–",
    ]


@sync
async def test_the_note_mark_is_explained_once_a_note_exists(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        questions = app.screen.query_one("#questions")
        assert "* note" not in str(questions.border_subtitle)
        await pilot.press("n", *"check", "enter")
        await pilot.pause(0.2)
        assert "*" in app.model.tag_label(questions.current)
        assert str(questions.border_subtitle).startswith("* note · sort:")
