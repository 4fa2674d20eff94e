"""``leash report RESULTS``: support dynamics of every target against the base, in any format.

Loads the folder's verdict counts and answer statistics (report.data), builds the
rows (report.build) and renders them (report.render) to stdout or ``-o FILE``
(commands.shared.output_file). Notes (unverified samples, questions left out) go to stderr, so that
stdout stays a clean JSON/CSV document.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from leash_tui.commands.shared.options import output_option, support_threshold_option
from leash_tui.report.formats import FORMATS

#: sampler.store.side_tables.entropy_samples.DEFAULT_ENTROPY_SAMPLES, repeated here so that
#: ``leash --help`` imports no pyarrow (tests/analysis/test_entropy_samples.py checks they agree)
DEFAULT_ENTROPY_SAMPLES = 32


@click.command()
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output format; json follows the leash-report/1 contract.",
)
@output_option("Write to this file (atomically) instead of stdout.", dir_okay=False)
@click.option(
    "--k",
    "k",
    type=click.IntRange(min=1),
    help="Budget to count categories at (at most the samples per question);"
    " P/E/S/O become expected counts.",
)
@click.option(
    "--curves", is_flag=True, help="Add budget curves (k = 1, 2, 4, ... up to the budget)."
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="NAME",
    help="Report only this target (repeatable); default: every target.",
)
@click.option(
    "--base",
    "base",
    metavar="NAME",
    help="Compare with this model instead of the folder's base (any model: two RL"
    " checkpoints head to head); the other models become the targets.",
)
@click.option(
    "--allow-partial",
    is_flag=True,
    help="Leave out questions with no verified sample for a model instead of refusing.",
)
@click.option(
    "--zeta",
    type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Confidence parameter of the epsilon shown with each budget.",
)
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    default=2000,
    show_default=True,
    metavar="N",
    help="Most resamples of the paired bootstrap over questions behind each rate's confidence"
    " interval: drawn 250, 500, 1,000, ... until the Monte Carlo error of every interval end"
    " is at most a tenth of its half-width (the note says how many; 0: no intervals).",
)
@click.option(
    "--ci",
    "level",
    type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    metavar="LEVEL",
    help="Confidence level of the intervals.",
)
@support_threshold_option
@click.option(
    "--threshold-curve",
    is_flag=True,
    help="Add P/E/S/O and NSCR at support thresholds from one success to all samples"
    " (breadth to depth).",
)
@click.option(
    "--estimate-k",
    "estimate_ks",
    callback=lambda ctx, param, value: _budgets(value),
    metavar="K[,K...]",
    help="Add the estimators (pass@k, pass^k, G-Pass@k, distinct answers) at these budgets;"
    " each at most the samples per question.",
)
@click.option(
    "--g-tau",
    type=click.FloatRange(min=0, max=1),
    default=0.5,
    show_default=True,
    metavar="TAU",
    help="G-Pass@k threshold: at least a share TAU of k samples correct.",
)
@click.option(
    "--forecast",
    type=click.IntRange(min=1),
    metavar="K",
    help="Add a forecast of pass@K (beta-binomial fit of the counts; K may exceed the"
    " samples drawn), labelled forecast.",
)
@click.option(
    "--entropy-samples",
    "entropy_samples",
    type=click.IntRange(min=1),
    default=DEFAULT_ENTROPY_SAMPLES,
    show_default=True,
    metavar="N",
    help="Answer entropy over the first N samples of each question (the paper's avg@32);"
    " above 32 the shards are scanned.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Count every sample again from the rows, ignoring the per-question cache"
    " (~/.cache/leash) and the counts stored in each shard's footer, and draw the"
    " bootstrap's resamples afresh.",
)
def report(
    results: Path,
    fmt: str,
    output: Path | None,
    k: int | None,
    curves: bool,
    targets: tuple[str, ...],
    base: str | None,
    allow_partial: bool,
    zeta: float,
    bootstrap: int,
    level: float,
    tau: float,
    threshold_curve: bool,
    estimate_ks: tuple[int, ...],
    g_tau: float,
    forecast: int | None,
    entropy_samples: int,
    no_cache: bool,
) -> None:
    """Support dynamics (P/E/S/O, SRR, NDR, SDS, NSCR, pass@k, tests, entropies) of RESULTS.

    One block per target compared with the base: rows per benchmark, then per
    domain, then overall. Samples not yet verified are not counted as wrong. A folder
    with one model gets that model's own table (pass@k, curves, entropies).
    """
    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe

    skip_pandas_probe()
    from leash_tui.report.build import build_report, single_model
    from leash_tui.report.data import load_report_data
    from leash_tui.report.resample_cache import ResampleCache
    from sampler.store import ResultsFolder

    data = load_report_data(
        ResultsFolder.open(results), use_cache=not no_cache, entropy_samples=entropy_samples
    )
    alone = single_model(data, targets, base)
    if alone is not None:
        from leash_tui.report.model_extras import (
            add_model_extras,
            extras_note,
            refuse_pair_options,
        )
        from leash_tui.report.model_table import build_model_report, render_model_report

        refuse_pair_options(tau, threshold_curve, alone)
        one = build_model_report(data, alone, k=k, curves=curves)
        add_model_extras(one, data, k, estimate_ks, g_tau, forecast, bootstrap, level)
        _emit(render_model_report(one, fmt), output)
        print_notes(one.notes + extras_note(one, fmt) + _dropped_ci(bootstrap))
        return
    built = build_report(
        data,
        targets=targets,
        k=k,
        allow_partial=allow_partial,
        curves=curves,
        base=base,
        zeta=zeta,
        tau=tau,
        bootstrap=bootstrap,
        level=level,
        estimate_ks=estimate_ks,
        g_tau=g_tau,
        forecast=forecast,
        threshold_curve=threshold_curve,
        resamples=None if no_cache or not bootstrap else ResampleCache(),
    )
    built.notes += _dropped_ci(bootstrap)
    if fmt == "table" and output is None:
        from leash_tui.report.render import print_table, table_console

        stream = sys.stdout  # click.get_text_stream is deprecated (Click 9)
        # a terminal's width; a pipe gets the table's natural width (never cut)
        print_table(built, table_console(stream, None, color=stream.isatty()))
        print_notes(built.notes)
        return
    from leash_tui.report.render import RENDERERS

    _emit(RENDERERS[fmt](built), output)
    print_notes(built.notes)


def _dropped_ci(bootstrap: int) -> list[str]:
    """A note when ``--ci`` was given with ``--bootstrap 0``, which asks for no intervals."""
    context = click.get_current_context()
    given = context.get_parameter_source("level") == click.core.ParameterSource.COMMANDLINE
    if bootstrap or not given:
        return []
    return ["--ci is dropped: --bootstrap 0 asks for no intervals (give --bootstrap N to get them)"]


def _emit(text: str, output: Path | None) -> None:
    """``text`` to stdout, or to ``output`` through the one output door."""
    from leash_tui.commands.shared.output_file import write_output

    write_output(output, text)
    if output is not None:
        click.echo(f"wrote {output}", err=True)


def _budgets(value: str | None) -> tuple[int, ...]:
    """``--estimate-k 1,8,64`` as (1, 8, 64); a one-line error for anything else."""
    if not value:
        return ()
    try:
        ks = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"{value!r}: give budgets as K or K,K,... (integers)") from None
    if not ks or min(ks) < 1:
        raise click.BadParameter(f"{value!r}: every budget must be at least 1")
    return tuple(sorted(set(ks)))


def print_notes(notes: list[str]) -> None:
    """The report's notes on standard error, after the table: on a terminal wrapped at word
    boundaries to its width (continuation lines indented), elsewhere one line each."""
    import shutil
    import textwrap

    sys.stdout.flush()  # the table first, whichever stream each goes to
    stream = sys.stderr
    width = shutil.get_terminal_size().columns if stream.isatty() else 0
    for note in notes:
        line = f"note: {_visible(note)}"
        if width > 20:
            line = textwrap.fill(
                line, width=width, subsequent_indent="      ", break_long_words=False
            )
        click.echo(line, err=True)


def _visible(text: str) -> str:
    from leash_tui.safe_text import visible

    return visible(text)
