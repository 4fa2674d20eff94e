"""The beta-binomial forecast of pass@K: the true curve of simulated data, the edge cases."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from leash_tui.analysis.forecast import fit_beta, forecast_pass_at
from leash_tui.analysis.pass_at_k import pass_at_k


def _truth(a, b, k):
    return 1 - np.exp(special.betaln(a, b + k) - special.betaln(a, b))


def test_forecast_recovers_the_beta_it_was_drawn_from():
    rng = np.random.default_rng(0)
    a, b = 0.3, 2.5
    p = rng.beta(a, b, 20_000)
    n = np.full(p.size, 64)
    c = rng.binomial(n, p)
    fit = fit_beta(n, c)
    assert fit.alpha == pytest.approx(a, rel=0.1) and fit.beta == pytest.approx(b, rel=0.1)
    for k in (64, 1024, 8192):
        assert forecast_pass_at(n, c, k) == pytest.approx(_truth(a, b, k), abs=0.02)
    # within the samples drawn, the forecast agrees with the unbiased estimate
    assert forecast_pass_at(n, c, 16) == pytest.approx(pass_at_k(n, c, 16).mean(), abs=0.01)


def test_forecast_grows_with_k_and_stays_a_probability():
    n = np.array([8, 8, 8, 8, 8])
    c = np.array([0, 0, 1, 4, 8])
    values = [forecast_pass_at(n, c, k) for k in (1, 8, 64, 1024, 10**6)]
    assert values == sorted(values)
    assert 0 <= values[0] and values[-1] <= 1


def test_degenerate_counts():
    assert forecast_pass_at(np.array([4, 4]), np.array([0, 0]), 100) == 0.0
    assert forecast_pass_at(np.array([4, 4]), np.array([4, 4]), 100) == 1.0
    same = forecast_pass_at(np.array([100, 100]), np.array([50, 50]), 3)
    assert same == pytest.approx(1 - 0.5**3)
    with pytest.raises(ValueError):
        fit_beta(np.array([]), np.array([]))
