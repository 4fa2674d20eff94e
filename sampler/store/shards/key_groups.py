"""Read sample columns from shards chunk by chunk; group rows by (benchmark, question, model).

Shards are read in chunks of whole row groups (about 256k rows), a few at a time,
so memory stays small. Key columns are read dictionary-encoded (they are stored
that way), so grouping never materialises millions of strings: each key's
dictionary is sorted once, the row's position in the sorted dictionaries becomes
one integer code per row, and counting is ``np.bincount`` over those codes.
Because every dictionary is sorted, the groups come out in (benchmark,
question_id, model) order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.schema import SAMPLES_SCHEMA

T = TypeVar("T")
GROUP_KEYS = ("benchmark", "question_id", "model")
#: string columns read as dictionaries (few distinct values, stored dictionary-encoded)
DICTIONARY_COLUMNS = ("benchmark", "question_id", "model", "status", "answer", "finish_reason")
#: rows per chunk: whole row groups of one shard, about this many rows (a few MB a column)
CHUNK_ROWS = 1 << 18


def _column_type(name: str) -> pa.DataType:
    if name in DICTIONARY_COLUMNS:
        return pa.dictionary(pa.int32(), pa.string())
    return SAMPLES_SCHEMA.field(name).type


@dataclass(frozen=True)
class Chunk:
    """Some row groups of one shard, read as one table."""

    path: Path
    row_groups: tuple[int, ...]


def plan_chunks(paths: Sequence[Path], rows: int | None = None) -> list[Chunk]:
    """Split the shards into chunks of whole row groups of about ``rows`` rows each."""
    rows = rows or CHUNK_ROWS
    chunks = []
    for path in paths:
        try:
            meta = pq.ParquetFile(path).metadata
        except (pa.ArrowException, OSError) as exc:
            raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
        groups: list[int] = []
        size = 0
        for i in range(meta.num_row_groups):
            groups.append(i)
            size += meta.row_group(i).num_rows
            if size >= rows:
                chunks.append(Chunk(path, tuple(groups)))
                groups, size = [], 0
        if groups:
            chunks.append(Chunk(path, tuple(groups)))
    return chunks


def read_chunk(chunk: Chunk, columns: Sequence[str]) -> pa.Table:
    """``columns`` of one chunk, string columns as dictionaries (one dictionary per column).

    A column the shard lacks is read as nulls; a missing key column is an error
    naming the shard.
    """
    path = chunk.path
    try:
        handle = pq.ParquetFile(path)
        present = [c for c in columns if c in handle.schema_arrow.names]
        # read_dictionary may name only columns the shard has (an optional one may be absent)
        dictionary = [c for c in present if c in DICTIONARY_COLUMNS]
        if dictionary:
            handle = pq.ParquetFile(path, read_dictionary=dictionary, metadata=handle.metadata)
        table = handle.read_row_groups(list(chunk.row_groups), columns=present, use_threads=False)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
    out = []
    for name in columns:
        if name not in present:
            if name in (*GROUP_KEYS, "sample"):
                raise LeashError(f"{path}: column {name!r} is missing")
            out.append(pa.nulls(table.num_rows, _column_type(name)))
            continue
        column = table.column(name)
        wanted = _column_type(name)
        if column.type != wanted:
            try:
                column = column.cast(wanted)
            except (pa.ArrowException, ValueError) as exc:
                raise LeashError(
                    f"{path}: column {name!r} has type {column.type}, expected {wanted}"
                ) from exc
        out.append(column)
    return pa.table(out, names=list(columns)).unify_dictionaries()


def map_chunks(
    paths: Sequence[Path],
    columns: Sequence[str],
    work: Callable[[pa.Table, Chunk], T],
    threads: int = 2,
) -> list[T]:
    """``work(table, chunk)`` for every chunk of the shards, ``threads`` chunks at a time,
    in order.

    Only a few chunks are in memory at once, so memory stays small however many
    samples the folder holds; Arrow releases the GIL while decoding.
    """
    chunks = plan_chunks(paths)

    def one(chunk: Chunk) -> T:
        return work(read_chunk(chunk, columns), chunk)

    if threads <= 1 or len(chunks) <= 1:
        return [one(c) for c in chunks]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(one, chunks))


def read_shard_columns(paths: Sequence[Path], columns: Sequence[str]) -> pa.Table:
    """``columns`` of every shard as one table (small folders and tests; see map_chunks)."""
    columns = list(columns)
    tables = [read_chunk(c, columns) for c in plan_chunks(paths)]
    if not tables:
        return pa.schema([pa.field(c, _column_type(c)) for c in columns]).empty_table()
    return pa.concat_tables(tables).unify_dictionaries()


@dataclass(frozen=True)
class SampleGroups:
    """Rows grouped by key: ``codes[i]`` is the group of row i, ``keys`` one row per group."""

    codes: np.ndarray  # int64, one per row
    keys: pa.Table  # the key columns as plain strings, sorted ascending, one row per group

    @property
    def count(self) -> int:
        return self.keys.num_rows


class NullKey(ValueError):
    """A key column (benchmark, question_id, model) holds nulls; ``column`` names it."""

    def __init__(self, column: str):
        super().__init__(f"column {column!r} holds nulls (every sample needs one)")
        self.column = column


def _sorted_dictionary_codes(
    column: pa.ChunkedArray | pa.Array, name: str = "key"
) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the rank of its value among the column's distinct values; and those values."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], type=column.type)
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    if column.null_count:
        raise NullKey(name)
    values = np.array(column.dictionary.to_pylist(), dtype=object)  # to_numpy imports pandas
    distinct, rank = np.unique(values, return_inverse=True)  # also merges repeated values
    indices = column.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return rank.reshape(-1)[indices], distinct


def group_samples(table: pa.Table, keys: Sequence[str] = GROUP_KEYS) -> SampleGroups:
    """Group the rows of ``table`` by ``keys`` (string columns, plain or dictionary)."""
    combined = np.zeros(table.num_rows, dtype=np.int64)
    space = 1
    distincts: list[np.ndarray] = []
    for name in keys:
        rank, distinct = _sorted_dictionary_codes(table.column(name), name)
        distincts.append(distinct)
        size = max(len(distinct), 1)
        combined = combined * size + rank
        space *= size
    if space <= max(4 * table.num_rows, 1 << 20):
        present = np.bincount(combined, minlength=space) > 0
        group_codes = np.flatnonzero(present)
        lookup = np.cumsum(present) - 1
        codes = lookup[combined]
    else:
        group_codes, codes = np.unique(combined, return_inverse=True)
    columns = {}
    rest = group_codes
    for name, distinct in reversed(list(zip(keys, distincts, strict=True))):
        size = max(len(distinct), 1)
        rest, position = np.divmod(rest, size)
        columns[name] = pa.array(distinct[position] if len(distinct) else [], pa.string())
    key_table = pa.table({name: columns[name] for name in keys})
    return SampleGroups(codes.astype(np.int64, copy=False), key_table)
