"""A forecast of pass@K beyond the samples drawn: a beta-binomial fit of per-question counts.

Pure numpy, no I/O. After Schaeffer et al., "How Do Large Language Monkeys Get Their
Power (Laws)?" (arXiv 2502.17578): a model's per-question success probabilities p_i
are taken as draws from a Beta(α, β) distribution, fitted to the counts c_i of n_i;
the expected pass@K of a question drawn from it is

    pass@K = 1 − E[(1 − p)^K] = 1 − B(α, β + K) / B(α, β)

(B the beta function), finite for every K, so it forecasts budgets above n. It is a
model-based extrapolation, not an estimate from the samples: the report labels it
"forecast" wherever it appears.

Fit (method of moments, corrected for binomial noise): with p̂_i = c_i / n_i,
m = mean p̂_i, v = variance of p̂_i and h = mean 1/n_i,

    Var(p) = (v − h·m·(1 − m)) / (1 − h),   α + β = m·(1 − m) / Var(p) − 1,
    α = m·(α + β),   β = (1 − m)·(α + β).

When Var(p) ≤ 0 (the counts vary no more than sampling noise) every question has the
same p = m and pass@K = 1 − (1 − m)^K; m = 0 forecasts 0 and m = 1 forecasts 1.

``forecast`` is what the report shows: the measured pass@K (the unbiased estimator) when
K is at most every question's samples; otherwise the maximum-likelihood beta-binomial
or, when a likelihood-ratio test prefers it, the zero-inflated beta-binomial (a share of
questions never solvable: ``analysis.rate_fits``), named in ``Forecast.model``. With one
sample per question the spread of rates is not identified: ValueError. When the
estimated Var(p) is <= 0 or the fit runs to one rate for every question (the counts vary
no more than sampling noise), the model says so: that is the most optimistic forecast.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.rate_fits import choose


@dataclass(frozen=True)
class BetaFit:
    """A fitted Beta(α, β) of per-question success probabilities (None: one p for all)."""

    mean: float
    alpha: float | None
    beta: float | None

    def pass_at(self, k: int) -> float:
        """The forecast pass@k = 1 − B(α, β + k) / B(α, β)."""
        if k < 1:
            raise ValueError("k must be at least 1")
        if self.mean <= 0.0:
            return 0.0
        if self.mean >= 1.0:
            return 1.0
        if self.alpha is None or self.beta is None:
            return 1.0 - (1.0 - self.mean) ** k
        a, b = self.alpha, self.beta
        log_ratio = (
            math.lgamma(b + k) - math.lgamma(b) - math.lgamma(a + b + k) + math.lgamma(a + b)
        )
        return 1.0 - math.exp(log_ratio)


def fit_beta(n: np.ndarray, c: np.ndarray) -> BetaFit:
    """Method-of-moments Beta fit of the success probabilities behind counts c of n."""
    n_a = np.asarray(n, dtype=np.float64)
    c_a = np.asarray(c, dtype=np.float64)
    if n_a.size == 0 or (n_a < 1).any() or (c_a < 0).any() or (c_a > n_a).any():
        raise ValueError("the fit needs counts 0 <= c <= n, n >= 1, for at least one question")
    share = c_a / n_a
    m = float(share.mean())
    if m <= 0.0 or m >= 1.0 or share.size < 2:
        return BetaFit(m, None, None)
    h = float(np.mean(1.0 / n_a))
    v = float(share.var())
    if h >= 1.0:  # one sample per question: p's variance is not identified
        return BetaFit(m, None, None)
    var_p = (v - h * m * (1.0 - m)) / (1.0 - h)
    if var_p <= 0.0:
        return BetaFit(m, None, None)
    total = max(m * (1.0 - m) / var_p - 1.0, 1e-6)
    return BetaFit(m, m * total, (1.0 - m) * total)


def forecast_pass_at(n: np.ndarray, c: np.ndarray, k: int) -> float:
    """The beta-binomial forecast of a scope's mean pass@k (any k >= 1, above n too)."""
    return fit_beta(n, c).pass_at(k)


@dataclass(frozen=True)
class Forecast:
    """pass@K of a scope and how it was obtained (``model``: "measured", a fit's name)."""

    value: float
    model: str


ONE_RATE = "one rate for all (counts within sampling noise; most optimistic)"


def forecast(n: np.ndarray, c: np.ndarray, k: int) -> Forecast:
    """The report's pass@k of counts c of n: measured when k <= every n, else the chosen
    fit's forecast (module docstring); ValueError when no fit is identified."""
    n_a, c_a = np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64)
    if k < 1:
        raise ValueError("k must be at least 1")
    if n_a.size == 0:
        raise ValueError("the fit needs counts 0 <= c <= n, n >= 1, for at least one question")
    if k <= int(n_a.min()):
        return Forecast(float(pass_at_k(n_a, c_a, k).mean()), "measured")
    if int(n_a.max()) < 2:
        raise ValueError(
            "one sample per question: the spread of pass rates across questions is not"
            " identified, so pass@K above 1 cannot be forecast"
        )
    if not c_a.any():
        return Forecast(0.0, "no success in any sample")
    if (c_a == n_a).all():
        return Forecast(1.0, "every sample correct")
    if fit_beta(n_a, c_a).alpha is None:  # the estimated variance of p is <= 0
        return Forecast(fit_beta(n_a, c_a).pass_at(k), ONE_RATE)
    chosen, _, _ = choose(n_a, c_a)
    model = ONE_RATE if chosen.one_rate and chosen.zero_share == 0.0 else chosen.model
    return Forecast(chosen.pass_at(k), model)
