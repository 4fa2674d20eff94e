"""Which token entropy a report shows for a model: exact (teacher forcing) or top-k.

Sampling stores each sample's top-k part of the token entropy (``token_entropy``,
with bounds); ``leash entropy`` adds the exact value over the full vocabulary
(``token_entropy_exact``) for the first N samples of each question. A model that has
exact values anywhere is reported with them only: its token entropy is then the mean
over the samples that have the exact value, so the two kinds are never mixed in one
number. Pure pyarrow, no I/O.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

EXACT, TOP_K = "exact", "top-k"
EXACT_STATS_COLUMNS = ("benchmark", "question_id", "model", "exact_sum", "exact_n")


def exact_stats(samples: pa.Table) -> pa.Table:
    """Per (benchmark, question_id, model): sum and count of non-null exact entropies.

    ``samples`` has benchmark, question_id, model and token_entropy_exact columns.
    """
    valid = samples.filter(pc.is_valid(samples.column("token_entropy_exact")))
    grouped = valid.group_by(["benchmark", "question_id", "model"]).aggregate(
        [("token_entropy_exact", "sum"), ("token_entropy_exact", "count")]
    )
    return pa.table(
        {
            "benchmark": grouped.column("benchmark").cast(pa.string()),
            "question_id": grouped.column("question_id").cast(pa.string()),
            "model": grouped.column("model").cast(pa.string()),
            "exact_sum": grouped.column("token_entropy_exact_sum").cast(pa.float64()),
            "exact_n": grouped.column("token_entropy_exact_count").cast(pa.int64()),
        }
    )


def prefer_exact(
    stats: pa.Table, exact: pa.Table | None, model: str
) -> tuple[pa.Table, str | None]:
    """(per-question stats of ``model`` to report, kind: "exact", "top-k" or None).

    ``stats`` are one model's rows of answer_stats (token_entropy_sum, token_entropy_n
    per question). When ``exact`` holds values of ``model``, those two columns are
    replaced by the exact sums and counts (0 for questions without exact values).
    """
    mine = None
    if exact is not None and exact.num_rows:
        mine = exact.filter(pc.equal(exact.column("model"), model)).drop_columns(["model"])
    if mine is None or mine.num_rows == 0:
        has_top_k = stats.num_rows and (pc.sum(stats.column("token_entropy_n")).as_py() or 0) > 0
        return stats, TOP_K if has_top_k else None
    joined = stats.join(mine, keys=["benchmark", "question_id"], join_type="left outer")
    out = joined.drop_columns(["token_entropy_sum", "token_entropy_n", "exact_sum", "exact_n"])
    out = out.append_column("token_entropy_sum", pc.fill_null(joined.column("exact_sum"), 0.0))
    out = out.append_column(
        "token_entropy_n", pc.fill_null(joined.column("exact_n"), 0).cast(pa.int64())
    )
    return out, EXACT
