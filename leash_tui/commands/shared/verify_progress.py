"""The verification progress bar on stderr, shared by ``leash verify`` and ``leash sample``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def verify_progress(show: bool = True) -> tuple[Any, Callable[[int, int], None]]:
    """A rich Progress (samples, rate, ETA) and the ``progress(done, total)`` callback
    that ``verify_results`` calls; the bar appears only once there is something to do.
    The caller stops the Progress when verification ends."""
    from rich.console import Console
    from rich.progress import ProgressColumn
    from rich.text import Text

    from leash_tui.commands.shared.counted_progress import ELAPSED, REMAINING, counted_progress

    class RateColumn(ProgressColumn):
        def render(self, task: object) -> Text:
            speed = getattr(task, "speed", None)
            return Text("" if speed is None else f"{speed:,.0f} samples/s", style="cyan")

    progress = counted_progress(
        "verifying",
        RateColumn(),
        "ETA",
        REMAINING,
        ELAPSED,
        console=Console(stderr=True),
        disable=not show,
    )
    task = None

    def report(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            if total == 0:
                return  # nothing to do: no bar at all
            progress.start()
            task = progress.add_task("verify", total=total)
        progress.update(task, completed=done, total=total)

    return progress, report
