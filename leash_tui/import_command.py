"""``leash import``: the CLI face of sampler.jsonl_import."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from leash_tui.safe_text import one_line


@click.command("import")
@click.argument("samples", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--base", "base", metavar="MODEL", help="The base model (required for a new folder).")
@click.option(
    "-o",
    "--out",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="Results folder to create or extend.",
)
def import_(samples: tuple[Path, ...], base: str | None, out: Path) -> None:
    """Build or extend a results folder from sample JSON Lines (one sample a line).

    Every line is checked before anything is written: a bad line stops the import
    with its file and line number and leaves the folder unchanged. Importing into an
    existing folder adds samples and never overwrites one already there.
    """
    from sampler.jsonl_import import import_jsonl

    summary = import_jsonl(list(samples), out, base=base)
    console = Console(stderr=True, highlight=False)
    verb = "created" if summary.created else "extended"
    console.print(
        f"{verb} {one_line(str(out))}: {summary.samples:,} samples"
        f" ({summary.with_verdict:,} with a verdict), {summary.questions_added:,} new questions"
    )
    for model, count in sorted(summary.models.items()):
        console.print(f"  {one_line(model)}: {count:,} samples")
    if summary.with_verdict < summary.samples:
        console.print(f"next: leash verify {one_line(str(out))}")
