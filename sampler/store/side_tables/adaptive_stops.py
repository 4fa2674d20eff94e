"""``adaptive_stops.parquet``: why each (model, question) of an adaptive run stopped sampling.

One row per (benchmark, question_id, model) of ``leash sample --adaptive``: ``drawn``
samples, ``stop`` = ``success`` (its first verified success is sample ``first_success``,
and it stopped at the end of that round), ``budget`` (k samples, none correct) or
``open`` (the run has not finished it yet) or ``risk`` (``--risk DELTA`` stopped it without a
success; ``risk_q`` is the stated bound on its chance of a success in the samples it did
not draw, ``sample.risk_stop``; null for the other stops and in folders written before
the column existed). Each round merges its rows in under the
folder lock (rows of other shards are kept) and rewrites the file atomically.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from sampler.store.side_tables.side_file import merge_side_table, read_side_table

STOPS_FILE = "adaptive_stops.parquet"
STOP_KEYS = ("benchmark", "question_id", "model")
STOP_SUCCESS, STOP_BUDGET, STOP_OPEN, STOP_RISK = "success", "budget", "open", "risk"
STOPS_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("drawn", pa.int64(), nullable=False),
        pa.field("stop", pa.string(), nullable=False),
        pa.field("first_success", pa.int64()),
        pa.field("risk_q", pa.float64()),
    ]
)


def read_stops(root: Path) -> pa.Table:
    """The folder's stop rows (empty when it was never sampled adaptively)."""
    return read_side_table(
        root, STOPS_FILE, STOPS_SCHEMA, "adaptive stops table", absent_nullable=True
    )


def merge_stops(root: Path, rows: list[dict]) -> None:
    """Add ``rows`` (STOPS_SCHEMA dicts), replacing the rows of the same key."""
    merge_side_table(root, STOPS_FILE, STOPS_SCHEMA, STOP_KEYS, read_stops, rows)
