"""Options and progress shared by the teacher-forcing commands (``entropy``, ``perplexity``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from sampler.errors import LeashError


def model_option(help_text: str) -> Callable:
    return click.option(
        "--model",
        "models",
        multiple=True,
        required=True,
        metavar="NAME=PATH",
        help=help_text,
    )


def engine_options(func: Callable) -> Callable:
    """--engine, --dtype, --device, --template."""
    for option in reversed(
        [
            click.option(
                "--engine",
                type=click.Choice(["hf", "vllm"]),
                default="hf",
                show_default=True,
                help="Teacher-forcing engine. vllm gives only top-k log-probabilities per"
                " position, not the full distribution: it is refused where that is needed.",
            ),
            click.option("--dtype", default="auto", show_default=True, help="Model dtype."),
            click.option("--device", default=None, help="torch device (default: cuda if any)."),
            click.option(
                "--template",
                default="boxed",
                show_default=True,
                help="Prompt template for models without a sampling record in the manifest"
                " (imported ones); sampled models use their recorded prompt.",
            ),
        ]
    ):
        func = option(func)
    return func


def parse_models(specs: tuple[str, ...]) -> dict[str, str]:
    """NAME=PATH pairs as a dict (LeashError on a malformed or repeated one)."""
    out: dict[str, str] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise LeashError(f"--model {spec!r}: expected NAME=PATH, e.g. base=Qwen/Qwen2.5-1.5B")
        if name.strip() in out:
            raise LeashError(f"--model {name.strip()}: given twice")
        out[name.strip()] = path.strip()
    return out


def model_progress(verb: str) -> tuple[Any, Callable[[str, int, int], None]]:
    """A rich Progress on stderr with one bar per model, and its (model, done, total) callback."""
    from rich.console import Console

    from leash_tui.commands.shared.counted_progress import ELAPSED, REMAINING, counted_progress

    progress = counted_progress(
        f"{verb} {{task.description}}", "ETA", REMAINING, ELAPSED, console=Console(stderr=True)
    )
    tasks: dict[str, Any] = {}

    def report(model: str, done: int, total: int) -> None:
        from leash_tui.safe_text import one_line

        if model not in tasks:
            if not tasks:
                progress.start()
            tasks[model] = progress.add_task(one_line(model, 40), total=total)
        progress.update(tasks[model], completed=done, total=total)

    return progress, report
