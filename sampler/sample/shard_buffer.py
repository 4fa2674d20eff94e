"""Buffer finished questions' samples and write them as results shards.

A question's samples are always written together, in one shard: the folder holds
all of a (model, question)'s samples of one run or none, which is what lets a killed
run resume by question. The buffer flushes when it holds ``flush_rows`` samples or
``flush_seconds`` have passed since the last write, and at the end.

With ``--token-detail M`` the per-token entropies of samples 0 .. M-1 go to the
folder's token-detail side table (store.side_tables.token_detail), written just
before the samples shard that holds the same samples, so a sample never appears
without its detail.
"""

from __future__ import annotations

import time

import numpy as np
import pyarrow as pa

from sampler.sample.engines.base import SampleRecord, WorkItem
from sampler.store import SAMPLES_SCHEMA, TOKEN_DETAIL_DIR, TOKEN_DETAIL_SCHEMA, ResultsFolder

__all__ = ["TOKEN_DETAIL_DIR", "ShardBuffer"]

_COLUMNS = (
    "benchmark",
    "question_id",
    "model",
    "sample",
    "text",
    "n_tokens",
    "finish_reason",
    "cumulative_logprob",
    "token_entropy",
    "token_entropy_lower",
    "token_entropy_upper",
)


class ShardBuffer:
    """Collects finished questions of one model and appends them as shards."""

    def __init__(
        self,
        folder: ResultsFolder,
        model: str,
        flush_rows: int = 8192,
        flush_seconds: float = 60.0,
    ):
        self.folder = folder
        self.model = model
        self.flush_rows = flush_rows
        self.flush_seconds = flush_seconds
        self._columns: dict[str, list] = {c: [] for c in _COLUMNS}
        self._detail: dict[str, list] = {f.name: [] for f in TOKEN_DETAIL_SCHEMA}
        self._last_flush = time.monotonic()
        self.rows_written = 0
        self.shards_written = 0
        self.write_seconds = 0.0

    @property
    def buffered(self) -> int:
        return len(self._columns["sample"])

    def add(self, item: WorkItem, records: list[SampleRecord]) -> None:
        cols = self._columns
        for r in records:
            cols["benchmark"].append(item.benchmark)
            cols["question_id"].append(item.question_id)
            cols["model"].append(self.model)
            cols["sample"].append(r.sample)
            cols["text"].append(r.text)
            cols["n_tokens"].append(r.n_tokens)
            cols["finish_reason"].append(r.finish_reason)
            cols["cumulative_logprob"].append(r.cumulative_logprob)
            cols["token_entropy"].append(r.entropy.mean)
            cols["token_entropy_lower"].append(r.entropy.lower)
            cols["token_entropy_upper"].append(r.entropy.upper)
            if r.token_entropies is not None:
                self._detail["benchmark"].append(item.benchmark)
                self._detail["question_id"].append(item.question_id)
                self._detail["model"].append(self.model)
                self._detail["sample"].append(r.sample)
                self._detail["token_entropy"].append(r.token_entropies)
        if (
            self.buffered >= self.flush_rows
            or time.monotonic() - self._last_flush >= self.flush_seconds
        ):
            self.flush()

    def flush(self) -> None:
        started = self._last_flush = time.monotonic()
        if not self.buffered:
            return
        detail = self._detail_table() if self._detail["sample"] else None
        table = pa.table(
            {
                name: pa.array(values, type=SAMPLES_SCHEMA.field(name).type)
                for name, values in self._columns.items()
            }
        )
        self.folder.append_samples(table, token_detail_table=detail)
        self.rows_written += table.num_rows
        self.shards_written += 1
        self._columns = {c: [] for c in _COLUMNS}
        self.write_seconds += time.monotonic() - started

    def _detail_table(self) -> pa.Table:
        d = self._detail
        arrays = [
            pa.array(d["benchmark"], pa.string()),
            pa.array(d["question_id"], pa.string()),
            pa.array(d["model"], pa.string()),
            pa.array(d["sample"], pa.int32()),
            _float_lists(d["token_entropy"]),
        ]
        self._detail = {f.name: [] for f in TOKEN_DETAIL_SCHEMA}
        return pa.Table.from_arrays(arrays, schema=TOKEN_DETAIL_SCHEMA)


def _float_lists(arrays: list[np.ndarray]) -> pa.Array:
    lengths = np.fromiter((len(a) for a in arrays), dtype=np.int32, count=len(arrays))
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int32)
    values = np.concatenate(arrays).astype(np.float32) if arrays else np.zeros(0, np.float32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, pa.float32()))
