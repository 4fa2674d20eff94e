"""The bootstrap's parts against scipy and hand values, so that a wrong number fails
(mutation testing of analysis/bootstrap.py, README "Testing"): quantiles, every rate from
its sums, strata, seeds, the resampling weights, and how many resamples are drawn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from leash_tui.analysis import bootstrap
from leash_tui.analysis.bootstrap import (
    BLOCK,
    INTERVAL_NAMES,
    bootstrap_intervals,
    data_seed,
    rates_from_sums,
    stages,
)


@pytest.mark.parametrize("q", [1e-6, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999999])
def test_normal_quantile_matches_scipy(q):
    assert bootstrap._normal_quantile(q) == pytest.approx(stats.norm.ppf(q), abs=1e-9)


@pytest.mark.parametrize("dof", [1, 2, 5, 9, 29, 119, 499])
@pytest.mark.parametrize("q", [0.005, 0.0125, 0.025, 0.9, 0.975])
def test_t_quantile_matches_scipy(dof, q):
    tolerance = 1e-9 if dof <= 2 else 2e-3 if dof == 5 else 2e-4
    assert bootstrap._t_quantile(q, dof) == pytest.approx(stats.t.ppf(q, dof), rel=tolerance)


def _next_cornish_fisher_term(z: float) -> float:
    """g5 of Abramowitz & Stegun 26.7.5: the first term the expansion leaves out."""
    return (27 * z**11 + 339 * z**9 + 930 * z**7 - 1782 * z**5 - 765 * z**3 + 17955 * z) / 368640


@pytest.mark.parametrize("dof", [3, 4, 6, 8, 12, 15, 20, 29, 40, 60])
def test_t_quantile_is_within_the_expansions_first_omitted_term_of_scipy(dof):
    # an expansion to four terms is as accurate as the fifth is small: every term kept
    # must be right for the quantile to be that close to the exact one
    for q in (0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.9, 0.975):
        z = stats.norm.ppf(q)
        bound = 2 * abs(_next_cornish_fisher_term(z)) / dof**5 + 1e-13
        assert abs(bootstrap._t_quantile(q, dof) - stats.t.ppf(q, dof)) <= bound, q


def test_every_rate_from_its_sums():
    # columns: P, E, S, pass@1 base, pass@1 target, pass@k base, pass@k target
    sums = np.array(
        [
            [6.0, 2.0, 1.0, 3.0, 4.5, 7.0, 8.0],
            [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0],  # nothing in support: rates undefined
            [4.0, 0.0, 0.0, 2.0, 2.0, 4.0, 4.0],  # no E, no S: SDS 0, NSCR 0
        ]
    )
    r = rates_from_sums(sums, 10)
    assert set(r) == set(INTERVAL_NAMES)
    srr, ndr = 6 / 7, 2 / 8
    assert r["SRR"][0] == pytest.approx(srr) and r["NDR"][0] == pytest.approx(ndr)
    assert r["SDS"][0] == pytest.approx(2 * srr * ndr / (srr + ndr))
    assert r["NSCR"][0] == pytest.approx((2 - 1) / 9)
    assert r["pass@1_base"][0] == pytest.approx(0.3) and r["pass@1_target"][0] == 0.45
    assert r["pass@1_diff"][0] == pytest.approx(0.15)
    assert r["pass@k_base"][0] == pytest.approx(0.7) and r["pass@k_target"][0] == 0.8
    assert r["pass@k_diff"][0] == pytest.approx(0.1)
    for name in ("SRR", "NDR", "SDS", "NSCR"):
        assert math.isnan(r[name][1])
    assert (r["SRR"][2], r["NDR"][2], r["SDS"][2], r["NSCR"][2]) == (1.0, 0.0, 0.0, 0.0)


def test_rates_of_sums_below_one_are_defined():
    # expected counts (pass@k below 1) sum to less than one question in a small scope
    sums = np.array([[0.1, 0.3, 0.2, 0, 0, 0, 0], [0.3, 0.1, 0.2, 0, 0, 0, 0]])
    r = rates_from_sums(sums, 2)
    srr, ndr = np.array([0.1 / 0.3, 0.3 / 0.5]), np.array([0.3 / 0.4, 0.1 / 0.4])
    assert r["SRR"].tolist() == pytest.approx(srr.tolist())
    assert r["NDR"].tolist() == pytest.approx(ndr.tolist())
    # the harmonic mean whichever rate is larger, and whatever their sum
    assert r["SDS"].tolist() == pytest.approx((2 * srr * ndr / (srr + ndr)).tolist())
    assert r["NSCR"].tolist() == pytest.approx([0.1 / 0.6, -0.1 / 0.6])


def test_sds_is_undefined_when_either_rate_is():
    # nothing preserved or shrunk: SRR undefined, NDR = 1; nothing preserved or expanded:
    # NDR undefined, SRR = 0
    r = rates_from_sums(np.array([[0, 0.5, 0, 0, 0, 0, 0], [0, 0, 2.0, 0, 0, 0, 0]]), 2)
    assert math.isnan(r["SRR"][0]) and r["NDR"][0] == 1.0 and math.isnan(r["SDS"][0])
    assert r["SRR"][1] == 0.0 and math.isnan(r["NDR"][1]) and math.isnan(r["SDS"][1])
    assert (r["NSCR"][0], r["NSCR"][1]) == (1.0, -1.0)  # all expanded; all shrunk


def test_strata_group_positions_by_label():
    labels = np.array(["b", "a", "b", "c", "a"], dtype=object)
    got = bootstrap._strata(labels)
    assert [name for name, _ in got] == ["a", "b", "c"]
    assert [part.tolist() for _, part in got] == [[1, 4], [0, 2], [3]]
    assert [p.tolist() for _, p in bootstrap._strata(np.array([2, 2, 1]))] == [[2], [0, 1]]


def test_seeds_tell_data_and_extras_apart():
    a = np.array([0.25, 0.5])
    assert data_seed(a) == data_seed(a.copy()) == data_seed([0.25, 0.5])
    assert 0 <= data_seed(a) < 2**63
    assert data_seed(a) != data_seed(np.array([0.5, 0.25]))
    assert data_seed(a, extra=(1,)) != data_seed(a, extra=(2,))
    assert data_seed(a, a) != data_seed(np.r_[a, a])  # arrays are separated
    assert data_seed(np.array(["ab", "c"])) != data_seed(np.array(["a", "bc"]))


def test_percentile_resampling_draws_questions_with_replacement():
    part = np.eye(4)[:, [0, 1, 2, 3, 0, 1, 2]] * 1.0  # 4 questions x 7 columns
    sums = bootstrap._percentile_sums(part, 3000, 5, b"d" * 32)
    assert sums.shape == (3000, 7)
    counts = sums[:, :4]  # how often each question was drawn
    assert (counts.sum(axis=1) == 4).all()
    assert counts.mean(axis=0) == pytest.approx([1, 1, 1, 1], abs=0.06)
    assert counts.var(axis=0) == pytest.approx([0.75] * 4, abs=0.08)  # Binomial(4, 1/4)
    again = bootstrap._percentile_sums(part, 3000, 5, b"d" * 32)
    assert np.array_equal(sums, again)
    assert not np.array_equal(sums, bootstrap._percentile_sums(part, 3000, 5, b"d" * 32, 1))


def test_bayesian_weights_are_dirichlet_with_pseudo_questions():
    size = 5
    part = np.zeros((size, 7))
    part[:, 3] = 1.0  # pass@1 base 1 everywhere: its sum is always the questions' count
    part[0, 0] = 1.0  # question 0 in P
    sums = bootstrap._resample_sums(part, 20000, 2, b"e" * 32)
    assert sums[:, 3] == pytest.approx(np.full(20000, size))
    # P's sum: the question's Dirichlet weight plus a pseudo-question's, scaled to the
    # questions: mean size·(1 + 1/2)/(size + 3/2) of one Dirichlet(1,1,1,1,1,½,½,½)
    assert sums[:, 0].mean() == pytest.approx(size * 1.5 / (size + 1.5), rel=0.02)
    assert sums[:, 1].mean() == pytest.approx(size * 0.5 / (size + 1.5), rel=0.03)
    assert sums[:, 2].mean() == pytest.approx(size * 0.5 / (size + 1.5), rel=0.03)
    assert (sums[:, 4] == 0).all()  # pass@1 target: no pseudo-question there


def test_resamples_stop_when_the_monte_carlo_error_allows():
    assert stages(2000) == [250, 500, 1000, 2000]
    assert stages(100) == [100] and stages(300) == [250, 300] and stages(250) == [250]
    rng = np.random.default_rng(0)
    big = (rng.random(6000) < 0.7) * 1.0
    other = (rng.random(6000) < 0.8) * 1.0
    drawn = bootstrap_intervals(big, other, big, other, None, 2000, seed=1)
    assert drawn.resamples < 2000 and drawn.resamples % BLOCK == 0
    assert 0 < drawn.mc_error <= bootstrap.MC_SHARE
    # few questions: the ends lie in the tails, so all 2,000 are drawn
    few = bootstrap_intervals(big[:4], other[:4], big[:4], other[:4], None, 2000, seed=1)
    assert few.resamples == 2000
    # the first block is the same in every count: 250 asked gives the first stage's values
    first = bootstrap_intervals(big, other, big, other, None, 250, seed=1)
    assert first.resamples == 250
    # the Monte Carlo error measured is about the quantile's standard error
    ends = []
    for seed in range(12):
        one = bootstrap_intervals(big, other, big, other, None, 250, seed=seed)
        ends.append(one.ci["pass@1_diff"][0])
    half = np.diff(first.ci["pass@1_diff"])[0] / 2
    assert np.std(ends) / half == pytest.approx(first.mc_error, rel=1.0)


@pytest.mark.parametrize("draw", ["_percentile_sums", "_resample_sums"])
def test_chunked_draws_fill_every_resample(draw, monkeypatch):
    # many chunks (the percentile method draws the next one ahead in a thread): every
    # resample is a full, fresh weighting of the questions, and the same on a rerun
    monkeypatch.setattr(bootstrap, "_CELLS_PER_CHUNK", 40 * 4)  # chunks of 4 resamples
    part = np.zeros((40, 7))
    part[:, 3] = 1.0  # pass@1 base: the resample's total weight
    part[:, 0] = np.arange(40) / 40
    # 3,002 resamples: 750 chunks of 4 and a last one of 2
    sums = getattr(bootstrap, draw)(part, 3002, 9, b"f" * 32)
    assert sums.shape == (3002, 7)
    assert sums[:, 3] == pytest.approx(np.full(3002, 40.0))
    if draw == "_resample_sums":  # continuous weights: no two resamples alike
        assert np.unique(sums[:, 0]).size == 3002
    assert len({tuple(sums[i : i + 4, 0]) for i in range(0, 3002, 4)}) == 751
    if draw == "_percentile_sums":  # a question drawn with replacement: mean 39/80 each
        assert sums[:, 0].mean() == pytest.approx(40 * 39 / 80, rel=0.01)
    assert np.array_equal(sums, getattr(bootstrap, draw)(part, 3002, 9, b"f" * 32))


@pytest.mark.parametrize("draw", ["_resample_sums", "_percentile_sums"])
def test_each_block_of_resamples_is_a_fresh_draw(draw):
    # blocks of BLOCK resamples, each from its own generator: 2,000 resamples are 2,000
    # different weightings, not one block's 250 eight times over
    part = np.zeros((40, 7))
    part[:, 0] = np.arange(40) / 40
    blocks = [getattr(bootstrap, draw)(part, BLOCK, 9, b"f" * 32, index) for index in range(3)]
    for one in range(3):
        for other in range(one):
            assert not np.array_equal(blocks[one][:, 0], blocks[other][:, 0])


def _support_data(size: int = 300, seed: int = 4):
    rng = np.random.default_rng(seed)
    b = (rng.random(size) < 0.7) * 1.0
    t = (rng.random(size) < 0.75) * 1.0
    return b, t, rng.random(size), rng.random(size)


def test_interval_ends_and_their_error_are_the_resampled_values_quantiles():
    """Each interval is the α'/2 and 1 − α'/2 quantiles (numpy's linear interpolation) of
    the B resampled values; ``mc_error`` is the root mean square, over the ends, of each
    end's standard error read from the quantiles SPREAD binomial standard deviations
    either side (a quarter of their distance) as a share of the half-width."""
    b, t, p1_b, p1_t = _support_data()
    memo: dict = {}
    drawn = bootstrap_intervals(b, t, p1_b, p1_t, None, 500, 0.9, 3, memo=memo, mc_share=None)
    assert drawn.resamples == 500
    sums = np.concatenate([memo[key] for key in sorted(memo, key=lambda k: len(k[2]))])
    assert sums.shape == (500, 7)
    values = rates_from_sums(sums, b.size)
    alpha = bootstrap.expanded_alpha(0.1, b.size)
    shares = []
    for name in INTERVAL_NAMES:
        kept = values[name][~np.isnan(values[name])]
        ends = np.array([alpha / 2, 1 - alpha / 2])
        assert drawn.ci[name] == pytest.approx(np.quantile(kept, ends).tolist(), abs=1e-12)
        step = bootstrap.SPREAD * np.sqrt(ends * (1 - ends) / kept.size)
        below, above = np.quantile(kept, ends - step), np.quantile(kept, ends + step)
        half = (drawn.ci[name][1] - drawn.ci[name][0]) / 2
        shares += list((above - below) / 4 / half)
    assert drawn.mc_error == pytest.approx(math.sqrt(np.mean(np.square(shares))), rel=1e-9)


def test_a_memo_changes_no_interval_and_each_block_is_drawn_once():
    b, t, p1_b, p1_t = _support_data()
    plain = bootstrap_intervals(b, t, p1_b, p1_t, None, 1000, seed=2, mc_share=None)
    memo: dict = {}
    kept = bootstrap_intervals(b, t, p1_b, p1_t, None, 1000, seed=2, memo=memo, mc_share=None)
    assert kept == plain
    assert len(memo) == 4 and sum(v.shape[0] for v in memo.values()) == 1000
    again = bootstrap_intervals(b, t, p1_b, p1_t, None, 1000, seed=2, memo=memo, mc_share=None)
    assert again == plain  # read back from the memo


def test_a_count_between_blocks_draws_exactly_that_many():
    # 300 resamples: a block of 250 and one of 50, not two of 250
    b, t, p1_b, p1_t = _support_data()
    memo: dict = {}
    drawn = bootstrap_intervals(b, t, p1_b, p1_t, None, 300, seed=2, memo=memo, mc_share=None)
    assert drawn.resamples == 300
    assert sorted(v.shape[0] for v in memo.values()) == [50, 250]
    more = bootstrap_intervals(b, t, p1_b, p1_t, None, 500, seed=2, mc_share=None)
    assert more.ci != drawn.ci


def test_one_resample_gives_its_own_value_as_the_interval():
    b, t, p1_b, p1_t = _support_data()
    drawn = bootstrap_intervals(b, t, p1_b, p1_t, None, 1, seed=2, mc_share=None)
    assert drawn.resamples == 1
    for name in INTERVAL_NAMES:
        lo, hi = drawn.ci[name]
        assert lo == hi and math.isfinite(lo)


def test_a_statistic_that_never_varies_does_not_hold_the_draws_back():
    # every question's pass@1 is 1/2 for both models: their intervals have width 0, which
    # must count as no Monte Carlo error, so the rule still stops before all 4,000
    b, t, _, _ = _support_data(3000)
    half = np.full(b.size, 0.5)
    drawn = bootstrap_intervals(b, t, half, half, None, 4000, seed=2)
    assert drawn.ci["pass@1_base"] == pytest.approx([0.5, 0.5])
    assert drawn.resamples < 4000 and 0 < drawn.mc_error <= bootstrap.MC_SHARE


def test_no_questions_have_no_intervals_and_one_question_has_them():
    empty = bootstrap_intervals(*(np.zeros(0),) * 4, resamples=700)
    assert empty == (dict.fromkeys(INTERVAL_NAMES), 0, 0.0)
    one = bootstrap_intervals(*(np.ones(1),) * 4, resamples=300, mc_share=None)
    assert one.resamples == 300
    assert one.ci["pass@1_base"] == pytest.approx([1.0, 1.0])
    assert one.ci["SRR"] is not None and one.ci["SRR"][0] < 1.0  # the prior's pull
