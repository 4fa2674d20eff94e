"""The --risk rule of adaptive sampling, simulated: on a population the fit can describe
(20% never solvable, the rest Beta-distributed) the realised misclassifications stay within
the expected number the rule states; it saves most of what never-solvable pairs cost."""

from __future__ import annotations

import numpy as np

from leash_tui.analysis.adaptive_risk import rounds_of, simulate_pairs


def _population(rng, size=1500):
    rates = rng.beta(0.6, 2.0, size)
    rates[: size // 5] = 0.0
    return rates


def test_realised_misclassifications_stay_within_the_stated_expectation():
    k, n = 4096, 32
    expected = realised = 0.0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        run = simulate_pairs(rng, _population(rng), k, n, delta=0.05)
        expected += run.expected_misclassified
        realised += run.misclassified
        assert (run.risk[run.stopped_early] < 0.05).all()
        assert not (run.inside & ~run.truly_inside).any()  # a success seen is a success
    # realised is a sum of independent Bernoulli(q) if the fit is right: within 3 sd
    assert realised <= expected + 3 * np.sqrt(expected) + 1
    assert expected > 0  # the rule did stop pairs


def test_the_rule_saves_what_never_solvable_pairs_cost():
    k, n = 4096, 32
    rng = np.random.default_rng(9)
    rates = rng.beta(2.0, 5.0, 1500)  # solvable questions are seldom rarer than 1 in 100
    rates[:300] = 0.0
    plain = simulate_pairs(np.random.default_rng(1), rates, k, n, delta=None)
    risky = simulate_pairs(np.random.default_rng(1), rates, k, n, delta=0.05)
    assert risky.drawn.sum() < 0.5 * plain.drawn.sum()
    assert (plain.drawn[rates == 0] == k).all()
    assert plain.misclassified == 0 and plain.expected_misclassified == 0.0


def test_rounds():
    assert rounds_of(32, 8192) == [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert rounds_of(8, 20) == [8, 16, 20]
