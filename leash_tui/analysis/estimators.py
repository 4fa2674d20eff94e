"""Estimators beyond pass@k from n samples with c correct: G-Pass@k_τ, pass^k, support at τ.

Pure numpy, no I/O. Drawing k of a question's n samples without replacement, the number
X of correct ones is hypergeometric (population n, c successes, k draws):

    P(X = j) = C(c, j)·C(n − c, k − j) / C(n, k)

- G-Pass@k_τ (Liu et al., "Are Your LLMs Capable of Stable Reasoning?", arXiv
  2412.13147, eq. 3) = P(X ≥ max(1, ⌈τ·k⌉)), the chance that at least a share τ of k
  samples (and at least one) is correct, as OpenCompass computes it; τ = 0 gives
  pass@k, τ = 1 gives pass^k.
- pass^k (all k correct; Yao et al., τ-bench, arXiv 2406.12045) = C(c, k) / C(n, k).
- Support at threshold τ and budget k: P(X ≥ max(1, ⌈τ·k⌉)). τ = 0 is pass@k (at
  least one success, the paper's rule); at k = n it is 1 when c/n ≥ τ, else 0.

Every k must satisfy 1 <= k <= n (ValueError otherwise): an estimate at a budget above
the samples drawn is never given (see ``analysis.forecast`` for a model-based one).
"""

from __future__ import annotations

import numpy as np

from leash_tui.analysis.exact_tests import log_factorials

_CELLS_PER_CHUNK = 1_000_000
_ROUNDING = 1e-9  # ⌈τ·k⌉ of τ = 0.3, k = 10 is 3, not 4 (0.3·10 = 3.0000000000000004)


def _arrays(n, c, k) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_b, c_b, k_b = np.broadcast_arrays(
        np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64), np.asarray(k, dtype=np.int64)
    )
    n_a, c_a, k_a = (a.reshape(-1) for a in (n_b, c_b, k_b))
    if (c_a < 0).any() or (c_a > n_a).any():
        raise ValueError("correct counts must satisfy 0 <= c <= n")
    if (k_a < 1).any():
        raise ValueError("k must be at least 1")
    if (k_a > n_a).any():
        bad = int(np.flatnonzero(k_a > n_a)[0])
        raise ValueError(f"k = {k_a[bad]} is larger than n = {n_a[bad]} (samples drawn)")
    return n_a, c_a, k_a


def at_least(tau: float, k: np.ndarray) -> np.ndarray:
    """⌈τ·k⌉ for each k (robust to float rounding of τ·k)."""
    return np.ceil(np.asarray(k, dtype=np.float64) * tau - _ROUNDING).astype(np.int64)


