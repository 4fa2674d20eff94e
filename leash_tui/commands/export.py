"""``leash export``: the CLI face of sampler.importers.jsonl_export."""

from __future__ import annotations

from pathlib import Path

import click

from leash_tui.commands.shared.options import output_option


@click.command("export")
@click.argument("results", type=click.Path(path_type=Path))
@output_option("Output file, written atomically (default: stdout).", dir_okay=False)
@click.option("--model", "models", multiple=True, help="Only this model (repeatable).")
@click.option("--benchmark", "benchmarks", multiple=True, help="Only this benchmark (repeatable).")
def export(
    results: Path, output: Path | None, models: tuple[str, ...], benchmarks: tuple[str, ...]
):
    """Write the samples of RESULTS as JSON Lines, the format `leash import` reads."""
    from leash_tui.commands.shared.output_file import open_output
    from leash_tui.safe_text import visible
    from sampler.errors import LeashError
    from sampler.importers.jsonl_export import export_records, write_jsonl
    from sampler.store import ResultsFolder

    opened = ResultsFolder.open(results)
    for name in models:
        if opened.manifest.model(name) is None:
            raise LeashError(f"--model {name}: not in {results}")
    for name in benchmarks:
        if opened.manifest.benchmark(name) is None:
            raise LeashError(f"--benchmark {name}: not in {results}")
    from sampler.store import coverage_notes

    notes = coverage_notes(opened)
    records = export_records(opened, models or None, benchmarks or None)
    with open_output(output) as handle:
        count = write_jsonl(records, handle)
    if output is not None:
        click.echo(f"wrote {count:,} samples to {output}", err=True)
    for note in notes:
        click.echo(f"warning: {visible(note)}", err=True)
