"""Paired bootstrap intervals: scipy.stats.bootstrap's percentile method, strata, seeds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from leash_tui.analysis.bootstrap import (
    INTERVAL_NAMES,
    data_seed,
    expanded_alpha,
    paired_bootstrap,
)
from leash_tui.analysis.pass_at_k import pass_at_k


def _questions(size=60, seed=1):
    rng = np.random.default_rng(seed)
    n = np.full(size, 8)
    c_b = rng.binomial(8, rng.uniform(0, 0.6, size))
    c_t = rng.binomial(8, rng.uniform(0, 0.8, size))
    return n, c_b, c_t


def _nscr(b, t, axis=-1):
    p, e, s = (b * t).sum(axis), ((1 - b) * t).sum(axis), (b * (1 - t)).sum(axis)
    return (e - s) / (p + e + s)


def _srr(b, t, axis=-1):
    p, s = (b * t).sum(axis), (b * (1 - t)).sum(axis)
    return p / (p + s)


@pytest.mark.parametrize("k", [1, 8])
def test_matches_scipy_paired_percentile_bootstrap(k):
    n, c_b, c_t = _questions()
    b, t = pass_at_k(n, c_b, k), pass_at_k(n, c_t, k)
    ours = paired_bootstrap(
        b, t, c_b / n, c_t / n, resamples=20_000, seed=3, method="percentile", mc_share=None
    )
    for name, statistic in (("NSCR", _nscr), ("SRR", _srr)):
        ref = stats.bootstrap(
            (b, t), statistic, paired=True, vectorized=True, n_resamples=20_000,
            method="percentile", confidence_level=0.95, random_state=7,
        ).confidence_interval  # fmt: skip
        assert ours[name] == pytest.approx([ref.low, ref.high], abs=0.02)
    diff = stats.bootstrap(
        (c_b / n, c_t / n), lambda x, y, axis=-1: y.mean(axis) - x.mean(axis), paired=True,
        vectorized=True, n_resamples=20_000, method="percentile", random_state=7,
    ).confidence_interval  # fmt: skip
    assert ours["pass@1_diff"] == pytest.approx([diff.low, diff.high], abs=0.01)


def test_interval_contains_the_point_and_narrows_with_more_questions():
    n, c_b, c_t = _questions(40)
    small = paired_bootstrap(pass_at_k(n, c_b, 8), pass_at_k(n, c_t, 8), c_b / n, c_t / n)
    n4, c_b4, c_t4 = (np.tile(a, 16) for a in (n, c_b, c_t))
    big = paired_bootstrap(pass_at_k(n4, c_b4, 8), pass_at_k(n4, c_t4, 8), c_b4 / n4, c_t4 / n4)
    point = c_t.mean() / 8 - c_b.mean() / 8
    for ci in (small, big):
        lo, hi = ci["pass@1_diff"]
        assert lo <= point <= hi
    assert np.diff(big["NSCR"])[0] < 0.5 * np.diff(small["NSCR"])[0]


def test_strata_are_resampled_within_themselves():
    # one benchmark all preserved, the other all shrunk: with benchmark strata every
    # resample keeps 10 P and 10 S, so SRR is exactly 0.5; without, it varies
    b = np.ones(20)
    t = np.r_[np.ones(10), np.zeros(10)]
    strata = np.array(["a"] * 10 + ["b"] * 10)
    within = paired_bootstrap(b, t, b, t, strata, resamples=500, method="percentile")
    assert within["SRR"] == pytest.approx([0.5, 0.5])
    pooled = paired_bootstrap(b, t, b, t, None, resamples=500, method="percentile")
    assert pooled["SRR"][0] < 0.45 and pooled["SRR"][1] > 0.55
    # the Bayesian bootstrap only moves within strata by its pseudo-questions' weight
    bayes_within = paired_bootstrap(b, t, b, t, strata, resamples=2000)
    bayes_pooled = paired_bootstrap(b, t, b, t, None, resamples=2000)
    assert np.diff(bayes_within["SRR"])[0] < 0.7 * np.diff(bayes_pooled["SRR"])[0]


def test_undefined_rate_has_no_interval():
    zero = np.zeros(5)
    ci = paired_bootstrap(zero, zero, zero, zero, resamples=50)
    assert ci["SRR"] is None and ci["NSCR"] is None
    assert ci["pass@1_diff"] == [0.0, 0.0]
    assert set(ci) == set(INTERVAL_NAMES)


def test_seed_is_a_function_of_the_data():
    n, c_b, c_t = _questions()
    assert data_seed(n, c_b, c_t, extra=(8,)) == data_seed(n.copy(), c_b.copy(), c_t, extra=(8,))
    assert data_seed(n, c_b, c_t, extra=(8,)) != data_seed(n, c_t, c_b, extra=(8,))
    assert data_seed(np.array(["a", "b"])) != data_seed(np.array(["b", "a"]))


def test_a_rate_at_the_boundary_has_an_interval_about_jeffreys():
    # 27 P, 0 E, 3 S of 30: NDR = 0 on the data; the percentile bootstrap gives [0, 0] (it
    # misses any NDR above 0), the Bayesian bootstrap with its pseudo-questions does not
    b = np.r_[np.ones(30)]
    t = np.r_[np.ones(27), np.zeros(3)]
    flat = paired_bootstrap(b, t, t, t, resamples=4000, method="percentile")
    assert flat["NDR"] == [0.0, 0.0]
    ours = paired_bootstrap(b, t, t, t, resamples=4000)
    assert ours["NDR"][0] == pytest.approx(0.0, abs=1e-3)
    # Jeffreys' upper bound of 0 of 27 (plus the pseudo-questions' small share) at the
    # expanded tail: near stats.beta(0.5, 27.5)'s
    jeffreys = stats.beta.ppf(1 - expanded_alpha(0.05, 30) / 2, 0.5, 27.5)
    assert ours["NDR"][1] == pytest.approx(jeffreys, rel=0.25)
    assert ours["SRR"][0] < 0.9 < ours["SRR"][1] < 1.0


@pytest.mark.parametrize("n", [3, 4, 6, 10, 30, 120, 500])
def test_expanded_alpha_is_hesterbergs(n):
    stretched = np.sqrt((n + 1) / (n - 1)) * stats.t.ppf(0.025, n - 1)
    # the t quantile's expansion is looser at 3 degrees of freedom (n = 4)
    tolerance = 0.05 if n == 4 else 2e-3
    assert expanded_alpha(0.05, n) == pytest.approx(2 * stats.norm.cdf(stretched), rel=tolerance)
    assert expanded_alpha(0.05, n) < 0.05
    assert expanded_alpha(0.05, 2) == 0.05  # no t at one degree of freedom's extremes


def test_bad_arguments_are_refused():
    one = np.ones(3)
    with pytest.raises(ValueError, match="at least 1"):
        paired_bootstrap(one, one, one, one, resamples=0)
    for level in (0.0, 1.0, -0.5, 1.5):
        with pytest.raises(ValueError, match="level"):
            paired_bootstrap(one, one, one, one, level=level)
    with pytest.raises(ValueError, match="method"):
        paired_bootstrap(one, one, one, one, method="bca")


def test_rows_of_one_report_share_each_benchmarks_resamples():
    # a domain or overall row is stratified by benchmark, so its resamples are the sums of
    # its benchmarks' own: drawn once for the report, the same intervals as drawn afresh
    n, c_b, c_t = _questions(90, seed=4)
    b, t = pass_at_k(n, c_b, 4), pass_at_k(n, c_t, 4)
    strata = np.array(["alg"] * 40 + ["geo"] * 50)
    memo: dict = {}
    rows = [strata == "alg", strata == "geo", np.ones(90, dtype=bool)]
    shared = [
        paired_bootstrap(b[r], t[r], c_b[r] / 8, c_t[r] / 8, strata[r], 400, memo=memo)
        for r in rows[:2]
    ]
    drawn = len(memo)
    shared.append(paired_bootstrap(b, t, c_b / 8, c_t / 8, strata, 400, memo=memo))
    assert len(memo) == drawn  # the overall row drew nothing new
    fresh = [paired_bootstrap(b[r], t[r], c_b[r] / 8, c_t[r] / 8, strata[r], 400) for r in rows]
    assert shared == fresh


def test_equal_strata_still_draw_independently():
    # two benchmarks with the same values must not share their draws (that would double
    # the overall row's variance); their labels seed them apart
    b = np.tile([1.0, 0.0, 1.0, 1.0, 0.0], 8)
    t = np.tile([1.0, 1.0, 0.0, 1.0, 0.0], 8)
    memo: dict = {}
    strata = np.array(["a"] * 40 + ["b"] * 40)
    paired_bootstrap(np.r_[b, b], np.r_[t, t], np.r_[b, b], np.r_[t, t], strata, 200, memo=memo)
    first, second = memo.values()
    assert not np.array_equal(first, second)
