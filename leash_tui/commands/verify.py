"""``leash verify RESULTS``: give every sample a verdict, with progress, ETA and a summary.

The work is ``sampler.verify.run.verify_results``; this module only turns
options into its arguments, draws a progress bar (samples, throughput, ETA) on
stderr and prints the summary (as a table, or JSON with ``--json``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sampler.verify.workers.pool import DEFAULT_DEADLINE_S

if TYPE_CHECKING:
    from sampler.verify.answers.extraction import ExtractionConfig
    from sampler.verify.run import VerifySummary
    from sampler.verify.workers.pools import Pool


def _extraction(
    root: Path, default: str | None, benchmarks: tuple[str, ...], models: tuple[str, ...]
) -> ExtractionConfig | None:
    """The extraction config the options ask for: the stored one with their changes applied."""
    if default is None and not benchmarks and not models:
        return None
    from sampler.store import ResultsFolder
    from sampler.verify.answers.extraction import (
        ExtractionConfig,
        parse_assignment,
        parse_strategies,
    )
    from sampler.verify.run import resolve_extraction

    stored = ResultsFolder.open(root).manifest.verification
    base = resolve_extraction(stored, None, str(root / "manifest.json"))
    by_benchmark = dict(base.benchmarks)
    by_model = dict(base.models)
    for spec in benchmarks:
        name, strategies = parse_assignment(spec, "benchmark")
        by_benchmark[name] = strategies
    for spec in models:
        name, strategies = parse_assignment(spec, "model")
        by_model[name] = strategies
    return ExtractionConfig(
        default=parse_strategies(default, "--extract") if default else base.default,
        benchmarks=by_benchmark,
        models=by_model,
    )


def _summary_table(summary: VerifySummary) -> object:
    from rich.table import Table

    def n(value: int) -> str:
        return f"{value:,}"

    rate = summary.verified / summary.seconds if summary.seconds > 0 else 0.0
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column(justify="right")
    table.add_column(style="dim")
    table.add_row("samples", n(summary.samples), f"{n(summary.already_verified)} already verified")
    table.add_row(
        "verified now",
        n(summary.verified),
        f"{summary.seconds:.1f} s, {rate:,.0f} samples/s, {summary.workers} workers",
    )
    table.add_row("distinct answers", n(summary.distinct_answers), "per question")
    table.add_row(
        "verifier calls",
        n(summary.verifier_calls),
        f"{n(summary.calls_saved)} saved by reusing verdicts",
    )
    table.add_row("correct", n(summary.correct), "")
    table.add_row("incorrect", n(summary.by_status["incorrect"]), "")
    table.add_row("no answer", n(summary.no_answer), "nothing extractable")
    table.add_row(
        "timeouts", n(summary.timeouts), f"deadline {summary.deadline_s:g} CPU s per answer"
    )
    table.add_row("errors", n(summary.errors), "")
    if summary.no_gold:
        table.add_row("no gold", n(summary.no_gold), "questions without a gold answer: not graded")
    return table


def _verify_with_progress(
    results: Path,
    pool: Pool,
    *,
    force: bool,
    retry: bool,
    extraction: ExtractionConfig | None,
    show: bool,
) -> VerifySummary:
    """``verify_results`` on ``pool`` with a progress bar (samples, rate, ETA) on stderr."""
    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe
    from leash_tui.commands.shared.verify_progress import verify_progress
    from sampler.store import ResultsFolder
    from sampler.verify.run import verify_results

    skip_pandas_probe()
    progress, report = verify_progress(show)
    try:
        return verify_results(
            ResultsFolder.open(results),
            force=force,
            retry=retry,
            extraction=extraction,
            progress=report,
            pool=pool,
        )
    finally:
        progress.stop()


@click.command("verify")
@click.argument("results", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Re-verify every sample, even those with a verdict.")
@click.option(
    "--retry", is_flag=True, help="Also re-verify samples whose status is timeout or error."
)
@click.option(
    "-j",
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes [default: all cores].",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0.1),
    default=DEFAULT_DEADLINE_S,
    show_default=True,
    help="CPU seconds one answer may take (a starved worker is not timed out; 10 deadlines on"
    " the clock at most); past it the worker is killed and the sample is 'timeout'.",
)
@click.option(
    "--extract",
    "extract_default",
    metavar="STRATEGY",
    help="How to find the answer: boxed (default), answer_line, answer_tags or after_think;"
    " a comma-separated list is tried in order. Stored in the folder for later runs.",
)
@click.option(
    "--extract-benchmark",
    multiple=True,
    metavar="NAME=STRATEGY",
    help="Strategy for one benchmark (repeatable).",
)
@click.option(
    "--extract-model",
    multiple=True,
    metavar="NAME=STRATEGY",
    help="Strategy for one model; beats --extract-benchmark (repeatable).",
)
@click.option(
    "--ray",
    "use_ray",
    is_flag=True,
    help="Spread verification over a Ray cluster's cores (RAY_ADDRESS, else a local one);"
    " -j is then the number of Ray workers [default: the cluster's CPUs].",
)
@click.option("--ray-address", help="Address of the Ray cluster (implies --ray).")
@click.option(
    "--allow-unsandboxed-code",
    is_flag=True,
    help="Where no sandbox can be made (no bubblewrap or namespaces), run model-written"
    " programs on this machine anyway, under rlimits only.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--no-progress", is_flag=True, help="Do not draw the progress bar.")
def verify(
    results: Path,
    force: bool,
    retry: bool,
    workers: int | None,
    deadline: float,
    extract_default: str | None,
    extract_benchmark: tuple[str, ...],
    extract_model: tuple[str, ...],
    use_ray: bool,
    ray_address: str | None,
    allow_unsandboxed_code: bool,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Verify the answers in RESULTS: fill answer, correct and status for every sample.

    Samples that already have a verdict are skipped (use --force to redo them all).
    Each distinct answer of a question is verified once; a pathological answer is
    stopped at the deadline and recorded as 'timeout'. Safe to interrupt: a rerun
    continues where the last one stopped.
    """
    from sampler.verify.verifiers.sandbox import allow_unsandboxed
    from sampler.verify.workers.pools import make_pool

    allow_unsandboxed(allow_unsandboxed_code)
    pool = make_pool(workers=workers, deadline_s=deadline, ray=use_ray, address=ray_address)
    # The workers' zygote takes most of a second to import math-verify: start it first, so
    # that it loads while this process imports the rest and reads the folder.
    with pool:
        pool.prestart()
        summary = _verify_with_progress(
            results,
            pool,
            force=force,
            retry=retry,
            extraction=_extraction(results, extract_default, extract_benchmark, extract_model),
            show=not no_progress and not as_json,
        )
    from rich.console import Console

    from leash_tui.safe_text import safe

    for note in summary.notes:
        click.echo(f"warning: {safe(note).plain}", err=True)
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
        return
    out = Console()
    if summary.verified == 0:
        out.print(
            safe(
                f"Nothing to verify: all {summary.samples:,} samples of {results} have a verdict"
                " (--force re-verifies them, --retry redoes timeouts and errors)."
            )
        )
        return
    out.print(_summary_table(summary))
    if summary.timeouts or summary.errors:
        out.print(
            safe(
                "Timeouts and errors count as not correct. To try them again, e.g. with more"
                f" time: leash verify {results} --retry --deadline {summary.deadline_s * 3:g}",
                style="yellow",
            )
        )
