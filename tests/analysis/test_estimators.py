"""G-Pass@k, pass^k, support at a threshold and the Clopper–Pearson bound, against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from leash_tui.analysis.estimators import (
    binom_upper_bound,
    g_pass_at_k,
    hypergeom_tail,
    pass_hat_k,
    support_probability,
)
from leash_tui.analysis.pass_at_k import pass_at_k

N = np.array([10, 10, 8, 64, 20, 7, 300])
C = np.array([3, 0, 8, 17, 7, 6, 150])
K = np.array([4, 5, 3, 30, 20, 7, 128])


@pytest.mark.parametrize("tau", [0.0, 0.25, 0.3, 0.5, 1.0])
def test_g_pass_is_scipy_hypergeometric_tail(tau):
    ours = g_pass_at_k(N, C, K, tau)
    need = [max(1, math.ceil(round(tau * k, 9))) for k in K]
    ref = [stats.hypergeom.sf(m - 1, n, c, k) for n, c, k, m in zip(N, C, K, need, strict=True)]
    assert ours == pytest.approx(ref, rel=1e-9, abs=1e-12)


def _opencompass_g_pass(n: int, c: int, k: int, tau: float) -> float:
    """OpenCompass's compute_g_pass_at_k, written out: sum of the hypergeometric pmf from
    max(1, ceil(tau k)) up to min(c, k) (scipy, independent of leash's log-factorials)."""
    m = max(1, math.ceil(round(tau * k, 9)))
    return float(sum(stats.hypergeom.pmf(j, n, c, k) for j in range(m, min(c, k) + 1)))


def test_g_pass_at_zero_threshold_is_pass_at_k_not_one():
    # a question with no correct sample has G-Pass@k_0 = 0 (it was 1.0 for every question)
    assert float(g_pass_at_k(10, 0, 4, 0.0)) == 0.0
    rng = np.random.default_rng(7)
    n = rng.integers(1, 40, 2000)
    c = rng.integers(0, n + 1)
    k = rng.integers(1, n + 1)
    assert g_pass_at_k(n, c, k, 0.0) == pytest.approx(pass_at_k(n, c, k), rel=1e-9, abs=1e-12)
    for tau in (0.0, 0.1, 0.5, 0.75, 1.0):
        ref = [
            _opencompass_g_pass(*map(int, x), tau)
            for x in zip(n[:300], c[:300], k[:300], strict=True)
        ]
        assert g_pass_at_k(n[:300], c[:300], k[:300], tau) == pytest.approx(
            ref, rel=1e-9, abs=1e-12
        )


def test_pass_hat_k_is_all_correct():
    ref = [math.comb(c, k) / math.comb(n, k) for n, c, k in zip(N, C, K, strict=True)]
    assert pass_hat_k(N, C, K) == pytest.approx(ref, rel=1e-9, abs=1e-15)


def test_support_at_zero_threshold_is_pass_at_k():
    assert support_probability(N, C, K, 0.0) == pytest.approx(pass_at_k(N, C, K), rel=1e-9)


def test_support_at_full_budget_is_share_at_least_tau():
    n = np.array([10, 10, 10, 10])
    c = np.array([0, 2, 3, 9])
    assert support_probability(n, c, n, 0.3).tolist() == [0.0, 0.0, 1.0, 1.0]
    assert support_probability(n, c, n, 0.0).tolist() == [0.0, 1.0, 1.0, 1.0]


def test_tail_lower_limit_and_scalars():
    assert hypergeom_tail(10, 3, 4, 0) == 1.0
    assert hypergeom_tail(10, 3, 4, 4) == 0.0
    assert float(g_pass_at_k(10, 3, 4, 0.5)) == pytest.approx(stats.hypergeom.sf(1, 10, 3, 4))


def test_budget_above_the_samples_is_refused():
    with pytest.raises(ValueError, match="larger than n"):
        g_pass_at_k(np.array([4]), np.array([1]), np.array([5]), 0.5)
    with pytest.raises(ValueError, match="tau"):
        g_pass_at_k(4, 1, 2, 1.5)


def test_clopper_pearson_upper_bound_is_scipy_beta_quantile():
    c = np.array([0, 0, 1, 5, 40, 8191, 8192])
    n = np.array([8, 8192, 10, 50, 100, 8192, 8192])
    ref = [1.0 if k == m else stats.beta.ppf(0.95, k + 1, m - k) for k, m in zip(c, n, strict=True)]
    assert binom_upper_bound(c, n, 0.95) == pytest.approx(ref, rel=1e-7)
    assert float(binom_upper_bound(0, 8192)) == pytest.approx(3.6562e-4, rel=1e-4)
    assert float(binom_upper_bound(0, 8192, 0.99)) > float(binom_upper_bound(0, 8192, 0.95))
