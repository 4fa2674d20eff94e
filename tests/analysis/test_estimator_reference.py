"""The estimators and the losing side's bound against scipy, and their refusals of bad input.

Written so that a wrong number fails (mutation testing of analysis/estimators.py and
support.py, README "Testing"): a single (c, n) pair's Clopper–Pearson bound, the bound
of the losing side of every shrunk and expanded question, and each check of c within
0..n, the level within (0, 1) and τ within [0, 1] are asserted one by one.
"""

from __future__ import annotations

import numpy as np
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
from tests.support.counts_tables import counts_table


def _cp_upper(c: int, n: int, level: float = 0.95) -> float:
    return 1.0 if c == n else float(stats.beta.ppf(level, c + 1, n - c))


def test_a_single_pair_has_its_clopper_pearson_bound():
    assert float(binom_upper_bound(3, 10)) == pytest.approx(0.6066, abs=1e-4)
    assert float(binom_upper_bound(3, 10)) == pytest.approx(_cp_upper(3, 10), abs=1e-9)
    assert np.shape(binom_upper_bound(3, 10)) == ()
    assert binom_upper_bound([3], [10])[0] == pytest.approx(_cp_upper(3, 10), abs=1e-9)
    assert float(binom_upper_bound(0, 8192)) == pytest.approx(1 - 0.05 ** (1 / 8192), rel=1e-12)
    assert float(binom_upper_bound(7, 7)) == 1.0


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_bounds_match_scipy_over_a_grid(level):
    c = np.array([0, 1, 1, 2, 5, 9, 10, 0, 17, 63, 64, 250])
    n = np.array([1, 1, 2, 3, 9, 10, 10, 64, 64, 64, 64, 8192])
    want = [_cp_upper(ci, ni, level) for ci, ni in zip(c, n, strict=True)]
    assert binom_upper_bound(c, n, level) == pytest.approx(want, abs=1e-9)
    grid = binom_upper_bound(c.reshape(3, 4), n.reshape(3, 4), level)
    assert grid.shape == (3, 4) and grid.ravel() == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(("c", "n"), [(-1, 5), (6, 5), (0, 0), ([1, -1], [3, 3]), ([1, 4], [3, 3])])
def test_counts_outside_0_to_n_are_refused(c, n):
    with pytest.raises(ValueError, match="0 <= c <= n"):
        binom_upper_bound(c, n)


@pytest.mark.parametrize("level", [0.0, 1.0, -0.1, 1.5])
def test_a_level_outside_0_1_is_refused(level):
    with pytest.raises(ValueError, match=r"level must be in \(0, 1\)"):
        binom_upper_bound(1, 4, level)


def test_hypergeometric_tail_matches_scipy():
    for n, c, k in [(10, 3, 4), (16, 0, 8), (16, 16, 8), (20, 7, 20), (40, 13, 9), (8, 5, 1)]:
        for m in range(0, k + 2):
            want = float(stats.hypergeom.sf(m - 1, n, c, k))
            assert float(hypergeom_tail(n, c, k, m)) == pytest.approx(want, abs=1e-12), (n, c, k, m)
    many = hypergeom_tail([10, 40, 40], [3, 13, 20], [4, 9, 9], [2, 3, 5])
    want = [
        stats.hypergeom.sf(m - 1, n, c, k)
        for n, c, k, m in [(10, 3, 4, 2), (40, 13, 9, 3), (40, 20, 9, 5)]
    ]
    assert many == pytest.approx(want, abs=1e-12)


def test_g_pass_and_pass_hat_match_scipy_and_refuse_tau_outside_0_1():
    n, c, k = np.array([16, 16, 16, 30]), np.array([0, 5, 12, 30]), np.array([4, 8, 8, 10])
    for tau in (0.0, 0.25, 0.5, 0.75, 1.0):
        m = np.maximum(1, np.ceil(tau * k - 1e-9)).astype(int)
        want = [
            stats.hypergeom.sf(mi - 1, ni, ci, ki)
            for ni, ci, ki, mi in zip(n, c, k, m, strict=True)
        ]
        assert g_pass_at_k(n, c, k, tau) == pytest.approx(want, abs=1e-12)
        assert support_probability(n, c, k, tau) == pytest.approx(want, abs=1e-12)
    assert pass_hat_k(16, 5, 3) == pytest.approx(stats.hypergeom.pmf(3, 16, 5, 3), abs=1e-12)
    for bad in (1.0000001, 1.5, -0.01):
        with pytest.raises(ValueError, match="tau"):
            g_pass_at_k(16, 5, 4, bad)
        with pytest.raises(ValueError, match="threshold"):
            support_probability(16, 5, 4, bad)


@pytest.mark.parametrize(
    ("n", "c", "k", "message"),
    [
        (8, 9, 2, "0 <= c <= n"),
        (8, -1, 2, "0 <= c <= n"),
        (8, 3, 0, "at least 1"),
        (8, 3, 9, "larger than n = 8"),
    ],
)
def test_estimators_refuse_impossible_counts(n, c, k, message):
    with pytest.raises(ValueError, match=message):
        g_pass_at_k(n, c, k, 0.5)


def test_binomial_cdf_matches_scipy():
    c, n, p = (
        np.array([0, 3, 10, 2, -1]),
        np.array([5, 10, 10, 40, 4]),
        np.array([0.3, 0.5, 0.9, 0.01, 0.5]),
    )
    want = stats.binom.cdf(c, n, p)
    assert binom_cdf(c, n, p) == pytest.approx(want, abs=1e-12)
    assert binom_cdf(np.array([-1]), np.array([3]), np.array([0.5]))[0] == 0.0
    assert at_least(0.3, np.array([10]))[0] == 3 and at_least(0.31, np.array([10]))[0] == 4


def test_the_losing_side_of_shrunk_and_expanded_questions_carries_its_bound():
    rows = [
        ("b", "shrunk", "base", 10, 3), ("b", "shrunk", "target", 10, 0),
        ("b", "shrunk2", "base", 10, 1), ("b", "shrunk2", "target", 12, 0),
        ("b", "expanded", "base", 8, 0), ("b", "expanded", "target", 8, 2),
        ("b", "both", "base", 10, 5), ("b", "both", "target", 10, 5),
        ("b", "none", "base", 10, 0), ("b", "none", "target", 10, 0),
    ]  # fmt: skip
    table = compare_questions(counts_table(rows), "base", "target").to_pylist()
    by_id = {r["question_id"]: r for r in table}
    assert by_id["shrunk"]["category"] == "S" and by_id["expanded"]["category"] == "E"
    # the target's 0 of 10 (S), the base's 0 of 8 (E): 1 − 0.05^(1/n)
    assert by_id["shrunk"]["losing_upper"] == pytest.approx(1 - 0.05 ** (1 / 10), rel=1e-12)
    assert by_id["shrunk2"]["losing_upper"] == pytest.approx(1 - 0.05 ** (1 / 12), rel=1e-12)
    assert by_id["expanded"]["losing_upper"] == pytest.approx(1 - 0.05 ** (1 / 8), rel=1e-12)
    assert by_id["both"]["losing_upper"] is None and by_id["none"]["losing_upper"] is None


def test_support_by_default_is_pass_at_k():
    from leash_tui.analysis.pass_at_k import pass_at_k

    n, c, k = np.array([16, 16, 30]), np.array([1, 5, 0]), np.array([4, 8, 10])
    assert support_probability(n, c, k) == pytest.approx(pass_at_k(n, c, k), abs=1e-12)
