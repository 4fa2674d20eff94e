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
    "--all",
    "show_all",
    is_flag=True,
    help="Table: list every claim (default: the first 40, the ones to check first, and a"
    " count of the rest; a file written with -o gets every claim).",
)
@output_option("File to write (atomically); default: standard output.", dir_okay=False)
def witnesses(
    results: Path, max_samples: int, fmt: str, show_all: bool, output: Path | None
) -> None:
    """Show the accepted samples that fragile support claims in RESULTS rest on.

    At large k one accepted sample puts a question in a model's support, so one
    verifier error invents support: check these claims by eye. Answers that differ
    from the gold beyond notation (units, symbols, extra terms) come first.
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
    _, claims = load_claims(results, max_samples)
    if fmt == "table" and output is None:
        limit = None if show_all else SHOWN_CLAIMS
        print_claims(claims, max_samples, console_for(sys.stdout), limit)
        return
    if fmt == "table":
        import io

        buffer = io.StringIO()
        print_claims(claims, max_samples, console_for(buffer, color=False), None)
        text = buffer.getvalue()
    else:
        text = render_json(claims, max_samples) if fmt == "json" else render_csv(claims)
    from leash_tui.commands.shared.output_file import is_stdout, write_output
    from leash_tui.safe_text import for_stdout

    if is_stdout(output):  # CSV/JSON to a terminal: control characters made visible
        text = for_stdout(text)

    write_output(output, text)
    if output is None:
        return
    click.echo(f"wrote {len(claims)} claim(s) to {output}", err=True)
