"""``leash demo``: write a synthetic demo results folder and open the explorer on it."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from leash_tui.commands.shared.options import output_option
from sampler.errors import LeashError

DEFAULT_DEMO_DIR = Path("leash-demo")


def _is_demo_folder(root: Path) -> bool:
    from sampler.store import ResultsFolder

    try:
        manifest = ResultsFolder.open(root).manifest
    except (LeashError, OSError):
        return False
    return manifest.synthetic and "leash demo" in (manifest.notes or "")


@click.command("demo")
@output_option("Folder to write the demo results to.", default=DEFAULT_DEMO_DIR)
@click.option("--no-open", is_flag=True, help="Only write the folder; do not open the explorer.")
@click.option(
    "--questions",
    type=click.IntRange(8, 100_000),
    default=300,
    show_default=True,
    help="Generated questions (half arithmetic, half algebra).",
)
@click.option(
    "--samples",
    type=click.IntRange(2, 4096),
    default=32,
    show_default=True,
    help="Samples per question and model.",
)
@click.option("--seed", type=int, default=0, show_default=True)
def demo(output: Path, no_open: bool, questions: int, samples: int, seed: int) -> None:
    """Write a synthetic results folder (no model, GPU or network) and explore it.

    A base and two RLVR targets answer generated arithmetic and algebra questions with
    step-by-step completions; success rates are drawn so that every support category
    occurs. The folder is marked synthetic. If OUT already holds a demo it is reused.
    """
    from sampler.demo_folder import write_demo_results

    if output.exists() and any(output.iterdir()):
        if not _is_demo_folder(output):
            raise LeashError(f"{output}: exists and is not a leash demo folder; choose -o/--output")
        click.echo(f"reusing the demo folder {output}", err=True)
    else:
        write_demo_results(output, n_questions=questions, n_samples=samples, seed=seed)
        click.echo(f"wrote a synthetic demo results folder to {output}", err=True)
    reopen = f"leash explore {shlex.quote(str(output))}"
    if no_open:
        click.echo(f"open it with: {reopen}", err=True)
        return
    from leash_tui.commands.explore import run_explorer

    run_explorer(output)
    click.echo(f"the demo folder stays in {output}; reopen it with: {reopen}", err=True)
