"""``adaptive_stops.parquet``: why each (model, question) of an adaptive run stopped sampling.

One row per (benchmark, question_id, model) of ``leash sample --adaptive``: ``drawn``
samples, ``stop`` = ``success`` (its first verified success is sample ``first_success``,
and it stopped at the end of that round), ``budget`` (k samples, none correct) or
``open`` (the run has not finished it yet). Each round merges its rows in under the
folder lock (rows of other shards are kept) and rewrites the file atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.journals.locks import exclusive_lock
from sampler.store.schema import LOCK_FILE
from sampler.store.side_tables.side_file import open_side_table

STOPS_FILE = "adaptive_stops.parquet"
STOP_KEYS = ("benchmark", "question_id", "model")
STOP_SUCCESS, STOP_BUDGET, STOP_OPEN = "success", "budget", "open"
STOPS_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("drawn", pa.int64(), nullable=False),
        pa.field("stop", pa.string(), nullable=False),
        pa.field("first_success", pa.int64()),
    ]
)


def read_stops(root: Path) -> pa.Table:
    """The folder's stop rows (empty when it was never sampled adaptively)."""
    path = Path(root) / STOPS_FILE
    if not os.path.lexists(path):
        return STOPS_SCHEMA.empty_table()
    try:
        with open_side_table(Path(root), path) as handle:
            return pq.ParquetFile(handle).read().cast(STOPS_SCHEMA)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable adaptive stops table ({exc})") from exc


def merge_stops(root: Path, rows: list[dict]) -> None:
    """Add ``rows`` (STOPS_SCHEMA dicts), replacing the rows of the same key."""
    if not rows:
        return
    with exclusive_lock(Path(root) / LOCK_FILE):
        merged = {tuple(r[k] for k in STOP_KEYS): r for r in read_stops(root).to_pylist()}
        for row in rows:
            merged[tuple(row[k] for k in STOP_KEYS)] = row
        ordered = [merged[key] for key in sorted(merged)]
        table = pa.Table.from_pylist(ordered, schema=STOPS_SCHEMA)
        with atomic_path(Path(root) / STOPS_FILE) as tmp:
            pq.write_table(table, tmp, compression="zstd")
