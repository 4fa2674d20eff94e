"""Read sample columns from shards and group rows by (benchmark, question_id, model), fast.

Key columns are read dictionary-encoded (they are stored that way), so grouping
never materialises millions of strings: each key's dictionary is sorted once, the
row's position in the sorted dictionaries becomes one integer code per row, and
counting is ``np.bincount`` over those codes. Because every dictionary is sorted,
the groups come out in (benchmark, question_id, model) order. Used by
``Results.verdict_counts`` and by the report loader, so both count the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.results_schema import SAMPLES_SCHEMA

GROUP_KEYS = ("benchmark", "question_id", "model")
#: string columns read as dictionaries (few distinct values, stored dictionary-encoded)
DICTIONARY_COLUMNS = ("benchmark", "question_id", "model", "status", "answer", "finish_reason")
_READ_THREADS = 2  # shards are read in parallel; Arrow releases the GIL while decoding


def _column_type(name: str) -> pa.DataType:
    if name in DICTIONARY_COLUMNS:
        return pa.dictionary(pa.int32(), pa.string())
    return SAMPLES_SCHEMA.field(name).type


def _read_shard(path: Path, columns: Sequence[str]) -> pa.Table:
    dictionary = [c for c in columns if c in DICTIONARY_COLUMNS]
    try:
        handle = pq.ParquetFile(path, read_dictionary=dictionary)
        present = [c for c in columns if c in handle.schema_arrow.names]
        table = handle.read(columns=present, use_threads=False)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
    out = []
    for name in columns:
        if name not in present:
            if name in GROUP_KEYS:
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
    return pa.table(out, names=list(columns))


def read_shard_columns(paths: Sequence[Path], columns: Sequence[str]) -> pa.Table:
    """``columns`` of every shard in ``paths``, string keys as dictionaries with one dictionary.

    A column a shard lacks is read as nulls (a key column missing is an error naming
    the shard).
    """
    columns = list(columns)
    if not paths:
        return pa.schema([pa.field(c, _column_type(c)) for c in columns]).empty_table()
    if len(paths) == 1:
        tables = [_read_shard(paths[0], columns)]
    else:
        with ThreadPoolExecutor(max_workers=_READ_THREADS) as pool:
            tables = list(pool.map(lambda p: _read_shard(p, columns), paths))
    return pa.concat_tables(tables).unify_dictionaries()


@dataclass(frozen=True)
class SampleGroups:
    """Rows grouped by key: ``codes[i]`` is the group of row i, ``keys`` one row per group."""

    codes: np.ndarray  # int64, one per row
    keys: pa.Table  # the key columns as plain strings, sorted ascending, one row per group

    @property
    def count(self) -> int:
        return self.keys.num_rows


def _sorted_dictionary_codes(column: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the rank of its value among the column's distinct values; and those values."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], type=column.type)
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    if column.null_count:
        raise ValueError("a key column holds nulls")
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
        rank, distinct = _sorted_dictionary_codes(table.column(name))
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


def group_sum(groups: SampleGroups, values: np.ndarray) -> np.ndarray:
    """Per group, the sum of ``values`` (one per row)."""
    return np.bincount(groups.codes, weights=values, minlength=groups.count)


def group_count(groups: SampleGroups, mask: np.ndarray | None = None) -> np.ndarray:
    """Per group, the number of rows (where ``mask`` is true, if given)."""
    codes = groups.codes if mask is None else groups.codes[mask]
    return np.bincount(codes, minlength=groups.count).astype(np.int64)
