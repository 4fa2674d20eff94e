"""Reads of single shard files by path: whole or projected, key batches, footer probes.

The one place that answers "is this column all null, by the footer statistics?"
(``column_all_null``) and "how many nulls, by the footer?" (``footer_null_count``):
verification, trusted verdicts, grading agreement and the exact-entropy columns ask
it before reading anything. An unreadable file raises LeashError naming it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.schema import SAMPLES_SCHEMA
from sampler.store.shards.writer import conform_table


def _unreadable(path: Path, exc: Exception) -> LeashError:
    return LeashError(f"{path}: not a readable Parquet file ({exc})")


def shard_columns(path: Path) -> list[str]:
    """The column names the shard at ``path`` holds."""
    try:
        return list(pq.ParquetFile(path).schema_arrow.names)
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc


def shard_rows(path: Path) -> int:
    """The shard's row count, from its footer."""
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc


def read_shard(path: Path, columns: Sequence[str] | None = None, conform: bool = False) -> pa.Table:
    """The rows of the shard at ``path``: ``columns`` that it holds (all when None); with
    ``conform``, every SAMPLES_SCHEMA column in order (missing ones null)."""
    try:
        handle = pq.ParquetFile(path)
        present = None
        if columns is not None:
            present = [c for c in columns if c in handle.schema_arrow.names]
        table = handle.read(columns=present)
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc
    return conform_table(table, SAMPLES_SCHEMA) if conform else table


def iter_shard_batches(
    path: Path, columns: Sequence[str], batch_size: int = 65_536
) -> Iterator[pa.Table]:
    """The ``columns`` of the shard at ``path`` (those it holds) in tables of
    ``batch_size`` rows, string keys as plain strings."""
    try:
        handle = pq.ParquetFile(path)
        present = [c for c in columns if c in handle.schema_arrow.names]
        for batch in handle.iter_batches(batch_size=batch_size, columns=present):
            table = pa.Table.from_batches([batch])
            for i, name in enumerate(table.column_names):
                if pa.types.is_dictionary(table.schema.field(i).type):
                    table = table.set_column(i, name, table.column(name).cast(pa.string()))
            yield table
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc


def footer_null_count(path: Path, column: str) -> int | None:
    """Nulls of ``column`` in the shard by its row-group statistics: every row when the
    column is absent, None when a row group has no null count (read it to know)."""
    try:
        meta = pq.ParquetFile(path).metadata
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if column not in names:
        return meta.num_rows
    index = names.index(column)
    nulls = 0
    for i in range(meta.num_row_groups):
        stats = meta.row_group(i).column(index).statistics
        if stats is None or not stats.has_null_count:
            return None
        nulls += stats.null_count
    return nulls


def column_all_null(path: Path, column: str) -> bool:
    """True only when the footer statistics show ``column`` all null (or absent) in the
    shard; an unreadable footer or missing statistics answer False (a read decides)."""
    try:
        nulls = footer_null_count(path, column)
    except LeashError:
        return False
    return nulls is not None and nulls == shard_rows(path)
