"""The --risk rule of adaptive sampling (sampler.sample.risk_stop), simulated: on populations
with never-solvable questions, of shapes a fitted beta-binomial misdescribes, the realised
misclassifications stay within the bound the rule states; where the population allows it,
the rule saves much of what never-solvable pairs cost."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from leash_tui.analysis.adaptive_risk import category_rates, rounds_of, simulate_pairs
from sampler.sample.risk_stop import NEVER, hazard_upper, risk_stops, success_left


def _populations(rng):
    easy = rng.beta(2.0, 5.0, 1500)
    easy[:300] = 0.0  # 20% never solvable
    heavy = rng.beta(0.6, 2.0, 1500)
    heavy[:300] = 0.0
    # the shape that fooled the fitted posterior: a block of rates just below 1/d
    blind = rng.beta(2.0, 5.0, 1500)
    blind[:300], blind[300:420] = 0.0, 1.0 / 3000
    paper = np.concatenate(category_rates(rng, (173, 0, 22, 77), (0.3218, 0.3927), 4096))
    return {"easy": easy, "heavy": heavy, "blind": blind, "paper": paper}


@pytest.mark.parametrize("name", ["easy", "heavy", "blind", "paper"])
def test_realised_misclassifications_stay_within_the_stated_bound(name):
    k, n = 4096, 32
    stated = realised = 0.0
    for seed in range(6):
        rates = _populations(np.random.default_rng(seed))[name]
        run = simulate_pairs(np.random.default_rng(100 + seed), rates, k, n, delta=0.05)
        stated += run.expected_misclassified
        realised += run.misclassified
        assert (run.risk[run.stopped_early] < 0.05).all()
        assert not (run.inside & ~run.truly_inside).any()  # a success seen is a success
        assert (run.drawn[run.inside] > run.first[run.inside]).all()
    # realised is a sum of Bernoulli(q_i), q_i at most the stated q: within 3 sd of it
    assert realised <= stated + 3 * np.sqrt(stated) + 1


def test_the_rule_saves_what_never_solvable_pairs_cost():
    k, n = 4096, 32
    rates = _populations(np.random.default_rng(9))["easy"]
    plain = simulate_pairs(np.random.default_rng(1), rates, k, n, delta=None)
    risky = simulate_pairs(np.random.default_rng(1), rates, k, n, delta=0.05)
    assert risky.drawn.sum() < 0.6 * plain.drawn.sum()
    assert risky.expected_misclassified > 0  # it did stop pairs, and says what it risked
    assert (plain.drawn[rates == 0] == k).all()
    assert plain.misclassified == 0 and plain.expected_misclassified == 0.0


def test_hazard_upper_is_the_one_sided_clopper_pearson_bound():
    for m, r in [(0, 1), (0, 30), (1, 30), (3, 10), (7, 200), (29, 30)]:
        assert hazard_upper(m, r) == pytest.approx(stats.beta.ppf(0.95, m + 1, r - m), abs=1e-9)
    assert hazard_upper(0, 0) == 1.0 and hazard_upper(5, 5) == 1.0
    with pytest.raises(ValueError):
        hazard_upper(4, 3)


def test_bound_uses_only_pairs_seen_through_the_round():
    # 100 pairs open at 16; at 32: 2 solved in [16, 32), 90 open, 8 stopped earlier at 16
    first = np.array([20, 25] + [NEVER] * 98)
    drawn = np.array([32, 32] + [32] * 90 + [16] * 8)
    bound = success_left(first, drawn, 32, 256)
    assert (bound.at_risk, bound.successes, bound.open) == (92, 2, 90)
    rho = 1 - stats.beta.ppf(0.95, 3, 90)
    assert bound.q == pytest.approx(1 - rho ** ((256 - 32) / 16))
    stop, _ = risk_stops(first, drawn, 32, 256, delta=0.999)
    assert stop.sum() == 90 and not stop[:2].any() and not stop[92:].any()
    stop, _ = risk_stops(first, drawn, 32, 256, delta=0.05)
    assert not stop.any()
    with pytest.raises(ValueError, match="within"):
        risk_stops(first, drawn, 32, 256, delta=1.0)


def test_rounds():
    assert rounds_of(32, 8192) == [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert rounds_of(8, 20) == [8, 16, 20]
