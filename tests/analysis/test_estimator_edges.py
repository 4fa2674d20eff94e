"""The edges of the estimators that a wrong number would hide behind: a single (c, n) pair,
the range checks, the losing side's bound of shrunk and expanded questions (scipy for
every value; these tests kill mutants that the broad tests let live)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from scipy import stats

from leash_tui.analysis.estimators import (
    at_least,
    binom_cdf,
    binom_upper_bound,
    g_pass_at_k,
    hypergeom_tail,
    pass_hat_k,
    support_probability,
)
from leash_tui.analysis.support import compare_questions


def test_a_single_pair_has_its_clopper_pearson_bound():
    # with the empty-input check off by one, one (c, n) pair collapsed to about 0
    assert float(binom_upper_bound(3, 10)) == pytest.approx(0.6066, abs=1e-4)
    assert float(binom_upper_bound(3, 10)) == pytest.approx(stats.beta.ppf(0.95, 4, 7), rel=1e-9)
    assert float(binom_upper_bound(np.array([3]), np.array([10]))[0]) == pytest.approx(
        0.6066, abs=1e-4
    )
    assert float(binom_upper_bound(1, 2, 0.9)) == pytest.approx(stats.beta.ppf(0.9, 2, 1), rel=1e-9)
    assert float(binom_upper_bound(0, 1)) == pytest.approx(0.95)
    assert float(binom_upper_bound(5, 5)) == 1.0


def test_binomial_cdf_of_one_pair_is_scipys():
    for c, n, p in ((3, 10, 0.3), (0, 4, 0.5), (7, 7, 0.2), (1, 50, 0.01)):
        ours = binom_cdf(np.array([c]), np.array([n]), np.array([p]))
        assert ours == pytest.approx([stats.binom.cdf(c, n, p)], rel=1e-9)
    assert binom_cdf(np.array([-1]), np.array([4]), np.array([0.5])).tolist() == [0.0]
    assert binom_cdf(np.array([], dtype=int), np.array([], dtype=int), np.array([])).size == 0


@pytest.mark.parametrize(("c", "n"), [(-1, 5), (6, 5), (0, 0)])
def test_counts_out_of_range_are_refused_by_the_bound(c, n):
    with pytest.raises(ValueError, match=r"^counts must satisfy 0 <= c <= n, n >= 1$"):
        binom_upper_bound(c, n)


@pytest.mark.parametrize("level", [0.0, 1.0, -0.5, 1.5])
def test_a_level_outside_zero_one_is_refused(level):
    with pytest.raises(ValueError, match=r"^the confidence level must be in \(0, 1\)$"):
        binom_upper_bound(3, 10, level)


@pytest.mark.parametrize("tau", [-0.01, 1.01, 2.0])
def test_a_threshold_outside_zero_one_is_refused(tau):
    with pytest.raises(ValueError, match=r"^the support threshold must be in \[0, 1\]$"):
        support_probability(10, 3, 4, tau)
    with pytest.raises(ValueError, match=r"^tau must be in \[0, 1\]$"):
        g_pass_at_k(10, 3, 4, tau)


def test_the_edges_of_the_range_are_accepted():
    assert float(support_probability(10, 10, 10, 1.0)) == 1.0
    assert float(g_pass_at_k(10, 3, 4, 1.0)) == pytest.approx(0.0)
    assert float(pass_hat_k(10, 10, 10)) == 1.0
    assert float(g_pass_at_k(10, 3, 10, 0.3)) == 1.0  # ceil(0.3 * 10) = 3, not 4


@pytest.mark.parametrize(
    ("n", "c", "k", "match"),
    [(10, -1, 4, "^correct counts must satisfy 0 <= c <= n$"),
     (10, 11, 4, "^correct counts must satisfy 0 <= c <= n$"), (10, 3, 0, "^k must be at least 1$"),
     (10, 3, 11, r"^k = 11 is larger than n = 10 \(samples drawn\)$")],
)  # fmt: skip
def test_the_tail_refuses_impossible_counts(n, c, k, match):
    with pytest.raises(ValueError, match=match):
        hypergeom_tail(n, c, k, 1)


def test_the_tail_matches_scipy_at_every_lower_limit():
    n, c, k = 20, 7, 9
    for m in range(-1, 11):
        expected = 1.0 if m <= 0 else stats.hypergeom.sf(m - 1, n, c, k)
        assert float(hypergeom_tail(n, c, k, m)) == pytest.approx(expected, rel=1e-9, abs=1e-15)
    # lower limit below the smallest possible X (k - (n - c) = 2 of 15 drawn from 17 with 10 c)
    assert float(hypergeom_tail(17, 10, 15, 2)) == pytest.approx(1.0)
    assert float(hypergeom_tail(17, 10, 15, 9)) == pytest.approx(stats.hypergeom.sf(8, 17, 10, 15))


def test_at_least_rounds_the_product_not_the_threshold():
    assert at_least(0.3, np.array([10, 7, 1])).tolist() == [3, 3, 1]
    assert at_least(0.0, np.array([5])).tolist() == [0]
    assert at_least(1.0, np.array([5])).tolist() == [5]


def _counts(rows):
    bench, qid, model, n, c = zip(*rows, strict=True)
    return pa.table(
        {
            "benchmark": list(bench), "question_id": list(qid), "model": list(model),
            "n_verified": list(n), "n_correct": list(c),
        }
    )  # fmt: skip


def test_the_losing_sides_bound_of_shrunk_and_expanded_questions():
    counts = _counts(
        [
            ("b", "s", "base", 8, 3), ("b", "s", "rl", 10, 0),  # S: the target lost it
            ("b", "e", "base", 12, 0), ("b", "e", "rl", 8, 5),  # E: the base never had it
            ("b", "p", "base", 8, 4), ("b", "p", "rl", 8, 2),  # P: no bound
        ]
    )  # fmt: skip
    questions = compare_questions(counts, "base", "rl")
    by_id = dict(zip(questions.column("question_id").to_pylist(),
                     questions.column("losing_upper").to_pylist(), strict=True))  # fmt: skip
    assert by_id["s"] == pytest.approx(1 - 0.05 ** (1 / 10), rel=1e-9)  # target's 0 of 10
    assert by_id["e"] == pytest.approx(1 - 0.05 ** (1 / 12), rel=1e-9)  # base's 0 of 12
    assert by_id["p"] is None


@pytest.mark.parametrize("which", range(4))
def test_the_tail_broadcasts_any_one_array_argument(which):
    # each of n, c, k, m may be the one array among scalars; the result has its shape
    values = [np.array([12, 20, 30]), np.array([3, 5, 7]), np.array([4, 6, 9]), np.array([1, 2, 3])]
    args = [20, 5, 6, 2]
    args[which] = values[which]
    ours = hypergeom_tail(*args)
    assert ours.shape == (3,)
    n, c, k, m = np.broadcast_arrays(*args)
    expected = [
        stats.hypergeom.sf(mm - 1, nn, cc, kk) for nn, cc, kk, mm in zip(n, c, k, m, strict=True)
    ]
    assert ours == pytest.approx(expected, rel=1e-9)


def test_the_tail_keeps_the_shape_of_its_arguments():
    grid = hypergeom_tail(np.full((2, 3), 10), np.array([[0, 3, 5], [2, 4, 10]]), 4, 1)
    assert grid.shape == (2, 3)
    assert grid[1, 2] == 1.0 and grid[0, 0] == 0.0
    assert np.shape(hypergeom_tail(10, 3, 4, 1)) == ()
    assert np.shape(binom_upper_bound(np.full((2, 2), 3), 10)) == (2, 2)


def test_the_refusal_names_the_first_budget_above_its_samples():
    with pytest.raises(ValueError, match=r"^k = 11 is larger than n = 10 "):
        g_pass_at_k(np.array([10, 10]), np.array([3, 3]), np.array([10, 11]), 0.5)
