"""Helpers for explorer tests: a fixed small folder, a nasty folder, screen text, waiting."""

from __future__ import annotations

from pathlib import Path

import pytest

from leash_tui.explorer.app import ExplorerApp
from leash_tui.explorer.screens.help_screen import HelpScroll
from sampler.demo_folder import write_demo_results
from sampler.store.folder import ResultsFolder
from sampler.store.schema import BenchmarkEntry
from tests.support.folder_builders import write_folder

FIXTURE_NAME = "fixture"

MARKUP = (
    "[bold red]not bold[/bold red] [link=https://evil.example]link[/link] [@click=app.quit]q[/]"
)
ANSI = "\x1b[31mred\x1b[0m \x1b]52;c;ZXZpbA==\x07 \x1b[2J\x1b[H \x9b31m nul\x00byte bell\x07"
MEGABYTE = 1_000_000


def write_fixture(parent: Path) -> Path:
    """The fixed small folder used by key and snapshot tests (seeded; same every run)."""
    return write_demo_results(parent / FIXTURE_NAME, n_questions=24, n_samples=6, seed=11)


def write_nasty(parent: Path) -> Path:
    """A folder whose problems, answers and completions try markup, escapes and size."""
    root = parent / "nasty"
    long_line = "x" * 200_000 + " \\boxed{7}"
    huge = ("step " * 20 + "\n") * (MEGABYTE // 101) + "so \\boxed{7}"
    problems = {
        "1": f"{MARKUP} {ANSI}",
        "2": "a very long line: " + "y" * 100_000,
        "3": "a megabyte completion follows",
    }
    questions = [
        {"benchmark": "evil", "question_id": q, "problem": p, "gold": "7"}
        for q, p in problems.items()
    ]
    texts = {
        "1": f"{MARKUP}\n{ANSI}\nthe answer is \\boxed{{7}}",
        "2": long_line,
        "3": huge,
    }
    rows = []
    for q, text in texts.items():
        for model in ("base", "rl"):
            for s in range(3):
                ok = model == "base" or s == 0
                rows.append(
                    {
                        "benchmark": "evil",
                        "question_id": q,
                        "model": model,
                        "sample": s,
                        "text": text if ok else f"{MARKUP} \\boxed{{[red]8[/red]}}",
                        "answer": "7" if ok else "[red]8[/red]\x1b[2J",
                        "correct": ok,
                        "status": "correct" if ok else "incorrect",
                        "finish_reason": "stop",
                    }
                )
    return write_folder(
        root,
        questions,
        [rows],
        models=["base", "rl"],
        benchmarks=[BenchmarkEntry("evil", "math")],
    )


def screen_text(app) -> str:
    """What the terminal shows, as plain text lines."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def screen_segments(app) -> list[str]:
    return [seg.text for strip in app.screen._compositor.render_strips() for seg in strip]


def _columns_fit_rows(table) -> bool:
    """Whether a DataTable has sized its columns to its rows (it does so when idle)."""
    widths = [column.content_width for column in table.columns.values()]
    for index in range(table.row_count):
        for width, cell in zip(widths, table.get_row_at(index), strict=False):
            length = cell.cell_len if hasattr(cell, "cell_len") else len(str(cell))
            if length > width:
                return False
    return True


async def workers_done(pilot) -> None:
    """Wait until every worker of the app (of every screen) has finished and every scheduled
    animation has run: what a snapshot needs before it is taken, whatever the machine's load."""
    app = pilot.app
    for _ in range(3):  # a finishing worker may start another (the summary after the open)
        await app.workers.wait_for_complete()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        if not any(w.is_running for w in app.workers):
            return


async def wait_ready(pilot, app: ExplorerApp) -> None:
    """Wait until the folder is open and the main screen painted, summary included."""
    for _ in range(2000):
        screen = app.screen
        if type(screen).__name__ == "MainScreen" and not screen.summary_pending:
            if _columns_fit_rows(screen.query_one("#summary")):
                await pilot.pause()
                return
        await pilot.pause(0.01)
    raise AssertionError("the explorer did not open")


async def wait_loaded(pilot, screen, answers: bool = True) -> None:
    """Wait until the question screen has painted its samples (and, with ``answers``,
    highlighted their answers, which are located in a worker)."""
    for _ in range(2000):
        if (
            screen.detail is not None
            and screen.detail.row.index == screen.row.index
            and not (answers and screen.answers_pending)
        ):
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("the question did not load")


def open_app(root: Path, **kwargs) -> ExplorerApp:
    return ExplorerApp(ResultsFolder.open(root), **kwargs)


def sync(coroutine_function):
    """Run an async test with asyncio.run (the suite has no async pytest plugin)."""
    import asyncio
    import functools

    @functools.wraps(coroutine_function)
    def run(*args, **kwargs):
        return asyncio.run(coroutine_function(*args, **kwargs))

    return run


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory, monkeypatch):
    """Keep `leash report`'s per-folder cache out of the user's home during tests."""
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path_factory.mktemp("leash-cache")))


async def open_help(pilot):
    """Press ``?`` on the main screen; the help screen's scroll, once drawn."""
    await pilot.press("question_mark")
    await pilot.pause(0.2)
    return pilot.app.screen.query_one(HelpScroll)


async def run_from_palette(pilot, command: str) -> None:
    """Open the command palette, type ``command`` and run the best match with Enter."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*command)
    await pilot.pause(0.3)
    await pilot.press("enter")


async def wait_for_text(pilot, app, text: str, timeout: float = 10.0) -> str:
    """Wait until ``text`` is on screen (repaints follow scrolls by a frame or two)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        shown = screen_text(app)
        if text in shown or time.monotonic() > deadline:
            return shown
        await pilot.pause(0.02)


async def open_question(pilot, app, benchmark: str | None = None, question_id: str | None = None):
    """From the main screen, move to a question (default: the first row), open it and wait
    until its samples are painted; return the question screen."""
    if benchmark is not None:
        position = app.model.position_of(benchmark, question_id)
        assert position is not None, (benchmark, question_id)
        for _ in range(position):
            await pilot.press("j")
    await pilot.press("enter")
    for _ in range(500):
        if type(app.screen).__name__ == "QuestionScreen":
            break
        await pilot.pause(0.01)
    await wait_loaded(pilot, app.screen)
    return app.screen
