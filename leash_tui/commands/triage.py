"""``leash triage export RESULTS``: write the tags and notes of a results folder's triage
journal as CSV or JSON Lines (current state: the last write per question and pair wins)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click

from leash_tui.commands.shared.options import output_option
from leash_tui.safe_text import spreadsheet_safe
from sampler.store import TAGS

EXPORT_FIELDS = (
    "benchmark",
    "question_id",
    "base",
    "target",
    "tag",
    "tag_meaning",
    "note",
    "updated",
)


def export_rows(root: Path) -> list[dict]:
    """One dict per triaged question and pair, in (benchmark, question_id) order."""
    from sampler.store import ResultsFolder

    folder = ResultsFolder.open(root)  # refuse a folder that is not a results folder
    rows = []
    for entry in folder.triage_journal().entries():
        rows.append(
            {
                "benchmark": entry.benchmark,
                "question_id": entry.question_id,
                "base": entry.base,
                "target": entry.target,
                "tag": entry.tag,
                "tag_meaning": TAGS[entry.tag][1] if entry.tag in TAGS else None,
                "note": entry.note,
                "updated": entry.updated,
            }
        )
    return rows


def render(rows: list[dict], fmt: str) -> str:
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=EXPORT_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else spreadsheet_safe(v) for k, v in row.items()})
    return buffer.getvalue()


@click.group("triage")
def triage() -> None:
    """Work with the triage tags and notes written in the explorer."""


@triage.command("export")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--format", "fmt", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True
)
@output_option("File to write (atomically); default: standard output.", dir_okay=False)
def export(results: Path, fmt: str, output: Path | None) -> None:
    """Write tags and notes of RESULTS/triage.jsonl as CSV or JSON Lines."""
    rows = export_rows(results)
    text = render(rows, fmt)
    from leash_tui.commands.shared.output_file import is_stdout, write_output
    from leash_tui.safe_text import for_stdout

    if is_stdout(output):  # CSV/JSON to a terminal: control characters made visible
        text = for_stdout(text)

    write_output(output, text)
    if output is not None:
        click.echo(f"wrote {len(rows)} triaged question(s) to {output}", err=True)
