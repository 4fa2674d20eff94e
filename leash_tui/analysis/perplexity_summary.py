"""Perplexity of reference traces by support category (the paper's Table 2). Pure pyarrow.

A trace scored under a model has a mean negative log-likelihood per token (NLL); its
perplexity is exp(NLL). For a base/target pair and a scope, traces are grouped by their
question's category (P/E/S/O of that pair) and by source, and each model's perplexity
is the mean over the group's traces of exp(NLL): only traces scored under both models
(and not empty) count, so both numbers average the same traces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.support import scope_tables
from leash_tui.analysis.support_names import CATEGORIES


def _model_nll(scores: pa.Table, model: str) -> dict[tuple[str, str, str, str], float]:
    mine = scores.filter(pc.equal(scores.column("model"), model))
    out = {}
    for r in mine.select(["benchmark", "question_id", "source", "trace", "mean_nll"]).to_pylist():
        if r["mean_nll"] is not None:
            out[(r["benchmark"], r["question_id"], r["source"], r["trace"])] = r["mean_nll"]
    return out


def perplexity_rows(
    scores: pa.Table,
    questions: pa.Table,
    domains: Mapping[str, str],
    base: str,
    target: str,
) -> list[dict[str, Any]]:
    """Rows (scope, name, base, target, category, source, n_traces, perplexity {base, target})
    per benchmark, domain and overall (``questions`` = compare_questions of the pair)."""
    nll_b, nll_t = _model_nll(scores, base), _model_nll(scores, target)
    both = sorted(set(nll_b) & set(nll_t))
    if not both:
        return []
    rows = []
    for scope, name, part in scope_tables(questions, domains):
        category = dict(
            zip(
                zip(
                    part.column("benchmark").to_pylist(),
                    part.column("question_id").to_pylist(),
                    strict=True,
                ),
                part.column("category").to_pylist(),
                strict=True,
            )
        )
        groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for key in both:
            cat = category.get(key[:2])
            if cat is not None:
                groups.setdefault((cat, key[2]), []).append((nll_b[key], nll_t[key]))
        for cat in CATEGORIES:
            for source in sorted(s for c, s in groups if c == cat):
                pairs = groups[(cat, source)]
                rows.append(
                    {
                        "scope": scope,
                        "name": name,
                        "base": base,
                        "target": target,
                        "category": cat,
                        "source": source,
                        "n_traces": len(pairs),
                        "perplexity": {
                            "base": sum(math.exp(b) for b, _ in pairs) / len(pairs),
                            "target": sum(math.exp(t) for _, t in pairs) / len(pairs),
                        },
                    }
                )
    return rows
