"""``leash compact``: rewrite a folder of many small shards as few large ones."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("compact")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--rows",
    "target_rows",
    type=click.IntRange(min=4096),
    default=None,
    help="Rows per compacted shard (default 4,096,000).",
)
@click.option(
    "--max-memory-mb",
    type=click.IntRange(min=64),
    default=None,
    help="Uncompressed shard data held in memory at once (default 1024).",
)
@click.option(
    "--index-only",
    is_flag=True,
    help="Only bring the shard index (shard-index.arrow) up to date; rewrite no shard.",
)
def compact(
    results: Path, target_rows: int | None, max_memory_mb: int | None, index_only: bool
) -> None:
    """Rewrite runs of small shards of RESULTS as large ones, and give shards written by
    older versions their footer summaries, so reports and the explorer read few footers;
    then bring the folder's shard index up to date.

    Safe to stop at any point: each new shard replaces its old ones in one journaled
    commit. Refused while a `leash verify` runs; samplers and imports may keep adding.
    """
    from sampler.store import (
        DEFAULT_MAX_BYTES,
        DEFAULT_TARGET_ROWS,
        INDEX_FILE,
        ResultsFolder,
        shards_not_indexed,
    )
    from sampler.store import (
        compact as compact_folder,
    )

    folder = ResultsFolder.open(results)
    if index_only:
        before = shards_not_indexed(folder)
        folder.refresh_index()
        shards = len(folder.shard_paths())
        state = "was up to date" if before == 0 else "written"
        click.echo(f"{folder.file(INDEX_FILE)}: {state} ({shards:,} shard(s))")
        return
    summary = compact_folder(
        folder,
        target_rows=target_rows or DEFAULT_TARGET_ROWS,
        max_bytes=(max_memory_mb << 20) if max_memory_mb else DEFAULT_MAX_BYTES,
    )
    if summary.written == 0:
        click.echo(f"{summary.shards_before:,} shards: nothing to compact")
        return
    click.echo(
        f"{summary.shards_before:,} shards -> {summary.shards_after:,}: {summary.rewritten:,}"
        f" rewritten as {summary.written:,} ({summary.samples:,} samples)"
    )
