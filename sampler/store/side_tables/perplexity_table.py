"""``perplexity.parquet``: per (trace, model), the token count and mean negative log-likelihood.

A trace is a reasoning text for one question, written by some ``source`` (a model, a
person, the benchmark's reference solution), identified by ``trace`` (the first 16 hex
digits of the SHA-256 of its text). ``leash perplexity`` merges its results in under the
folder lock and rewrites the file atomically; a rerun replaces rows with the same key.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.journals.locks import exclusive_lock
from sampler.store.schema import LOCK_FILE
from sampler.store.side_tables.side_file import open_side_table

PERPLEXITY_FILE = "perplexity.parquet"
PERPLEXITY_KEYS = ("benchmark", "question_id", "source", "trace", "model")
PERPLEXITY_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("source", pa.string(), nullable=False),
        pa.field("trace", pa.string(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("n_tokens", pa.int32()),
        pa.field("mean_nll", pa.float64()),  # nats per token; null for an empty trace
        pa.field("text", pa.large_string()),
    ]
)


def trace_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_perplexity(
    root: Path, question: tuple[str, str] | None = None, columns: Sequence[str] | None = None
) -> pa.Table:
    """The folder's perplexity rows (an empty table when there are none): all, or those of
    one (benchmark, question_id), read by row-group statistics; ``columns`` projects."""
    path = Path(root) / PERPLEXITY_FILE
    schema = PERPLEXITY_SCHEMA
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not os.path.lexists(path):
        return schema.empty_table()
    try:
        with open_side_table(Path(root), path) as handle:
            if question is None:
                return pq.ParquetFile(handle).read(columns=columns).cast(schema)
            filters = [("benchmark", "=", question[0]), ("question_id", "=", question[1])]
            return pq.read_table(handle, columns=columns, filters=filters).cast(schema)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable perplexity table ({exc})") from exc


def merge_perplexity(root: Path, rows: list[dict]) -> None:
    """Add ``rows`` (PERPLEXITY_SCHEMA dicts), replacing rows with the same key."""
    if not rows:
        return
    with exclusive_lock(Path(root) / LOCK_FILE):
        merged = {
            tuple(r[k] for k in PERPLEXITY_KEYS): r for r in read_perplexity(root).to_pylist()
        }
        for row in rows:
            merged[tuple(row[k] for k in PERPLEXITY_KEYS)] = row
        ordered = sorted(merged.values(), key=lambda r: tuple(r[k] for k in PERPLEXITY_KEYS))
        table = pa.Table.from_pylist(ordered, schema=PERPLEXITY_SCHEMA)
        with atomic_path(Path(root) / PERPLEXITY_FILE) as tmp:
            pq.write_table(table, tmp, compression="zstd")
