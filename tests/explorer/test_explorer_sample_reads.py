"""Stepping to a sample reads its text in a worker thread: keys act at once however slow the
disk, a slow read says so, and the text is painted when it arrives (issue 24)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from leash_tui.explorer.model.question_detail import SideSamples
from leash_tui.explorer.screens.question_screen import READING_NOTICE_S, QuestionScreen
from leash_tui.explorer.widgets.completion_view import CompletionView, display_text
from tests.support.explorer_helpers import (
    open_app,
    open_question,
    screen_text,
    sync,
    wait_loaded,
    wait_ready,
    write_fixture,
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_fixture(tmp_path)


async def _first_question(pilot, app) -> QuestionScreen:
    """The question screen of the list's first question, its samples loaded."""
    await wait_ready(pilot, app)
    screen = await open_question(pilot, app)
    assert isinstance(screen, QuestionScreen)
    return screen


@sync
async def test_a_slow_read_keeps_the_keys_and_paints_the_text_when_it_arrives(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = open_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _first_question(pilot, app)
        detail = screen.detail
        n = len(detail.base)
        start = screen.positions["base"]

        release = threading.Event()
        reads: list[int] = []
        read = SideSamples._read_wide

        def slow_read(self: SideSamples, position: int) -> dict:
            reads.append(position)
            assert release.wait(10)
            return read(self, position)

        monkeypatch.setattr(SideSamples, "_read_wide", slow_read)
        view = screen.query_one("#view-base", CompletionView)
        await pilot.press("l")  # its read blocks in a worker ...
        assert screen.positions["base"] == (start + 1) % n
        await pilot.press("l")  # ... and the keys still act at once
        assert screen.positions["base"] == (start + 2) % n
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "view-target"
        await pilot.pause(READING_NOTICE_S + 0.2)
        assert f"reading sample {(start + 2) % n + 1}" in view.text
        assert screen.answers_pending  # what tests and snapshots wait for

        release.set()
        await wait_loaded(pilot, screen)
        position = (start + 2) % n
        assert reads[0] == (start + 1) % n and position in reads
        expected = detail.base.sample(position)["text"]
        assert view.text.startswith(display_text(expected))
        assert f"sample {position + 1:,} of {n:,}" in screen_text(app)
        # stepping back to a sample read before needs no read at all
        reads.clear()
        await pilot.press("shift+tab", "h")
        await pilot.pause()
        assert reads == []


@sync
async def test_a_read_still_running_when_the_question_changes_is_dropped(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = open_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _first_question(pilot, app)
        first = screen.row

        text_read, question_read = threading.Event(), threading.Event()
        read_text, read_question = SideSamples._read_wide, type(app.model).load_question

        def slow_text(self: SideSamples, position: int) -> dict:
            assert text_read.wait(10)
            return read_text(self, position)

        def slow_question(self, row):
            assert question_read.wait(10)
            return read_question(self, row)

        monkeypatch.setattr(SideSamples, "_read_wide", slow_text)
        monkeypatch.setattr(type(app.model), "load_question", slow_question)
        await pilot.press("l", "right_square_bracket")  # a text read, then the next question
        assert screen.detail is None and screen.row.index != first.index
        text_read.set()  # the old question's text arrives while the next one loads: dropped
        await pilot.pause(0.3)
        assert screen.is_attached and screen.detail is None
        question_read.set()
        await wait_loaded(pilot, screen)
        view = screen.query_one("#view-base", CompletionView)
        expected = screen.detail.base.sample(screen.positions["base"])["text"]
        assert view.text.startswith(display_text(expected))
