"""Per-question verdict counts of a results folder, fast, with an optional per-shard cache.

Shards are sorted by (benchmark, question_id, model, sample), so one model's
samples of one question form a run of rows. Counting reads only the three key
columns and ``status`` as dictionary indices, finds the runs with numpy, and
counts statuses per run with one ``bincount``; it never decodes a string per row
or touches completion text. Runs of the same key in several shards or row-group
slices are added in a final group-by over the (few) runs.

With ``cache=True`` the counts of each shard are kept in
``.leash-cache/verdict-counts-v1.parquet`` in the results folder, keyed by the
shard's name, size and modification time; a shard that was appended or replaced
(after verification) is counted again, the others are not. A folder that cannot
be written is simply not cached.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.atomic_io import atomic_path
from sampler.errors import LeashError
from sampler.results_schema import STATUSES

KEYS = ("benchmark", "question_id", "model")
COUNT_COLUMNS = ("n", "n_verified", *(f"n_{s}" for s in STATUSES))
CACHE_DIR = ".leash-cache"
CACHE_FILE = "verdict-counts-v1.parquet"
#: Row groups read at once: bounds memory (about a million rows at 4096 rows a group).
ROW_GROUPS_PER_SLICE = 256

COUNTS_SCHEMA = pa.schema(
    [*(pa.field(k, pa.string()) for k in KEYS), *(pa.field(c, pa.int64()) for c in COUNT_COLUMNS)]
)
_CACHE_SCHEMA = pa.schema([pa.field("shard", pa.string()), *COUNTS_SCHEMA])


def _indices(array: pa.Array) -> np.ndarray:
    """Dictionary indices of ``array`` as int64 (nulls as -1)."""
    if not pa.types.is_dictionary(array.type):
        array = pc.dictionary_encode(array)
    return pc.fill_null(array.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)


def _slice_runs(table: pa.Table) -> pa.Table:
    """Counts per run of equal keys in ``table`` (key columns dictionary-encoded)."""
    table = table.unify_dictionaries().combine_chunks()
    n = table.num_rows
    change = np.zeros(n, dtype=bool)
    change[0] = True
    for key in KEYS:
        idx = _indices(table.column(key).chunk(0))
        change[1:] |= idx[1:] != idx[:-1]
    starts = np.flatnonzero(change)
    run_of_row = np.cumsum(change) - 1
    status = table.column("status").chunk(0)
    codes = _indices(status)
    names = status.dictionary.to_pylist() if pa.types.is_dictionary(status.type) else []
    # map each dictionary entry to its position in STATUSES (unknown words: verified, no class)
    lookup = np.array(
        [STATUSES.index(w) if w in STATUSES else len(STATUSES) for w in names]
        + [len(STATUSES) + 1],
        dtype=np.int64,
    )
    status_class = lookup[np.where(codes < 0, len(names), codes)]
    width = len(STATUSES) + 2
    per_run = np.bincount(run_of_row * width + status_class, minlength=starts.size * width)
    per_run = per_run.reshape(starts.size, width)
    sizes = np.diff(np.append(starts, n))
    columns: dict[str, pa.Array] = {
        key: table.column(key).chunk(0).take(pa.array(starts)).cast(pa.string()) for key in KEYS
    }
    columns["n"] = pa.array(sizes)
    columns["n_verified"] = pa.array(sizes - per_run[:, len(STATUSES) + 1])
    for i, word in enumerate(STATUSES):
        columns[f"n_{word}"] = pa.array(per_run[:, i])
    return pa.table(columns, schema=COUNTS_SCHEMA)


def _group(runs: pa.Table) -> pa.Table:
    """Add up runs with the same key; sort by key."""
    if runs.num_rows == 0:
        return COUNTS_SCHEMA.empty_table()
    grouped = runs.group_by(list(KEYS), use_threads=False).aggregate(
        [(c, "sum") for c in COUNT_COLUMNS]
    )
    grouped = grouped.rename_columns([c.removesuffix("_sum") for c in grouped.column_names])
    order = pc.sort_indices(grouped, sort_keys=[(k, "ascending") for k in KEYS])
    return grouped.take(order).select(COUNTS_SCHEMA.names).cast(COUNTS_SCHEMA)


def shard_counts(path: Path) -> pa.Table:
    """Verdict counts of one shard (see module docstring)."""
    try:
        handle = pq.ParquetFile(path, read_dictionary=[*KEYS, "status"])
        groups = handle.metadata.num_row_groups
        runs = []
        for start in range(0, groups, ROW_GROUPS_PER_SLICE):
            piece = handle.read_row_groups(
                list(range(start, min(groups, start + ROW_GROUPS_PER_SLICE))),
                columns=[*KEYS, "status"],
                use_threads=True,
            )
            if piece.num_rows:
                runs.append(_slice_runs(piece))
    except (pa.ArrowException, OSError, KeyError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
    return _group(pa.concat_tables(runs)) if runs else COUNTS_SCHEMA.empty_table()


def _fingerprint(path: Path) -> str:
    """Name, size and modification time: a replaced shard gets a new fingerprint."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc})") from exc
    return f"{path.name}|{stat.st_size}|{stat.st_mtime_ns}"


def _read_cache(path: Path) -> pa.Table:
    try:
        return pq.read_table(path).select(_CACHE_SCHEMA.names).cast(_CACHE_SCHEMA)
    except (pa.ArrowException, OSError, KeyError):
        return _CACHE_SCHEMA.empty_table()  # missing or damaged: count again


def _with_shard(counts: pa.Table, fingerprint: str) -> pa.Table:
    column = pa.array([fingerprint] * counts.num_rows, pa.string())
    return pa.Table.from_arrays([column, *counts.columns], schema=_CACHE_SCHEMA)


def verdict_counts(root: Path, shards: Sequence[Path], cache: bool = False) -> pa.Table:
    """Counts per (benchmark, question_id, model) over ``shards``, sorted by key.

    Columns: benchmark, question_id, model, n, n_verified, n_correct, n_incorrect,
    n_no_answer, n_timeout, n_error.
    """
    if not cache:
        per = [shard_counts(p) for p in shards]
        return _group(pa.concat_tables(per)) if per else COUNTS_SCHEMA.empty_table()
    cache_path = Path(root) / CACHE_DIR / CACHE_FILE
    wanted = {_fingerprint(p): p for p in shards}
    cached = _read_cache(cache_path) if cache_path.exists() else _CACHE_SCHEMA.empty_table()
    have = set(pc.unique(cached.column("shard")).to_pylist())
    kept = cached.filter(pc.is_in(cached.column("shard"), pa.array(list(wanted), pa.string())))
    fresh = [_with_shard(shard_counts(p), fp) for fp, p in wanted.items() if fp not in have]
    table = pa.concat_tables([kept, *fresh])
    if fresh or have - set(wanted):
        with contextlib.suppress(OSError), atomic_path(cache_path) as tmp:
            pq.write_table(table, tmp, compression="zstd")
    return _group(table.select(COUNTS_SCHEMA.names))
