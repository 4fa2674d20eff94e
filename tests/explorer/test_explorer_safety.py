"""Untrusted text in the explorer: markup, escapes, NUL bytes, huge lines render literally."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from leash_tui.explorer.screens.question_screen import QuestionScreen
from leash_tui.explorer.widgets.completion_view import CompletionView, display_text, wrap_offsets
from tests.support.explorer_helpers import (
    open_app,
    screen_segments,
    screen_text,
    sync,
    wait_for_text,
    wait_loaded,
    wait_ready,
    write_nasty,
)

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.fixture(scope="module")
def nasty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_nasty(tmp_path_factory.mktemp("safety"))


def assert_no_raw_controls(app) -> None:
    for text in screen_segments(app):
        assert not RAW_CONTROL.search(text), f"raw control character painted: {text!r}"


async def open_question(pilot, app, question_id: str) -> QuestionScreen:
    position = app.model.position_of("evil", question_id)
    app.screen.question_list.cursor = position
    await pilot.press("enter")
    screen = app.screen
    assert isinstance(screen, QuestionScreen)
    await wait_loaded(pilot, screen)
    return screen


@sync
async def test_markup_and_escapes_in_the_list_show_literally(nasty: Path) -> None:
    app = open_app(nasty)
    async with app.run_test(size=(200, 30)) as pilot:
        await wait_ready(pilot, app)
        text = screen_text(app)
        assert "[bold red]not bold[/bold red]" in text
        assert "[link=https://evil.example]" in text
        assert_no_raw_controls(app)
        assert app.is_running  # [@click=app.quit] did nothing


@sync
async def test_markup_ansi_osc52_clear_and_nul_in_a_completion(nasty: Path) -> None:
    app = open_app(nasty)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_ready(pilot, app)
        screen = await open_question(pilot, app, "1")
        text = screen_text(app)
        assert "[bold red]not bold[/bold red]" in text
        assert "[@click=app.quit]" in text
        assert "␛[31mred␛[0m" in text  # an ANSI colour, shown not obeyed
        assert "␛]52;c;ZXZpbA==␇" in text  # an OSC 52 clipboard write
        assert "␛[2J␛[H" in text  # a screen clear
        assert "nul␀byte" in text
        assert "\\x9b31m" in text  # the 8-bit CSI
        # the wrong answer's text, itself markup and an escape, is literal in the histogram
        await pilot.press("tab", "i")
        assert "[red]8[/red]␛[2J" in screen_text(app)
        assert_no_raw_controls(app)
        assert app.is_running and screen.is_attached


@sync
async def test_a_200k_character_line_wraps_and_scrolls(nasty: Path) -> None:
    app = open_app(nasty)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        started = time.perf_counter()
        screen = await open_question(pilot, app, "2")
        view = screen.query_one("#view-base", CompletionView)
        width = view.scrollable_content_region.width
        assert view.virtual_size.height >= 200_000 // width
        await pilot.press("G")
        assert "\\boxed{7}" in await wait_for_text(pilot, app, "\\boxed{7}")
        assert time.perf_counter() - started < 10  # generous: this machine is shared
        # the problem, 100k characters on one line, is cut on screen and says so
        await pilot.press("tab", "tab")  # target, then the problem box (it overflows)
        assert app.focused.id == "problem-box"
        await pilot.press("G")
        assert "more characters)" in await wait_for_text(pilot, app, "more characters)")
        assert_no_raw_controls(app)


@sync
async def test_a_megabyte_completion_opens_and_scrolls_to_its_answer(nasty: Path) -> None:
    app = open_app(nasty)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        screen = await open_question(pilot, app, "3")
        view = screen.query_one("#view-base", CompletionView)
        assert len(view.text) > 1_000_000 - 200
        # opened near the highlighted answer at the end
        assert "so \\boxed{7}" in await wait_for_text(pilot, app, "so \\boxed{7}")
        await pilot.press("g")
        assert "so \\boxed{7}" not in await wait_for_text(pilot, app, "step step")
        await pilot.press("pagedown", "pagedown", "G")
        assert "so \\boxed{7}" in await wait_for_text(pilot, app, "so \\boxed{7}")


def test_display_text_makes_controls_visible_and_expands_tabs() -> None:
    shown = display_text("a\tb\x1b[2J\x00\r\n")
    assert shown == "a    b␛[2J␀␍\n"


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from([*list("ab cd\n日本é"), "\u200b"]), max_size=300),
    st.integers(min_value=1, max_value=40),
)
def test_wrap_covers_the_text_and_fits_the_width(text: str, width: int) -> None:
    lines = wrap_offsets(text, width)
    # every character except newlines is on exactly one line, in order
    assert "".join(text[s:e] for s, e in lines) == text.replace("\n", "")
    assert len(lines) >= text.count("\n") + 1
    for s, e in lines:
        assert cell_len(text[s:e]) <= max(width, 2)  # a wide character alone may overflow 1
        assert e > s or s == e  # empty lines stay as empty lines
