"""``leash demo``: write a synthetic demo results folder and open the explorer on it."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click

from leash_tui.commands.shared.options import output_option
from sampler.errors import LeashError

DEFAULT_DEMO_DIR = Path("leash-demo")
DEFAULT_TRAIN_DIR = Path("leash-demo-train")


def _is_demo_folder(root: Path) -> bool:
    from sampler.store import ResultsFolder

    try:
        manifest = ResultsFolder.open(root).manifest
    except (LeashError, OSError):
        return False
    return manifest.synthetic and "leash demo" in (manifest.notes or "")


def _train_option(name: str, kind: click.ParamType, default: object, help: str) -> Any:
    """An option that only ``--train`` reads, its default shown and its help marked so."""
    return click.option(
        name, type=kind, default=default, show_default=True, help=f"--train: {help}"
    )


@click.command("demo")
@output_option("Folder to write the demo results to.", default=DEFAULT_DEMO_DIR)
@click.option("--no-open", is_flag=True, help="Only write the folder; do not open the explorer.")
@click.option(
    "--questions",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Generated questions (half arithmetic, half algebra) [default: 300; --train: 40"
    " held-out questions].",
)
@click.option(
    "--samples",
    type=click.IntRange(2, 4096),
    default=32,
    show_default=True,
    help="Samples per question and model.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--train",
    is_flag=True,
    help="Train a tiny base and its RLVR checkpoints on this machine (minutes on a CPU) and"
    " measure them, instead of writing synthetic samples.",
)
@_train_option("--steps", click.IntRange(1, 100_000), 40, "GRPO steps.")
@_train_option(
    "--sft-steps", click.IntRange(1, 1_000_000), 300, "supervised steps of the base model."
)
@_train_option("--k", click.IntRange(2, 65_536), 256, "samples per held-out question and model.")
@_train_option(
    "--size",
    click.Choice(["tiny", "small", "medium"]),
    "tiny",
    "model size (tiny ~0.4M parameters, small ~3M, medium ~19M).",
)
@_train_option(
    "--checkpoints",
    click.IntRange(1, 100),
    2,
    "RLVR checkpoints measured (evenly spaced, the last at --steps).",
)
@_train_option(
    "--device",
    click.Choice(["cpu", "cuda"]),
    "cpu",
    "where to train (sampling uses CUDA whenever torch sees it).",
)
def demo(
    output: Path,
    no_open: bool,
    questions: int | None,
    samples: int,
    seed: int,
    train: bool,
    steps: int,
    sft_steps: int,
    k: int,
    size: str,
    checkpoints: int,
    device: str,
) -> None:
    """Write a demo results folder and explore it.

    Without --train: a synthetic folder (no model, GPU or network): a base and two RLVR
    targets answer generated arithmetic and algebra questions with step-by-step completions;
    success rates are drawn so that every support category occurs. The folder is marked
    synthetic. If OUT already holds a demo it is reused.

    With --train: a real run on this machine. A tiny model is trained on noisy solutions of
    generated arithmetic (n+1 on four-digit numbers, the carry mostly forgotten): the base.
    GRPO with leash's verifier as the reward trains it further (checkpoints rl@STEP), and
    leash sample draws k samples per held-out question from each into OUT/results,
    verified, then the explorer opens on it. Every stage is timed and resumable: the same
    command skips what is done.
    """
    if train:
        _train(output, no_open, questions, seed, steps, sft_steps, k, size, checkpoints, device)
        return
    questions = 300 if questions is None else questions
    if questions < 8:
        raise click.BadParameter("the synthetic demo needs at least 8", param_hint="--questions")
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


def _train(
    output: Path,
    no_open: bool,
    questions: int | None,
    seed: int,
    steps: int,
    sft_steps: int,
    k: int,
    size: str,
    checkpoints: int,
    device: str,
) -> None:
    from rich.console import Console

    from leash_tui.commands.demo_train import TrainDemo, print_summary, run_train_demo

    if output == DEFAULT_DEMO_DIR:
        output = DEFAULT_TRAIN_DIR
    run = TrainDemo(
        root=output,
        steps=steps,
        k=k,
        size=size,
        device=device,
        seed=seed,
        sft_steps=sft_steps,
        questions=40 if questions is None else questions,
        checkpoints=checkpoints,
    )
    console = Console(stderr=True, highlight=False)
    summary = run_train_demo(run, console)
    print_summary(console, run, summary)
    reopen = f"leash explore {shlex.quote(str(run.results))}"
    if no_open:
        click.echo(f"open it with: {reopen}", err=True)
        return
    from leash_tui.commands.explore import run_explorer

    run_explorer(run.results)
    click.echo(f"the demo folder stays in {output}; reopen it with: {reopen}", err=True)
