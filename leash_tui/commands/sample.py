"""``leash sample``: draw k completions per question from a base model and its RLVR models.

Everything is checked before an engine starts (benchmark files, model folders and
tokenizers, prompt lengths); the run then samples the missing (model, question)
pairs, one model per worker process, shows questions, samples, tokens per second
and ETA per model, and ends by verifying what it wrote unless ``--no-verify``. The
same command, run again after a crash or ``kill -9``, completes what is missing.
Engines (vllm, torch, transformers) are imported only when the command runs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from leash_tui.commands.shared.options import output_option
from leash_tui.commands.shared.setting_options import (
    SectionedCommand,
    SectionOption,
    given_settings,
    setting_options,
)
from sampler.sample.config import ModelSettings, RunConfig


def _progress_sink(console: Any) -> Any:
    """A rich progress display fed by the sampling workers' events."""
    from leash_tui.commands.shared.counted_progress import ELAPSED, REMAINING, counted_progress

    progress = counted_progress(
        "[bold]{task.fields[model]}[/] {task.fields[state]}",
        "questions  {task.fields[samples]:,} samples  {task.fields[srate]} samples/s"
        "  {task.fields[rate]} tok/s",
        ELAPSED,
        "ETA",
        REMAINING,
        console=console,
        transient=False,
    )

    class Sink:
        def __init__(self) -> None:
            self.tasks: dict[str, Any] = {}
            self.tokens: dict[str, int] = {}
            self.ready: dict[str, float] = {}

        def model_started(self, model: str, questions: int, samples: int, workers: int) -> None:
            state = "loading" + (f" ({workers} workers)" if workers > 1 else "")
            self.tasks[model] = progress.add_task(
                model, total=questions, model=model, state=state, samples=0, rate="-", srate="-"
            )
            self.tokens[model] = 0

        def event(self, model: str, message: tuple) -> None:
            task = self.tasks[model]
            kind = message[1]
            if kind == "ready":
                self.ready.setdefault(model, time.monotonic())
                progress.update(task, state="sampling")
            elif kind == "question":
                self.tokens[model] += int(message[3])
                elapsed = max(time.monotonic() - self.ready.get(model, time.monotonic()), 1e-6)
                current = progress.tasks[task].fields["samples"] + int(message[2])
                progress.update(
                    task,
                    advance=1,
                    samples=current,
                    rate=f"{self.tokens[model] / elapsed:,.0f}",
                    srate=f"{current / elapsed:,.1f}",
                )
            elif kind == "error":
                progress.update(task, state="[red]failed[/]")

        def model_finished(self, model: str) -> None:
            task = self.tasks[model]
            if progress.tasks[task].fields["state"] == "sampling":
                progress.update(task, state="done")

    return progress, Sink()


@click.command("sample", cls=SectionedCommand, context_settings={"show_default": True})
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOML file with the whole run (models, benchmarks, settings); options"
    " given here override its top level.",
)
@click.option(
    "--model",
    "models",
    multiple=True,
    metavar="NAME=PATH",
    help="A model to sample: local checkpoint folder or hub id (repeatable).",
)
@click.option("--base", help="Name of the base model (needed with several models).")
@click.option(
    "--bench",
    "benches",
    multiple=True,
    metavar="NAME=[VERIFIER:]PATH",
    help="A benchmark file; NAME picks a preset (math500, aime24, ...); a VERIFIER prefix"
    " (code, choice, exact, reasoning-gym:TASK:SIZE:SEED) picks its grading (repeatable).",
)
@click.option("--problem-field", help="Field holding the problem (files without a preset).")
@click.option("--gold-field", help="Field holding the gold answer.")
@click.option("--id-field", help="Field holding the question id (default: the position).")
@click.option(
    "--gold-from-solution",
    metavar="FIELD",
    help="Take the gold as the last \\boxed{} of this field (no gold field).",
)
@click.option(
    "--domain", help="Domain tag of the --bench benchmarks (default: math, non-math by verifier)."
)
@output_option("Results folder.")
@setting_options(RunConfig, ModelSettings)
@click.option(
    "--verify-workers",
    type=int,
    cls=SectionOption,
    section="run",
    help="Verification worker processes.",
)
@click.option(
    "--dry-run",
    is_flag=True,
    default=False,
    cls=SectionOption,
    section="run",
    help="Print the plan and the samples and tokens of a full and an adaptive run (estimated"
    " from the samples already in RESULTS, if any); sample nothing.",
)
def sample(
    config_file: Path | None,
    models: tuple[str, ...],
    base: str | None,
    benches: tuple[str, ...],
    problem_field: str | None,
    gold_field: str | None,
    id_field: str | None,
    gold_from_solution: str | None,
    domain: str | None,
    output: Path | None,
    verify_workers: int | None,
    dry_run: bool,
    **options: Any,
) -> None:
    """Sample k completions per question from a base model and RLVR models into RESULTS.

    \b
    Example:
      leash sample --model base=Qwen/Qwen2.5-Math-1.5B --model rlvr=ckpt/step-500 \\
          --base base --bench aime24=data/aime24.jsonl -k 1024 -o runs/qwen
    \b
    Killed or interrupted? Run the same command again: it completes the missing work.
    """
    from rich.console import Console

    from sampler.sample.config import build_run_config
    from sampler.sample.run import execute_run, prepare_run

    cli = given_settings(RunConfig, options)
    cli["output"] = str(output) if output else None
    cli["base"] = base
    settings = given_settings(ModelSettings, options)
    config = build_run_config(
        config_file=config_file,
        cli=cli,
        cli_models=list(models),
        cli_benches=list(benches),
        cli_model_settings=settings,
        cli_bench_fields={
            "problem_field": problem_field,
            "gold_field": gold_field,
            "id_field": id_field,
            "gold_from_solution": gold_from_solution,
            "domain": domain,
        },
    )
    console = Console(stderr=True, highlight=False)
    console.print(
        f"checking {len(config.models)} model(s) and {len(config.benchmarks)} benchmark(s)..."
    )
    from sampler.sample.adaptive import check_adaptive

    check_adaptive(config)
    if dry_run:
        from leash_tui.commands.sample_dry_run import print_dry_run

        print_dry_run(console, config)
        return
    plan = prepare_run(config)
    for bench in plan.benchmarks:
        for warning in bench.warnings:
            console.print(f"warning: {warning}", style="yellow", markup=False)
    progress, sink = _progress_sink(console)
    if config.adaptive:
        summaries = _sample_adaptive(console, plan, progress, sink, verify_workers)
        _print_summary(console, plan, summaries)
        return
    with progress:
        summaries = execute_run(plan, sink)
    _print_summary(console, plan, summaries)
    if config.verify:
        _verify(console, config.output, verify_workers, config)
    else:
        console.print(f"not verified (--no-verify): run  leash verify {config.output}")


