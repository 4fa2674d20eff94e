"""The maximum-likelihood (zero-inflated) beta-binomial fits and the forecast built on them,
against scipy's beta-binomial and optimiser and against the curve the data was drawn from."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, special, stats

from leash_tui.analysis.forecast import ONE_RATE, forecast
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.rate_fits import choose, fit_rates, lgamma

A, B = 0.3, 2.5


def _population(questions: int, never: float, n: int = 64, seed: int = 0):
    rng = np.random.default_rng(seed)
    p = rng.beta(A, B, questions)
    p[: int(never * questions)] = 0.0
    ns = np.full(questions, n)
    return ns, rng.binomial(ns, p)


def _truth(k: int, never: float) -> float:
    return (1 - never) * (1 - math.exp(special.betaln(A, B + k) - special.betaln(A, B)))


def test_lgamma_is_scipys():
    x = np.array([1e-8, 1e-3, 0.3, 1.0, 2.5, 9.99, 10.0, 77.7, 8192.5, 1e7])
    assert lgamma(x) == pytest.approx(special.gammaln(x), rel=1e-12, abs=1e-11)


def _scipy_loglik(n, c, a, b, pi=0.0):
    pmf = stats.betabinom.pmf(c, n, a, b)
    pmf = (1 - pi) * pmf + pi * (c == 0)
    # leash's likelihood leaves out log C(n, c), the same for every fit
    return float(np.sum(np.log(pmf) - np.log(special.comb(n, c))))


@pytest.mark.parametrize("zero_inflated", [False, True])
def test_the_fit_is_scipys_maximum_likelihood(zero_inflated):
    n, c = _population(600, 0.2, n=32, seed=3)
    fit = fit_rates(n, c, zero_inflated)
    ours = _scipy_loglik(n, c, fit.alpha, fit.beta, fit.zero_share)
    assert fit.loglik == pytest.approx(ours, rel=1e-9)

    def negative(x):
        pi = special.expit(x[2]) if zero_inflated else 0.0
        return -_scipy_loglik(n, c, math.exp(x[0]), math.exp(x[1]), pi)

    x0 = [0.0, 0.0, -1.0] if zero_inflated else [0.0, 0.0]
    ref = optimize.minimize(negative, x0, method="Nelder-Mead", options={"maxiter": 4000})
    assert fit.loglik >= -ref.fun - 1e-4


def test_never_solvable_questions_choose_the_zero_inflated_fit_and_shrink_the_error():
    n, c = _population(2000, 0.2)
    chosen, plain, inflated = choose(n, c)
    assert chosen.model == "zero-inflated beta-binomial"
    assert 0.1 < inflated.zero_share < 0.3
    for k in (1024, 8192):
        truth = _truth(k, 0.2)
        plain_error = abs(plain.pass_at(k) - truth)
        assert plain_error > 0.05  # the beta-binomial alone is too high
        assert abs(forecast(n, c, k).value - truth) < plain_error / 2
        assert forecast(n, c, k).model == "zero-inflated beta-binomial"


def test_a_plain_beta_population_keeps_the_beta_binomial():
    n, c = _population(2000, 0.0, seed=5)
    chosen, plain, _ = choose(n, c)
    assert chosen is plain
    for k in (1024, 8192):
        assert forecast(n, c, k).value == pytest.approx(_truth(k, 0.0), abs=0.03)


def test_a_budget_within_the_samples_is_the_measured_value():
    n, c = _population(300, 0.2, n=16)
    result = forecast(n, c, 16)
    assert result.model == "measured"
    assert result.value == pass_at_k(n, c, 16).mean()
    assert forecast(n, c, 17).model != "measured"


def test_one_sample_per_question_is_refused():
    with pytest.raises(ValueError, match="one sample per question"):
        forecast(np.ones(50, dtype=int), np.arange(50) % 2, 8)


def test_counts_within_sampling_noise_say_one_rate_is_assumed():
    rng = np.random.default_rng(1)
    n = np.full(400, 16)
    c = rng.binomial(n, 0.2)  # one rate: the spread of c is binomial noise only
    result = forecast(n, c, 1024)
    assert result.model == ONE_RATE
    assert result.value == pytest.approx(1 - (1 - c.sum() / n.sum()) ** 1024, abs=1e-6)


def test_no_success_and_all_success():
    assert forecast(np.full(5, 4), np.zeros(5, dtype=int), 100).value == 0.0
    assert forecast(np.full(5, 4), np.full(5, 4), 100).value == 1.0
