"""Reads of single shard files by path: whole or projected, key batches, footer probes.

The one place that answers "is this column all null, by the footer statistics?"
(``column_all_null``) and "how many nulls, by the footer?" (``footer_null_count``):
verification, trusted verdicts, grading agreement and the exact-entropy columns ask
it before reading anything. An unreadable file raises LeashError naming it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.schema import SAMPLES_SCHEMA
from sampler.store.shards.shard_summary import null_count
from sampler.store.shards.writer import conform_table


def _unreadable(path: Path, exc: Exception) -> LeashError:
    return LeashError(f"{path}: not a readable Parquet file ({exc})")


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


#: the columns whose footer null counts a reader asks for (verification, trusted verdicts,
#: grading agreement, exact token entropy, the rules that found answers)
PROBED_COLUMNS = (
    "status",
    "verdict_source",
    "source_correct",
    "token_entropy_exact",
    "answer_rule",
)


@dataclass(frozen=True)
class FooterFacts:
    """What a shard's footer says that readers ask before reading rows."""

    rows: int
    columns: frozenset[str]
    #: nulls by the row-group statistics of each PROBED_COLUMNS column (every row when the
    #: column is absent; None when a row group has no null count)
    nulls: dict[str, int | None]

    def all_null(self, column: str) -> bool:
        """Whether the statistics show ``column`` all null or absent (unknown: not)."""
        if column not in self.columns:
            return True
        nulls = self.nulls.get(column)
        return nulls is not None and nulls == self.rows


def read_footer(path: Path) -> pq.FileMetaData:
    """The shard's Parquet footer (LeashError naming the file when it cannot be read)."""
    try:
        return pq.read_metadata(path)
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(path, exc) from exc


def footer_facts(meta: pq.FileMetaData) -> FooterFacts:
    columns = frozenset(meta.schema.column(i).path.split(".")[0] for i in range(meta.num_columns))
    nulls = {name: null_count(meta, name) for name in PROBED_COLUMNS}
    return FooterFacts(meta.num_rows, columns, nulls)


def footer_null_count(path: Path, column: str) -> int | None:
    """``null_count`` of the shard at ``path``."""
    return null_count(read_footer(path), column)


def column_all_null(path: Path, column: str) -> bool:
    """True only when the footer statistics show ``column`` all null (or absent) in the
    shard; an unreadable footer or missing statistics answer False (a read decides)."""
    try:
        meta = read_footer(path)
    except LeashError:
        return False
    nulls = null_count(meta, column)
    return nulls is not None and nulls == meta.num_rows