def _sample_adaptive(
    console: Any, plan: Any, progress: Any, sink: Any, workers: int | None
) -> list[Any]:
    """``--adaptive``: rounds of sampling, each verified on one warm pool before the next."""
    from sampler.sample.adaptive import execute_adaptive, stop_rows, verify_waiting
    from sampler.store import ResultsFolder
    from sampler.verify.run import verify_results
    from sampler.verify.workers.pools import make_pool

    config = plan.config
    if config.ray and workers is None:  # leave the engine actors their CPUs
        from sampler.ray_cluster import connect
        from sampler.sample.adaptive import ray_verify_workers

        workers = ray_verify_workers(plan, connect(config.ray_address))
    pool = make_pool(workers=workers, ray=config.ray, address=config.ray_address)

    def verify() -> Any:
        return verify_waiting(
            lambda: verify_results(config.output, pool=pool),
            ResultsFolder(config.output).locks.verify_held,
        )

    def on_round(budget: int, number: int, work: dict[str, int]) -> None:
        who = ", ".join(f"{m} {n:,}" for m, n in work.items())
        console.print(f"round {number}: up to {budget:,} samples for questions of {who}")

    try:
        with pool, progress:
            summaries = execute_adaptive(plan, verify, sink, on_round)
    finally:
        if config.ray:
            from sampler.ray_cluster import disconnect

            disconnect()
    rows, _ = stop_rows(plan)
    stops = {"success": 0, "budget": 0, "open": 0, "risk": 0}
    for row in rows:
        stops[row["stop"]] += 1
    bound = sum(row["risk_q"] or 0.0 for row in rows)
    console.print(
        f"adaptive: {stops['success']:,} (model, question) pairs stopped at a verified success,"
        f" {stops['budget']:,} drew all {config.samples:,} samples without one"
        + (
            f", {stops['risk']:,} stopped early by --risk {config.risk:g} (expected"
            f" misclassified at most {bound:.3f})"
            if config.risk is not None
            else ""
        )
        + (f", {stops['open']:,} still open" if stops["open"] else "")
    )
    return summaries


def _print_summary(console: Any, plan: Any, summaries: list[Any]) -> None:
    from rich.table import Table

    table = Table(title=f"sampled into {plan.root}", title_justify="left")
    for col in ("model", "questions", "samples", "tokens", "load s", "sample s", "tok/s"):
        table.add_column(col, justify="left" if col == "model" else "right")
    for s, mp in zip(summaries, plan.models, strict=True):
        if s.skipped:
            console.print(f"{s.name}: nothing to do, all {mp.questions} questions complete")
            continue
        rate = s.tokens / s.sample_seconds if s.sample_seconds else 0.0
        table.add_row(
            s.name,
            f"{s.questions:,}",
            f"{s.samples:,}",
            f"{s.tokens:,}",
            f"{s.load_seconds:.1f}",
            f"{s.sample_seconds:.1f}",
            f"{rate:,.0f}",
        )
    if table.row_count:
        console.print(table)


def _verify(console: Any, root: Path, workers: int | None, config: Any) -> None:
    from leash_tui.commands.shared.verify_progress import verify_progress
    from sampler.errors import LeashError
    from sampler.store import ResultsFolder
    from sampler.verify.run import verify_results
    from sampler.verify.workers.pools import make_pool

    pool = make_pool(workers=workers, ray=config.ray, address=config.ray_address)
    progress, report = verify_progress()
    try:
        summary = verify_results(
            ResultsFolder.open(root), workers=workers, progress=report, pool=pool
        )
    except LeashError as exc:
        raise LeashError(
            f"sampling is complete, but verification did not run ({exc}); run  leash verify {root}"
        ) from exc
    finally:
        progress.stop()
        pool.close()
    counts = ", ".join(f"{k} {v:,}" for k, v in summary.by_status.items() if v)
    console.print(f"verified {summary.verified:,} samples ({counts or 'nothing new'})")
