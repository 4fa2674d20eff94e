"""Issue 13: under NO_COLOR the S counts, S letters, ✗ marks and bars were drawn at about
1.5:1. Every character of text the explorer draws must keep 4.5:1 (WCAG AA) against its
background, and bars 3:1, in the default theme and with NO_COLOR."""

from __future__ import annotations

from pathlib import Path

from tests.support.contrast import low_contrast
from tests.support.explorer_helpers import (
    open_app,
    sync,
    wait_loaded,
    wait_ready,
)


@sync
async def test_every_screen_keeps_text_readable(fixture_folder: Path, theme: str) -> None:
    app = open_app(fixture_folder)
    assert app.no_color == (theme == "no_color")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        assert low_contrast(app) == [], "main screen"
        await pilot.press("3", "enter")  # a shrunk question: ✗ marks and red bars
        await wait_loaded(pilot, app.screen)
        assert low_contrast(app) == [], "question screen"
        await pilot.press("p")
        await pilot.pause(0.3)
        assert low_contrast(app) == [], "budget plot"
