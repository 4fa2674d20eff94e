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
@output_option("File to write (atomically); default: standard output.", dir_okay=False)
def witnesses(
    results: Path,
    max_samples: int,
    fmt: str,
    models: tuple[str, ...],
    targets: tuple[str, ...],
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
    from leash_tui.report.witness_table import load_claims, print_claims, render_csv, render_json

    skip_pandas_probe()
    _, claims = load_claims(results, max_samples, models, targets)
    if fmt == "table" and output is None:
        print_claims(claims, max_samples, console_for(sys.stdout))
        return
    if fmt == "table":
        import io

        buffer = io.StringIO()
        print_claims(claims, max_samples, console_for(buffer, color=False))
        text = buffer.getvalue()
    else:
        text = render_json(claims, max_samples) if fmt == "json" else render_csv(claims)
    from leash_tui.commands.shared.output_file import write_output

    write_output(output, text)
    if output is None:
        return
    click.echo(f"wrote {len(claims)} claim(s) to {output}", err=True)
