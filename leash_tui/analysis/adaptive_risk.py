"""A simulation of adaptive sampling with and without the ``--risk DELTA`` stop.

Pure numpy, no I/O. An adaptive run gives every (model, question) its first N samples,
then doubling rounds until a verified success or k. Most of what it still draws goes to
pairs that never succeed (a never-solvable question costs all k). The rule itself is
``sampler.sample.risk_stop`` (what ``leash sample --adaptive --risk`` runs): at the end of
each round it bounds the probability q that an unsolved pair of the group (one model's
questions of one benchmark) still holds a success in its remaining samples, whatever the
distribution of pass rates, and stops the group's unsolved pairs once the bound is below
DELTA. A stopped pair is counted out of support; it is misclassified when a success was
still to come. The expected number of misclassified pairs is at most the sum of q over
the stopped pairs, reported beside P/E/S/O.

``simulate_pairs`` plays the rule on given per-pair success rates (first successes are
geometric), so tests and ``bench/adaptive_saving.py`` check that the realised
misclassifications stay within the stated bound on populations with never-solvable
questions; ``category_rates`` builds the paper-shaped population from P/E/S/O counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sampler.sample.risk_stop import NEVER, risk_stops

__all__ = ["NEVER", "RiskRun", "category_rates", "expected_tokens", "rounds_of", "simulate_pairs"]


def rounds_of(min_samples: int, samples: int) -> list[int]:
    """Budgets of the adaptive rounds: N, 2N, 4N, ... below k, then k."""
    out = [max(1, min(min_samples, samples))]
    while out[-1] < samples:
        out.append(min(out[-1] * 2, samples))
    return out


@dataclass(frozen=True)
class RiskRun:
    """What a simulated adaptive run drew and decided, per pair."""

    drawn: np.ndarray  # samples drawn
    inside: np.ndarray  # counted in support (a success seen)
    stopped_early: np.ndarray  # stopped by the risk rule before k without a success
    risk: np.ndarray  # q at the stop (0 where not stopped by the rule)
    truly_inside: np.ndarray  # a success within k (what the full run would see)
    first: np.ndarray  # index of the first success (int64 max: never)

    @property
    def expected_misclassified(self) -> float:
        return float(self.risk.sum())

    @property
    def misclassified(self) -> int:
        return int((self.truly_inside & ~self.inside).sum())


def simulate_pairs(
    rng: np.random.Generator,
    rates: np.ndarray,
    k: int,
    n_first: int,
    delta: float | None,
) -> RiskRun:
    """Play an adaptive run (``delta`` None: no risk rule) on pairs of success ``rates``."""
    rates = np.asarray(rates, dtype=np.float64)
    first = np.where(rates > 0, rng.geometric(np.clip(rates, 1e-300, 1.0)) - 1, NEVER)
    rounds = np.asarray(rounds_of(n_first, k))
    truly = first < k
    # the round that holds the first success (its budget is what the pair costs)
    at = rounds[np.minimum(np.searchsorted(rounds, first, side="right"), len(rounds) - 1)]
    drawn = np.where(truly, at, k)
    stopped = np.zeros(rates.size, dtype=bool)
    risk = np.zeros(rates.size)
    if delta is not None:
        for d in rounds[:-1]:
            known = np.minimum(drawn, d)  # what the run has drawn at the end of round d
            seen = np.where(first < known, first, NEVER)
            stop, bound = risk_stops(seen, known, int(d), k, delta)
            stop &= ~stopped
            if stop.any():
                risk[stop] = bound.q
                drawn[stop] = d
                stopped |= stop
                break  # every open pair of the group stops at once
    inside = truly & ~stopped
    return RiskRun(drawn, inside, stopped, risk, truly, first)


def category_rates(
    rng: np.random.Generator,
    counts: Sequence[int],
    accuracy: tuple[float, float],
    k: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-question success rates of base and target for P/E/S/O ``counts`` and the two
    models' mean accuracy (avg@32): the losing side of E and S questions and both sides of
    O are 0; the winning side of E and S is log-uniform in [3/k, 0.05] (rarely solved);
    P questions carry the rest of each model's accuracy, Beta-distributed with that mean
    (concentration 2) and at least 3/k (in support at k)."""
    p, e, s, o = counts
    total = p + e + s + o
    out = []
    for role, acc in enumerate(accuracy):
        rare_n = e if role == 1 else s  # the target wins E, the base wins S
        rare = np.exp(rng.uniform(np.log(3 / k), np.log(0.05), rare_n))
        mean_p = float(np.clip((acc * total - rare.sum()) / max(p, 1), 0.02, 0.98))
        common = np.maximum(rng.beta(2 * mean_p, 2 * (1 - mean_p), p), 3 / k)
        zeros_before = s if role == 1 else e  # the losing side
        if role == 0:
            rates = np.concatenate([common, np.zeros(zeros_before), rare, np.zeros(o)])
        else:
            rates = np.concatenate([common, rare, np.zeros(zeros_before), np.zeros(o)])
        out.append(rates)
    return out[0], out[1]


def expected_tokens(
    rates: np.ndarray, first: np.ndarray, drawn: np.ndarray, wrong_length: float
) -> np.ndarray:
    """Expected tokens of each pair's drawn samples, a correct sample 1 token-unit and a
    wrong one ``wrong_length``: the samples before the first success are wrong, it is
    right, the later ones are right with the pair's rate."""
    rates = np.asarray(rates, dtype=np.float64)
    seen = first < drawn
    before = np.where(seen, first, drawn).astype(np.float64)
    after = np.where(seen, drawn - first - 1, 0).astype(np.float64)
    mix = rates + (1 - rates) * wrong_length
    return before * wrong_length + seen + after * mix
