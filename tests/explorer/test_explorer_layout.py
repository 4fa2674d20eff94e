"""The explorer after a resize, the help screen's keys, and where notifications appear."""

from __future__ import annotations

from tests.support.explorer_helpers import (
    open_app,
    open_help,
    open_question,
    sync,
    wait_ready,
    write_fixture,
)


def bar_length(app, side: str) -> int:
    text = str(app.screen.query_one(f"#hist-{side}").render())
    return max(line.count("█") for line in text.splitlines())


@sync
async def test_answer_bars_take_the_new_width_after_a_resize(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot, app)
        await open_question(pilot, app)
        narrow = bar_length(app, "base")
        await pilot.resize_terminal(200, 40)
        await pilot.pause(0.3)
        assert bar_length(app, "base") > narrow


@sync
async def test_the_help_screen_scrolls_with_j_and_k(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        scroll = await open_help(pilot)
        assert scroll.scroll_y == 0
        await pilot.press("j", "j", "j")
        await pilot.pause(0.2)
        assert scroll.scroll_y > 0
        await pilot.press("G")
        await pilot.pause(0.2)
        assert scroll.scroll_y == scroll.max_scroll_y > 3
        await pilot.press("g")
        await pilot.pause(0.2)
        assert scroll.scroll_y == 0


@sync
async def test_a_toast_never_covers_the_bottom_of_the_screen(tmp_path):
    app = open_app(write_fixture(tmp_path))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_ready(pilot, app)
        app.notify("saved: tag real loss", timeout=5)
        await pilot.pause(0.3)
        toasts = list(app.screen.query("Toast"))
        assert toasts
        for toast in toasts:
            assert toast.region.y < 24 // 2, toast.region  # in the top half, off the answers
