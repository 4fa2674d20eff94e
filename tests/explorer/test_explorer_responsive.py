"""Issue 14 item 2 (explorer): finding the answer in a huge completion never blocks keys."""

from __future__ import annotations

import time
from pathlib import Path

from leash_tui.explorer.screens import question_screen
from leash_tui.explorer.screens.question_screen import QuestionScreen
from leash_tui.explorer.widgets.completion_view import CompletionView
from tests.support.explorer_helpers import (
    open_app,
    sync,
    wait_loaded,
    wait_ready,
)

SLOW_S = 3.0


@sync
async def test_keys_answer_while_the_answer_span_is_still_being_found(
    fixture_folder: Path, monkeypatch
) -> None:
    real = question_screen.answer_span

    def slow_answer_span(text, answer):  # as extraction of a looping \boxed{ once was
        time.sleep(SLOW_S)
        return real(text, answer)

    monkeypatch.setattr(question_screen, "answer_span", slow_answer_span)
    app = open_app(fixture_folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        started = time.perf_counter()
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, QuestionScreen)
        await wait_loaded(pilot, screen, answers=False)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "view-target"
        assert time.perf_counter() - started < SLOW_S  # two sides would take 2 * SLOW_S
        view = screen.query_one("#view-base", CompletionView)
        assert view.text  # the completion shows before its answer is located
        for _ in range(1000):  # and the answer is highlighted once found
            if view._highlight is not None:
                break
            await pilot.pause(0.01)
        assert view._highlight is not None