def hypergeom_tail(n, c, k, m) -> np.ndarray:
    """P(X ≥ m) for X ~ Hypergeometric(n, c, k), elementwise (exact sum of log-pmfs)."""
    shape = np.broadcast_shapes(np.shape(n), np.shape(c), np.shape(k), np.shape(m))
    n_a, c_a, k_a, m_a = (
        np.broadcast_to(np.asarray(a, dtype=np.int64), shape).reshape(-1) for a in (n, c, k, m)
    )
    _arrays(n_a, c_a, k_a)
    lo = np.maximum(m_a, np.maximum(0, k_a - (n_a - c_a)))
    hi = np.minimum(c_a, k_a)
    out = np.where(m_a <= np.maximum(0, k_a - (n_a - c_a)), 1.0, 0.0)
    todo = np.flatnonzero((lo <= hi) & (out == 0.0))
    if todo.size:
        keys, inverse = np.unique(
            np.stack([n_a[todo], c_a[todo], k_a[todo], lo[todo], hi[todo]], axis=1),
            axis=0,
            return_inverse=True,
        )
        lf = log_factorials(int(keys[:, 0].max()))
        values = np.empty(len(keys))
        width = int((keys[:, 4] - keys[:, 3]).max()) + 1
        rows = max(1, _CELLS_PER_CHUNK // width)
        for start in range(0, len(keys), rows):
            nn, cc, kk, ll, hh = (col[:, None] for col in keys[start : start + rows].T)
            j = ll + np.arange(width)[None, :]
            valid = j <= hh
            j = np.where(valid, j, ll)
            log_pmf = (
                lf[cc] - lf[j] - lf[cc - j]
                + lf[nn - cc] - lf[kk - j] - lf[nn - cc - kk + j]
                - (lf[nn] - lf[kk] - lf[nn - kk])
            )  # fmt: skip
            values[start : start + rows] = np.where(valid, np.exp(log_pmf), 0.0).sum(axis=1)
        out[todo] = np.clip(values[inverse.reshape(-1)], 0.0, 1.0)
    return out.reshape(shape)


def g_pass_at_k(n, c, k, tau: float) -> np.ndarray:
    """G-Pass@k_τ = P(X ≥ max(1, ⌈τ·k⌉)) (Liu et al. 2024, arXiv 2412.13147, and
    OpenCompass's ``compute_g_pass_at_k``): τ = 0 is pass@k, not 1; τ in [0, 1]."""
    if not 0.0 <= tau <= 1.0:
        raise ValueError("tau must be in [0, 1]")
    return hypergeom_tail(n, c, k, np.maximum(1, at_least(tau, k)))


def pass_hat_k(n, c, k) -> np.ndarray:
    """pass^k = C(c, k) / C(n, k): the chance that k samples drawn are all correct."""
    return g_pass_at_k(n, c, k, 1.0)


def support_probability(n, c, k, tau: float = 0.0) -> np.ndarray:
    """P(X ≥ max(1, ⌈τ·k⌉)): in support at budget k and threshold τ (τ = 0: pass@k)."""
    if not 0.0 <= tau <= 1.0:
        raise ValueError("the support threshold must be in [0, 1]")
    return hypergeom_tail(n, c, k, np.maximum(1, at_least(tau, k)))


def binom_upper_bound(c, n, level: float = 0.95) -> np.ndarray:
    """One-sided Clopper–Pearson upper bound on a success rate from c of n (Clopper &
    Pearson 1934): the p with P(Binomial(n, p) ≤ c) = 1 − level; 1 when c = n.

    At c = 0 it has the closed form 1 − (1 − level)^(1/n) (0 of 8192 at 95%: 3.66e-4);
    otherwise it is the beta quantile Beta⁻¹(level; c + 1, n − c), found here by
    bisection on the binomial CDF (60 halvings: float precision).
    """
    c_b, n_b = np.broadcast_arrays(np.asarray(c, dtype=np.int64), np.asarray(n, dtype=np.int64))
    if ((c_b < 0) | (c_b > n_b) | (n_b < 1)).any():
        raise ValueError("counts must satisfy 0 <= c <= n, n >= 1")
    if not 0.0 < level < 1.0:
        raise ValueError("the confidence level must be in (0, 1)")
    alpha = 1.0 - level
    out = np.where(c_b == n_b, 1.0, 1.0 - alpha ** (1.0 / np.maximum(n_b, 1)))
    todo = np.flatnonzero(((c_b > 0) & (c_b < n_b)).reshape(-1))
    if todo.size:
        cc, nn = c_b.reshape(-1)[todo], n_b.reshape(-1)[todo]
        lf = log_factorials(int(nn.max()))
        lo, hi = np.zeros(todo.size), np.ones(todo.size)
        for _ in range(60):
            mid = (lo + hi) / 2
            too_low = binom_cdf(cc, nn, mid, lf) > alpha  # the CDF falls as p grows
            lo, hi = np.where(too_low, mid, lo), np.where(too_low, hi, mid)
        flat = out.reshape(-1).copy()
        flat[todo] = (lo + hi) / 2
        out = flat.reshape(out.shape)
    return out


def binom_cdf(
    c: np.ndarray, n: np.ndarray, p: np.ndarray, lf: np.ndarray | None = None
) -> np.ndarray:
    """P(Binomial(n, p) ≤ c) for 1-d arrays, by summing pmfs from their logs (``lf``:
    ``log_factorials`` up to max n, made when not given); c < 0 gives 0."""
    c, n, p = (np.asarray(a).reshape(-1) for a in (c, n, p))
    if lf is None:
        lf = log_factorials(int(n.max()) if n.size else 0)
    if c.size == 0 or c.max() < 0:
        return np.zeros(c.shape)
    j = np.arange(int(c.max()) + 1)[None, :]
    cc, nn, pp = c[:, None], n[:, None], p[:, None]
    valid = j <= cc
    jj = np.where(valid, j, 0)
    with np.errstate(divide="ignore"):
        log_pmf = lf[nn] - lf[jj] - lf[nn - jj] + jj * np.log(pp) + (nn - jj) * np.log1p(-pp)
    return np.where(valid, np.exp(log_pmf), 0.0).sum(axis=1)
