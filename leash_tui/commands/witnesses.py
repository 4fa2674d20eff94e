"""``leash witnesses RESULTS``: the evidence behind every fragile support claim.

Lists the (question, model) pairs whose support rests on at most ``--max-samples``
accepted samples, with the distinct accepted answers beside the gold and a flag where
an answer differs from the gold beyond notation (``analysis.witnesses``).
"""

from __future__ import annotations

from pathlib import Path

import click

from leash_tui.analysis.witness_claims import DEFAULT_MAX_SAMPLES
from leash_tui.commands.shared.options import output_option


@click.command("witnesses")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--max-samples",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_SAMPLES,
    show_default=True,
    metavar="M",
    help="List claims resting on at most M accepted samples.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
)
@click.option(
    "--model",
    "models",
    multiple=True,
    metavar="NAME",
    help="Only the claims of this model (repeatable).",
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="NAME",
    help="Only the claims of this target and of the base (repeatable).",
)
@click.option(
    "--losses",
    is_flag=True,
    help="The loss audit instead: for every shrinkage claim (a question in the base's support"
    " and not the target's), the target's most frequent rejected answers and their status.",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    metavar="N",
    help="With --losses: rejected answer classes shown per lost question.",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Table: list every claim (default: the first 40, the ones to check first, and a"
    " count of the rest; a file written with -o gets every claim).",
)
@output_option("File to write (atomically); default: standard output.", dir_okay=False)
def witnesses(
    results: Path,
    max_samples: int,
    fmt: str,
    models: tuple[str, ...],
    targets: tuple[str, ...],
    losses: bool,
    top: int,
    show_all: bool,
    output: Path | None,
) -> None:
    """Show the accepted samples that fragile support claims in RESULTS rest on.

    At large k one accepted sample puts a question in a model's support, so one
    verifier error invents support: check these claims by eye. Answers are shown as
    the model wrote them, beside the verifier's normal form and the extraction rule that
    found them; those whose text differs from the gold beyond notation (units,
    symbols, extra terms) come first.
    """
    import sys

    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe
    from leash_tui.report.fit import console_for
    from leash_tui.report.witness_table import (
        SHOWN_CLAIMS,
        load_claims,
        print_claims,
        render_csv,
        render_json,
    )

    skip_pandas_probe()
    if losses:
        from leash_tui.report.loss_table import (
            load_losses,
            print_losses,
            render_losses_csv,
            render_losses_json,
        )

        _, lost = load_losses(results, (*targets, *models), top)
        claims: list = lost

        def show(console, limit: int | None) -> None:
            print_losses(lost, console)

        def render() -> str:
            return render_losses_json(lost) if fmt == "json" else render_losses_csv(lost)
    else:
        _, fragile = load_claims(results, max_samples, models, targets)
        claims = fragile

        def show(console, limit: int | None) -> None:
            print_claims(fragile, max_samples, console, limit)

        def render() -> str:
            return render_json(fragile, max_samples) if fmt == "json" else render_csv(fragile)

    if fmt == "table" and output is None:
        show(console_for(sys.stdout), None if show_all else SHOWN_CLAIMS)
        return
    if fmt == "table":
        import io

        buffer = io.StringIO()
        show(console_for(buffer, color=False), None)
        text = buffer.getvalue()
    else:
        text = render()
    from leash_tui.commands.shared.output_file import is_stdout, write_output
    from leash_tui.safe_text import for_stdout

    if is_stdout(output):  # CSV/JSON to a terminal: control characters made visible
        text = for_stdout(text)

    write_output(output, text)
    if output is None:
        return
    click.echo(f"wrote {len(claims)} claim(s) to {output}", err=True)
