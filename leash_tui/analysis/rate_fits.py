"""Maximum-likelihood fits of per-question pass rates: beta-binomial, zero-inflated too.

Pure numpy, no I/O. A question's count c of n correct samples is binomial with its own
success probability p. Across questions p is drawn from

- Beta(α, β) (the beta-binomial, Schaeffer et al., arXiv 2502.17578), or
- with probability π exactly 0 (a question the model never solves), else Beta(α, β)
  (the zero-inflated beta-binomial).

Both are fitted by maximum likelihood (Nelder–Mead on log α, log β and logit π; the
likelihood sums once per distinct (n, c)); ``choose`` keeps the zero-inflated one only
when a likelihood-ratio test rejects π = 0 at 5%: π = 0 is on the boundary, so the
statistic (twice the log-likelihood gain) is a 50:50 mix of χ²₀ and χ²₁ (Self & Liang
1987) and the critical value is 2.71, the χ²₁ 90% quantile. A population without
never-solvable questions keeps the plain fit 95% of the time. The log-gamma function
is numpy's own (Stirling's series after a shift by 10; error below 1e-12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: twice the log-likelihood gain that makes the zero-inflated fit the chosen one (5% test
#: of π = 0 on the boundary: the χ²₁ 90% quantile)
LR_THRESHOLD = 2.705543454095404
_LOG_BOUND = 18.0  # |log α|, |log β| at most this: a + b = e^18 is one rate for all
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def lgamma(x: np.ndarray) -> np.ndarray:
    """log Γ(x) elementwise for x > 0 (Stirling's series at x + 10, shifted back)."""
    x = np.asarray(x, dtype=np.float64)
    shift = np.log(x[..., None] + np.arange(10.0)).sum(axis=-1)
    z = x + 10.0
    inv, inv2 = 1.0 / z, 1.0 / (z * z)
    series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)))
    return (z - 0.5) * np.log(z) - z + _HALF_LOG_2PI + series - shift


def _betaln(a, b) -> np.ndarray:
    return lgamma(a) + lgamma(b) - lgamma(np.asarray(a) + b)


@dataclass(frozen=True)
class RateFit:
    """A fitted distribution of pass rates: Beta(α, β), with a share π of zeros."""

    alpha: float
    beta: float
    zero_share: float  # π: 0 for the plain beta-binomial
    loglik: float  # up to the binomial coefficients, which both fits share
    model: str  # "beta-binomial" or "zero-inflated beta-binomial"

    @property
    def one_rate(self) -> bool:
        """Whether the fit ran to its limit α + β → ∞: one rate for every question."""
        return max(math.log(self.alpha), math.log(self.beta)) >= _LOG_BOUND - 0.5

    def pass_at(self, k: int) -> float:
        """Expected pass@k of a question drawn from the fit: (1 − π)(1 − B(α, β+k)/B(α, β))."""
        if k < 1:
            raise ValueError("k must be at least 1")
        a, b = self.alpha, self.beta
        log_miss = math.lgamma(b + k) - math.lgamma(b) - math.lgamma(a + b + k) + math.lgamma(a + b)
        miss = math.exp(log_miss)
        return (1.0 - self.zero_share) * (1.0 - miss)

    def miss_after(self, drawn: np.ndarray, more: np.ndarray) -> np.ndarray:
        """P(no success in ``more`` further samples | no success in ``drawn``), per pair:
        the posterior over p given 0 of ``drawn`` (a zero with weight π, Beta(α, β+drawn))."""
        a, b, pi = self.alpha, self.beta, self.zero_share
        drawn = np.asarray(drawn, dtype=np.float64)
        more = np.asarray(more, dtype=np.float64)
        log_none = _betaln(a, b + drawn) - _betaln(a, b)  # P(0 of drawn | Beta)
        none_more = np.exp(_betaln(a, b + drawn + more) - _betaln(a, b + drawn))
        w_zero = pi / (pi + (1 - pi) * np.exp(log_none)) if pi > 0 else np.zeros_like(drawn)
        return w_zero + (1 - w_zero) * none_more


