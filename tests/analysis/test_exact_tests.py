"""Fisher's exact test and the sign test: hand values, and agreement with scipy.stats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leash_tui.analysis.exact_tests import (
    fisher_exact_two_sided,
    log_factorials,
    sign_test_two_sided,
)

scipy_stats = pytest.importorskip("scipy.stats")


def test_log_factorials():
    lf = log_factorials(20)
    assert lf[0] == 0.0 and lf[1] == 0.0
    assert lf[20] == pytest.approx(math.log(math.factorial(20)), rel=1e-15)


def test_fisher_hand_values():
    # [[3, 1], [1, 3]]: row/col sums 4; P(x) = C(4,x)C(4,4-x)/70 = 1,16,36,16,1 /70;
    # observed x=3 (16/70): as extreme: x in {0, 1, 3, 4} -> 34/70
    assert fisher_exact_two_sided([3], [1], [1], [3])[0] == pytest.approx(34 / 70)
    # a perfectly balanced table is the most likely one: p = 1
    assert fisher_exact_two_sided([2], [2], [2], [2])[0] == pytest.approx(1.0)
    # one success in 8192 against none in 8192: weak evidence
    assert fisher_exact_two_sided([1], [8191], [0], [8192])[0] == pytest.approx(1.0)
    # empty row or column: p = 1
    assert fisher_exact_two_sided([0, 0, 5], [0, 5, 0], [0, 0, 5], [0, 5, 0]).tolist() == [1, 1, 1]


def test_fisher_repeated_tables_and_empty_input():
    p = fisher_exact_two_sided([3, 0, 3], [1, 4, 1], [1, 4, 1], [3, 0, 3])
    assert p[0] == p[2] == pytest.approx(34 / 70)
    assert fisher_exact_two_sided([], [], [], []).size == 0
    with pytest.raises(ValueError):
        fisher_exact_two_sided([-1], [1], [1], [1])


cells = st.integers(min_value=0, max_value=60)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(cells, cells, cells, cells), min_size=1, max_size=8))
def test_fisher_matches_scipy(tables):
    a, b, c, d = (np.array(col) for col in zip(*tables, strict=True))
    ours = fisher_exact_two_sided(a, b, c, d)
    for i, table in enumerate(tables):
        expected = scipy_stats.fisher_exact([[table[0], table[1]], [table[2], table[3]]]).pvalue
        assert ours[i] == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_fisher_matches_scipy_at_report_sizes():
    rng = np.random.default_rng(7)
    n = 1024
    c_b, c_t = rng.integers(0, n + 1, 40), rng.integers(0, n + 1, 40)
    c_b[:5], c_t[:5] = [0, 1, 2, 1023, 1024], [1, 0, 0, 1024, 1000]
    ours = fisher_exact_two_sided(c_b, n - c_b, c_t, n - c_t)
    for i in range(c_b.size):
        table = [[c_b[i], n - c_b[i]], [c_t[i], n - c_t[i]]]
        assert ours[i] == pytest.approx(scipy_stats.fisher_exact(table).pvalue, rel=1e-9)


def test_sign_test_hand_values():
    assert sign_test_two_sided(3, 0)[0] == pytest.approx(2 / 8)  # 2 * (1/2)^3
    assert sign_test_two_sided(0, 5)[0] == pytest.approx(2 / 32)
    assert sign_test_two_sided(4, 1)[0] == pytest.approx(2 * 6 / 32)
    assert sign_test_two_sided(2, 2)[0] == 1.0
    assert math.isnan(sign_test_two_sided(0, 0)[0])  # no discordant question: no test


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300))
def test_sign_test_matches_scipy_binomtest(s, e):
    ours = sign_test_two_sided(s, e)[0]
    if s + e == 0:
        assert math.isnan(ours)
        return
    expected = scipy_stats.binomtest(s, s + e, 0.5).pvalue
    assert ours == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_fisher_tables_too_wide_to_pack_match_scipy_and_the_packed_ones():
    """Cells past 2^15 cannot be packed four to an int64: those tables go by rows, with
    the same p-values (and a table repeated among them is still computed once)."""
    big = 40_000
    a, b = np.array([3, big, 3, 7]), np.array([1, 5, 1, big - 7])
    c, d = np.array([1, big - 10, 1, 2]), np.array([3, 12, 3, big])
    wide = fisher_exact_two_sided(a, b, c, d)
    for i in range(a.size):
        table = [[a[i], b[i]], [c[i], d[i]]]
        assert wide[i] == pytest.approx(scipy_stats.fisher_exact(table).pvalue, rel=1e-9)
    assert wide[0] == wide[2] == fisher_exact_two_sided([3], [1], [1], [3])[0]
