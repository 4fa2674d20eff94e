"""verdict_counts-shaped tables for the support-analysis tests, built from plain rows."""

from __future__ import annotations

import pyarrow as pa


def counts_table(rows: list[tuple[str, str, str, int, int]], *, with_n: bool = True) -> pa.Table:
    """verdict_counts-shaped table from (benchmark, qid, model, n_verified, n_correct);
    ``with_n`` adds the ``n`` column (samples drawn) equal to ``n_verified``."""
    n_column = {"n": pa.array([r[3] for r in rows], pa.int64())} if with_n else {}
    return pa.table(
        {
            "benchmark": [r[0] for r in rows],
            "question_id": [r[1] for r in rows],
            "model": [r[2] for r in rows],
            **n_column,
            "n_verified": pa.array([r[3] for r in rows], pa.int64()),
            "n_correct": pa.array([r[4] for r in rows], pa.int64()),
        }
    )
