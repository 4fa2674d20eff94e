"""``perplexity.parquet``: per (trace, model), the token count and mean negative log-likelihood.

A trace is a reasoning text for one question, written by some ``source`` (a model, a
person, the benchmark's reference solution), identified by ``trace`` (the first 16 hex
digits of the SHA-256 of its text). ``leash perplexity`` merges its results in under the
folder lock and rewrites the file atomically; a rerun replaces rows with the same key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from sampler.store.side_tables.side_file import merge_side_table, read_side_table

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


#: The columns a report reads (never ``text``, which it does not show).
PERPLEXITY_SCORE_COLUMNS = (
    "benchmark",
    "question_id",
    "source",
    "trace",
    "model",
    "n_tokens",
    "mean_nll",
)


def trace_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_perplexity(
    root: Path, question: tuple[str, str] | None = None, columns: Sequence[str] | None = None
) -> pa.Table:
    """The folder's perplexity rows (an empty table when there are none): all, or those of
    one (benchmark, question_id), read by row-group statistics; ``columns`` projects."""
    filters = None
    if question is not None:
        filters = [("benchmark", "=", question[0]), ("question_id", "=", question[1])]
    return read_side_table(
        root, PERPLEXITY_FILE, PERPLEXITY_SCHEMA, "perplexity table", columns, filters
    )


def merge_perplexity(root: Path, rows: list[dict]) -> None:
    """Add ``rows`` (PERPLEXITY_SCHEMA dicts), replacing rows with the same key."""
    merge_side_table(
        root, PERPLEXITY_FILE, PERPLEXITY_SCHEMA, PERPLEXITY_KEYS, read_perplexity, rows
    )
