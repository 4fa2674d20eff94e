"""The ``--risk DELTA`` stop of adaptive sampling: when the unsolved pairs of a group may stop.

Pure numpy and ``math``, no I/O (the adaptive loop calls ``risk_stops`` between rounds).
A group is one model's questions of one benchmark. At the end of the round at budget d,
every unsolved pair of the group has seen 0 successes in d samples, so all of them carry
the same probability q that their remaining k − d samples hold a success. The rule stops
them (counted out of support, ``stop = risk`` in ``adaptive_stops``) once an upper bound
on q is below DELTA, and records q: the expected number of misclassified questions is at
most the sum of q over the stopped pairs.

The bound holds whatever the distribution of pass rates, never-solvable questions
included. The share of a group's pairs with no success in t samples is
S(t) = mean over pairs of (1 − p)^t, a mixture of exponentials in t, so log S is convex
(its slope, the log of the hazard's complement, only rises): the chance to succeed in
the next samples never grows with the samples already missed. Hence, with ρ = S(d)/S(d − w)
the survival over the round just drawn (w = d/2 samples),

    q = 1 − S(k)/S(d) ≤ 1 − ρ^((k − d)/w).

ρ is estimated from the m of r pairs open at d − w that succeeded in [d − w, d); the
bound takes the one-sided Clopper–Pearson upper bound of m/r at ``CONFIDENCE`` (95%), so
a small group or a lucky round does not stop it early. A fitted rate distribution
(beta-binomial or zero-inflated) is not used: from d samples it cannot tell a rate of
1/(10 d) from 0, and on the paper-shaped population of ``bench/adaptive_saving.py`` its
posterior stated 10.2 expected misclassifications where 33 happened.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: one-sided confidence of the upper bound on the last round's hazard
CONFIDENCE = 0.95
#: ``first`` of a pair without a success among its drawn samples
NEVER = np.iinfo(np.int64).max


def _binom_cdf(m: int, r: int, p: float) -> float:
    """P(X <= m) for X ~ Binomial(r, p), 0 < p < 1 (log-space terms, summed)."""
    logs = [
        math.lgamma(r + 1) - math.lgamma(j + 1) - math.lgamma(r - j + 1)
        + j * math.log(p) + (r - j) * math.log1p(-p)
        for j in range(m + 1)
    ]  # fmt: skip
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in logs))


def hazard_upper(m: int, r: int, confidence: float = CONFIDENCE) -> float:
    """One-sided Clopper–Pearson upper bound on a rate seen as m successes of r."""
    if not 0 <= m <= r:
        raise ValueError(f"need 0 <= m <= r, got m={m}, r={r}")
    if r == 0 or m == r:
        return 1.0
    alpha = 1.0 - confidence
    if m == 0:
        return 1.0 - alpha ** (1.0 / r)
    lo, hi = m / r, 1.0
    for _ in range(60):  # bisection: the CDF falls as p rises
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _binom_cdf(m, r, mid) > alpha else (lo, mid)
    return hi


@dataclass(frozen=True)
class RiskBound:
    """What the rule knows of a group at the end of the round at ``budget``."""

    budget: int  # d
    at_risk: int  # r: pairs open at d − w and seen through d
    successes: int  # m: of them, those that succeeded in [d − w, d)
    open: int  # pairs without a success in d samples (what the rule would stop)
    q: float  # upper bound on P(a success in the remaining k − d | none in d)


def success_left(first: np.ndarray, drawn: np.ndarray, budget: int, k: int) -> RiskBound:
    """The bound for one group: ``first`` success index per pair (``NEVER`` if none among
    its ``drawn`` samples). Pairs stopped earlier by the rule (fewer than ``budget`` drawn,
    no success) are left out: they were not seen through the round."""
    first = np.asarray(first, dtype=np.int64)
    drawn = np.asarray(drawn, dtype=np.int64)
    start = budget - budget // 2  # d − w, w = d // 2
    seen = (drawn >= budget) | (first < budget)
    at_risk = seen & (first >= start)
    hits = at_risk & (first < budget)
    open_ = (drawn >= budget) & (first >= budget)
    m, r = int(hits.sum()), int(at_risk.sum())
    if budget < 2 or budget >= k or r == 0:
        return RiskBound(budget, r, m, int(open_.sum()), 1.0 if budget < k else 0.0)
    rho = 1.0 - hazard_upper(m, r)
    q = 1.0 - rho ** ((k - budget) / (budget // 2)) if rho > 0 else 1.0
    return RiskBound(budget, r, m, int(open_.sum()), float(q))


def risk_stops(
    first: np.ndarray, drawn: np.ndarray, budget: int, k: int, delta: float
) -> tuple[np.ndarray, RiskBound]:
    """(mask of the group's pairs to stop now, the bound): the pairs without a success in
    ``budget`` samples when the bound is below ``delta``, else none."""
    if not 0.0 < delta < 1.0:
        raise ValueError(f"--risk must be within (0, 1), got {delta}")
    bound = success_left(first, drawn, budget, k)
    first = np.asarray(first, dtype=np.int64)
    drawn = np.asarray(drawn, dtype=np.int64)
    open_ = (drawn >= budget) & (first >= budget) & (budget < k)
    return (open_ if bound.q < delta else np.zeros_like(open_)), bound


def group_stops(
    first: np.ndarray, drawn: np.ndarray, rounds: list[int], k: int, delta: float
) -> tuple[np.ndarray, float, int]:
    """(mask of the group's pairs the rule stopped, the q it stated, the round budget) —
    the rounds replayed in order from what the folder holds (``first``: ``NEVER`` where no
    success among the ``drawn`` samples). A round is judged only once complete (every pair
    without an earlier success holds its budget), and the first round whose bound is below
    ``delta`` stops every open pair at once, as ``adaptive_risk.simulate_pairs`` plays it.
    The answer depends only on the samples below each round's budget, so a resumed run
    replays the same stops; none stopped: an all-False mask, q 0 and budget 0."""
    first = np.asarray(first, dtype=np.int64)
    drawn = np.asarray(drawn, dtype=np.int64)
    for budget in rounds[:-1]:
        if ((first >= budget) & (drawn < budget)).any():
            break  # the round is not complete: its bound would use part of the group
        stop, bound = risk_stops(first, drawn, budget, k, delta)
        if stop.any():
            return stop, bound.q, budget
    return np.zeros(first.shape, dtype=bool), 0.0, 0
