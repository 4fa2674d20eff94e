"""``analysis.adaptive_support``: an adaptive folder's support equals the full run's, exactly.

Random verdict matrices stand for a full run (K samples per question and model); the
adaptive run keeps each (model, question)'s samples up to the end of the round holding
its first success. At k = K and at every budget above N its categories must be the
full run's exact ones; at and below N its pass@k is the estimator over the first N.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from leash_tui.analysis.adaptive_support import (
    adaptive_curve,
    adaptive_questions,
    adaptive_row,
)
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import compare_questions, summary_row
from sampler.sample.adaptive import budget_rounds
from tests.support.counts_tables import counts_table

K, N, QUESTIONS = 16, 4, 40
MODELS = ("base", "rlvr")


def outcomes(seed: int) -> dict[str, np.ndarray]:
    """model -> (questions x K) verdicts, success rates from 0 to 0.5, some never correct."""
    rng = np.random.default_rng(seed)
    out = {}
    for model in MODELS:
        rates = rng.choice([0.0, 0.0, 0.02, 0.08, 0.2, 0.5], size=QUESTIONS)
        out[model] = rng.random((QUESTIONS, K)) < rates[:, None]
    return out


def drawn(row: np.ndarray) -> int:
    """Samples an adaptive run draws for one verdict row."""
    hits = np.flatnonzero(row)
    if not hits.size:
        return K
    return next(b for b in budget_rounds(N, K) if b > hits[0])


def first_table(verdicts: dict[str, np.ndarray], keep: bool = True) -> pa.Table:
    """store.first_success rows of the adaptive run (``keep`` False: one key left open)."""
    rows = []
    for model, matrix in verdicts.items():
        for q, row in enumerate(matrix):
            d = drawn(row)
            if not keep and model == "rlvr" and q == 0 and not row.any():
                d = N  # killed after the first round
            hits = np.flatnonzero(row[:d])
            rows.append(
                {
                    "benchmark": "b",
                    "question_id": f"q{q:02d}",
                    "model": model,
                    "n": d,
                    "first_success": int(hits[0]) if hits.size else None,
                    "verified_prefix": d,
                    "n_first": N,
                    "c_first": int(row[:N].sum()),
                }
            )
    return pa.Table.from_pylist(rows)


def full_counts(verdicts: dict[str, np.ndarray], upto: int = K) -> pa.Table:
    rows = [
        ("b", f"q{q:02d}", model, upto, int(row[:upto].sum()))
        for model, matrix in verdicts.items()
        for q, row in enumerate(matrix)
    ]
    return counts_table(rows, with_n=False)


@pytest.mark.parametrize("seed", range(5))
def test_categories_at_k_and_above_n_are_the_full_runs(seed):
    verdicts = outcomes(seed)
    table = first_table(verdicts)
    for budget in (6, 8, 11, K):
        adaptive, undecided = adaptive_questions(table, "base", "rlvr", budget, N)
        assert undecided == []
        # the full run's exact categories at this budget: its first `budget` samples
        full = compare_questions(full_counts(verdicts, budget), "base", "rlvr", budget)
        assert adaptive.column("category").to_pylist() == full.column("category").to_pylist()
        a_row = summary_row(adaptive, "overall", "overall", "base", "rlvr", budget)
        f_row = summary_row(full, "overall", "overall", "base", "rlvr", budget)
        assert {c: a_row[c] for c in "PESO"} == {c: f_row[c] for c in "PESO"}
        assert all(isinstance(a_row[c], int) for c in "PESO")


def test_at_or_below_n_pass_at_k_is_the_estimator_over_the_first_n():
    verdicts = outcomes(7)
    table = first_table(verdicts)
    for budget in (1, 2, N):
        adaptive, _ = adaptive_questions(table, "base", "rlvr", budget, N)
        c = verdicts["rlvr"][:, :N].sum(axis=1)
        expected = pass_at_k(np.full(QUESTIONS, N), c, budget)
        assert np.allclose(adaptive.column("passk_target").to_numpy(), expected)


def test_summary_has_no_pass_at_k_above_n_and_pass1_over_the_first_n():
    verdicts = outcomes(3)
    adaptive, _ = adaptive_questions(first_table(verdicts), "base", "rlvr", K, N)
    row = adaptive_row(summary_row(adaptive, "overall", "overall", "base", "rlvr", K), adaptive, N)
    assert row["pass@k"] == {"base": None, "target": None}
    assert row["pass@1"]["base"] == pytest.approx(verdicts["base"][:, :N].mean())
    at_n = adaptive_questions(first_table(verdicts), "base", "rlvr", N, N)[0]
    row_n = adaptive_row(summary_row(at_n, "overall", "overall", "base", "rlvr", N), at_n, N)
    assert row_n["pass@k"]["target"] == pytest.approx(verdicts["rlvr"][:, :N].any(axis=1).mean())


def test_curve_is_exact_above_n_and_has_no_pass_at_k_there():
    verdicts = outcomes(11)
    adaptive, _ = adaptive_questions(first_table(verdicts), "base", "rlvr", K, N)
    curve = adaptive_curve(adaptive, N).to_pylist()
    assert [p["k"] for p in curve] == [1, 2, 4, 8, 16]
    for point in curve:
        if point["k"] <= N:
            assert point["passk_base"] is not None
            continue
        assert point["passk_base"] is None and point["passk_target"] is None
        b = verdicts["base"][:, : point["k"]].any(axis=1)
        t = verdicts["rlvr"][:, : point["k"]].any(axis=1)
        assert point["P"] == float((b & t).sum()) and point["S"] == float((b & ~t).sum())
        assert point["E"] == float((~b & t).sum()) and point["O"] == float((~b & ~t).sum())


def test_a_question_whose_state_needs_samples_not_drawn_is_named_not_guessed():
    verdicts = outcomes(2)
    verdicts["rlvr"][0] = False  # never correct: must reach K to be out of support
    adaptive, undecided = adaptive_questions(
        first_table(verdicts, keep=False), "base", "rlvr", K, N
    )
    assert undecided == ["b/q00"]
    assert adaptive.column("category")[0].as_py() is None
    # at the budget it did reach, it is decided (out of support)
    _, undecided = adaptive_questions(first_table(verdicts, keep=False), "base", "rlvr", N, N)
    assert undecided == []
