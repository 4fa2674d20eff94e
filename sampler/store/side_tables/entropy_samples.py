"""The first samples of each group, by sample index, with their answer class: what answer
entropy at a fixed N needs (docs/support-dynamics.md, "Entropies").

Answer entropy is measured over the first N samples of a question (by sample index, N =
32 by default), never over all of them: the plug-in entropy grows with the number of
samples. A table of, per (benchmark, question_id, model) group, its ``keep`` verified
samples of smallest index is enough for any N <= keep; the tables of two chunks or shards
merge by keeping the ``keep`` smallest indices of each group again, so footer summaries
and scans combine like the other statistics of store.key_stats.

Columns: ``group`` (int64), ``sample`` (int64), ``kind`` (int8: KIND_CORRECT, KIND_NA or
KIND_ANSWER) and ``key`` (store.answer_classes key, null unless KIND_ANSWER).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

#: N of the paper's avg@32 protocol: the default of ``leash report --entropy-samples`` and
#: of the explorer, and how many samples per group footer summaries keep
DEFAULT_ENTROPY_SAMPLES = 32
#: answer class kinds (the same numbers as store.key_stats)
KIND_CORRECT, KIND_NA, KIND_ANSWER = 0, 1, 2


def empty_first() -> pa.Table:
    return pa.table(
        {
            "group": pa.array([], pa.int64()),
            "sample": pa.array([], pa.int64()),
            "kind": pa.array([], pa.int8()),
            "key": pa.array([], pa.string()),
        }
    )


def _first_positions(group: np.ndarray, sample: np.ndarray, keep: int) -> np.ndarray:
    """Indices of the ``keep`` smallest samples of every group, ordered by (group, sample)."""
    if group.size == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((sample, group))
    ordered = group[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    lengths = np.diff(np.r_[starts, ordered.size])
    rank = np.arange(ordered.size) - np.repeat(starts, lengths)
    return order[rank < keep]


def first_samples(
    group: np.ndarray,
    sample: np.ndarray,
    kind: np.ndarray,
    key: pa.Array,
    keep: int = DEFAULT_ENTROPY_SAMPLES,
) -> pa.Table:
    """The table of the module docstring from one row per verified sample."""
    picked = _first_positions(group.astype(np.int64), sample.astype(np.int64), keep)
    index = pa.array(picked, pa.int64())
    return pa.table(
        {
            "group": pa.array(group[picked].astype(np.int64)),
            "sample": pa.array(sample[picked].astype(np.int64)),
            "kind": pa.array(kind[picked].astype(np.int8)),
            "key": key.take(index),
        }
    )


def merge_first(tables: Sequence[pa.Table], keep: int) -> pa.Table:
    """Tables whose ``group`` already refers to one key order, cut to ``keep`` per group."""
    tables = [t for t in tables if t.num_rows]
    if not tables:
        return empty_first()
    table = pa.concat_tables(tables)
    group = table.column("group").to_numpy()
    sample = table.column("sample").to_numpy()
    return table.take(pa.array(_first_positions(group, sample, keep), pa.int64()))