def _grouped(n: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pairs, counts = np.unique(np.stack([n, c], axis=1), axis=0, return_counts=True)
    return pairs[:, 0].astype(np.float64), pairs[:, 1].astype(np.float64), counts.astype(float)


def _bb_terms(n, c, a, b) -> np.ndarray:
    """log P(c | n, α, β) without the binomial coefficient, per distinct (n, c)."""
    return _betaln(c + a, n - c + b) - _betaln(a, b)


def _nelder_mead(f, x0: np.ndarray, steps: float = 0.7, iterations: int = 600) -> np.ndarray:
    """The minimiser of ``f`` from ``x0`` (Nelder & Mead 1965, standard coefficients)."""
    dim = x0.size
    simplex = np.vstack([x0, x0 + steps * np.eye(dim)])
    values = np.array([f(x) for x in simplex])
    for _ in range(iterations):
        order = np.argsort(values)
        simplex, values = simplex[order], values[order]
        if values[-1] - values[0] < 1e-10 and np.abs(simplex - simplex[0]).max() < 1e-7:
            break
        centre = simplex[:-1].mean(axis=0)
        reflected = centre + (centre - simplex[-1])
        fr = f(reflected)
        if fr < values[0]:
            expanded = centre + 2 * (centre - simplex[-1])
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            inside = fr >= values[-1]
            contracted = centre + (0.5 if not inside else -0.5) * (reflected - centre)
            fc = f(contracted)
            if fc < min(fr, values[-1]):
                simplex[-1], values[-1] = contracted, fc
            else:  # shrink towards the best
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                values[1:] = [f(x) for x in simplex[1:]]
    return simplex[int(np.argmin(values))]


def _start(n: np.ndarray, c: np.ndarray) -> tuple[float, float]:
    """A method-of-moments (α, β) to start from (one rate of e^5 pseudo-samples if none)."""
    share = c / n
    m = float(np.clip(share.mean(), 1e-4, 1 - 1e-4))
    h = float(np.mean(1.0 / n))
    var_p = (float(share.var()) - h * m * (1 - m)) / (1 - h) if h < 1 else 0.0
    total = m * (1 - m) / var_p - 1 if var_p > 0 else math.exp(5)
    total = float(np.clip(total, 1e-3, math.exp(_LOG_BOUND - 1)))
    return m * total, (1 - m) * total


def fit_rates(n: np.ndarray, c: np.ndarray, zero_inflated: bool) -> RateFit:
    """The maximum-likelihood (zero-inflated) beta-binomial of counts c of n."""
    n_a, c_a = np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64)
    if n_a.size == 0 or (n_a < 1).any() or (c_a < 0).any() or (c_a > n_a).any():
        raise ValueError("the fit needs counts 0 <= c <= n, n >= 1, for at least one question")
    nn, cc, w = _grouped(n_a, c_a)
    zero = cc == 0

    def loglik(x: np.ndarray) -> float:
        a, b = np.exp(np.clip(x[:2], -_LOG_BOUND, _LOG_BOUND))
        terms = _bb_terms(nn, cc, a, b)
        if zero_inflated:
            pi = 1.0 / (1.0 + math.exp(-float(np.clip(x[2], -30, 30))))
            terms = np.log1p(-pi) + terms
            terms = np.where(zero, np.logaddexp(math.log(pi), terms), terms)
        return float((w * terms).sum())

    starts = []
    a0, b0 = _start(nn.repeat(w.astype(int)), cc.repeat(w.astype(int)))
    if zero_inflated:
        share0 = float(w[zero].sum() / w.sum())
        solved = ~zero
        a1, b1 = (
            (a0, b0)
            if not solved.any()
            else _start(
                nn[solved].repeat(w[solved].astype(int)), cc[solved].repeat(w[solved].astype(int))
            )
        )
        for pi0 in (max(share0 * 0.5, 1e-3), max(share0 * 0.9, 1e-3)):
            starts.append(np.array([math.log(a1), math.log(b1), math.log(pi0 / (1 - pi0))]))
    else:
        starts.append(np.array([math.log(a0), math.log(b0)]))
    best, best_ll = None, -math.inf
    for x0 in starts:
        x = _nelder_mead(lambda v: -loglik(v), x0)
        x = _nelder_mead(lambda v: -loglik(v), x, steps=0.1)  # a restart settles it
        value = loglik(x)
        if value > best_ll:
            best, best_ll = x, value
    assert best is not None
    a, b = (float(v) for v in np.exp(np.clip(best[:2], -_LOG_BOUND, _LOG_BOUND)))
    pi = 1.0 / (1.0 + math.exp(-float(np.clip(best[2], -30, 30)))) if zero_inflated else 0.0
    name = "zero-inflated beta-binomial" if zero_inflated else "beta-binomial"
    return RateFit(a, b, pi, best_ll, name)


def choose(n: np.ndarray, c: np.ndarray) -> tuple[RateFit, RateFit, RateFit]:
    """(chosen, beta-binomial, zero-inflated) fits: the zero-inflated one is chosen when
    2·(its log-likelihood − the beta-binomial's) > ``LR_THRESHOLD``."""
    plain = fit_rates(n, c, zero_inflated=False)
    inflated = fit_rates(n, c, zero_inflated=True)
    if inflated.loglik < plain.loglik:  # π → 0 nests the plain fit: never worse
        inflated = RateFit(plain.alpha, plain.beta, 0.0, plain.loglik, inflated.model)
    chosen = inflated if 2 * (inflated.loglik - plain.loglik) > LR_THRESHOLD else plain
    return chosen, plain, inflated
