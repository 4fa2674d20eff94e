"""Folder-wide questions that several stages ask, built on the door's reads.

Whether a column is all null (in one shard or every one) by the footer statistics;
a shard's footer null count; and the coverage notes (listed questions without samples,
sampled ones not listed). Each takes a ResultsFolder and
reads only what the door reads; none is one consumer's query.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.shards import shard_files
from sampler.store.shards.coverage import coverage_notes as _coverage_notes


def column_all_null(folder: ResultsFolder, column: str, path: Path | None = None) -> bool:
    """Whether the footer statistics show ``column`` all null in shard ``path`` (or in
    every shard when None): the one such check. Unknown or unreadable counts as not."""
    if path is None:
        return not folder.shards_with_values(column, stop_at_first=True)
    try:
        return folder._all_null(column, path, folder.footer_facts(path))
    except (LeashError, OSError):
        return False


def footer_null_count(folder: ResultsFolder, path: Path, column: str) -> int | None:
    """Nulls of ``column`` in a shard by its footer statistics (None: unknown)."""
    facts = folder.footer_facts(path)
    if column in facts.nulls:
        return facts.nulls[column]
    return shard_files.footer_null_count(path, column)


def coverage_notes(folder: ResultsFolder, counts: pa.Table | None = None) -> list[str]:
    """Notes on listed questions a model has no sample of, and unlisted sampled ones."""
    counts = counts if counts is not None else folder.verdict_counts()
    return _coverage_notes(folder.manifest, folder.questions, counts)
