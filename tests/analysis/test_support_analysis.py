"""Hand-computed cases for the support-dynamics maths (support_analysis)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pytest

from leash_tui.analysis.answer_stats import answer_distribution, gold_share_and_rank
from leash_tui.analysis.budget_curves import budget_curve, curve_budgets
from leash_tui.analysis.pass_at_k import epsilon, pass_at_k
from leash_tui.analysis.support import (
    compare_questions,
    expected_counts,
    missing_questions,
    summary_rows,
    support_rates,
)
from tests.support.counts_tables import counts_table
from tests.support.reference_entropy import answer_entropy


def exact_pass_at_k(n: int, c: int, k: int) -> Fraction:
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


# -- pass@k ----------------------------------------------------------------------------
def test_pass_at_k_hand_values():
    # n=4, c=1, k=2: 1 - C(3,2)/C(4,2) = 1 - 3/6
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5, abs=1e-15)
    # n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7, abs=1e-15)
    # n=10, c=3, k=4: 1 - C(7,4)/C(10,4) = 1 - 35/210
    assert pass_at_k(10, 3, 4) == pytest.approx(1 - 35 / 210, abs=1e-15)


def test_pass_at_k_closed_forms_are_exact():
    assert pass_at_k(7, 3, 1) == 3 / 7  # pass@1 is c/n exactly
    assert pass_at_k(8, 0, 5) == 0.0  # never correct
    assert pass_at_k(8, 4, 5) == 1.0  # fewer wrong samples (4) than k (5)
    assert pass_at_k(8, 1, 8) == 1.0  # k = n: in support iff c >= 1
    assert pass_at_k(8, 0, 8) == 0.0


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 20])
def test_pass_at_k_matches_exact_binomials(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            expected = float(exact_pass_at_k(n, c, k))
            assert pass_at_k(n, c, k) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_pass_at_k_large_n_matches_exact_binomials():
    for n, c, k in [(1024, 1, 512), (1024, 3, 1000), (8192, 1, 8191), (8192, 17, 64)]:
        assert pass_at_k(n, c, k) == pytest.approx(float(exact_pass_at_k(n, c, k)), rel=1e-10)


def test_pass_at_k_arrays_and_per_element_k():
    n = np.array([4, 4, 10])
    c = np.array([1, 0, 3])
    assert pass_at_k(n, c, 2).tolist() == pytest.approx([0.5, 0.0, 1 - 21 / 45])
    assert pass_at_k(n, c, np.array([1, 4, 4])).tolist() == pytest.approx([0.25, 0.0, 1 - 35 / 210])


@pytest.mark.parametrize(("n", "c", "k"), [(4, 1, 5), (4, 1, 0), (0, 0, 1), (4, 5, 2), (4, -1, 2)])
def test_pass_at_k_rejects_impossible_input(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_epsilon():
    assert epsilon(8192) == pytest.approx(3.657e-4, rel=1e-3)  # the spec's example
    assert epsilon(100, 0.01) == pytest.approx(math.log(100) / 100)
    with pytest.raises(ValueError):
        epsilon(0)
    with pytest.raises(ValueError):
        epsilon(10, 1.0)


# -- rates -----------------------------------------------------------------------------
def test_rates_hand_values():
    rates = support_rates(25, 0, 3, 2)  # the docs/interchange.md example row
    assert rates["SRR"] == pytest.approx(25 / 28)
    assert rates["NDR"] == 0.0
    assert rates["SDS"] == 0.0  # both defined, SRR + NDR > 0, NDR = 0
    assert rates["NSCR"] == pytest.approx(-3 / 28)
    rates = support_rates(6, 2, 3, 9)
    assert rates["SRR"] == pytest.approx(6 / 9)
    assert rates["NDR"] == pytest.approx(2 / 8)
    assert rates["SDS"] == pytest.approx(2 * (6 / 9) * (2 / 8) / (6 / 9 + 2 / 8))
    assert rates["NSCR"] == pytest.approx((2 - 3) / 11)


def test_rates_undefined_edge_cases():
    # nothing in anyone's support: every rate undefined (never 0)
    assert support_rates(0, 0, 0, 5) == {"SRR": None, "NDR": None, "SDS": None, "NSCR": None}
    # base never in support: SRR undefined, so SDS undefined; NDR = E/(P+E) = 1
    assert support_rates(0, 3, 0, 1) == {"SRR": None, "NDR": 1.0, "SDS": None, "NSCR": 1.0}
    # target never in support: NDR undefined; SRR = 0; NSCR = -1
    assert support_rates(0, 0, 4, 1) == {"SRR": 0.0, "NDR": None, "SDS": None, "NSCR": -1.0}
    # SRR undefined (P + S = 0) makes SDS undefined even when NDR is defined
    assert support_rates(0, 0, 1, 0)["SDS"] is None
    # SDS = 0 when one rate is 0 and the other positive
    assert support_rates(2, 0, 2, 0)["SDS"] == 0.0
    assert support_rates(0, 2, 0, 0) == {"SRR": None, "NDR": 1.0, "SDS": None, "NSCR": 1.0}


def test_expected_counts_sum_per_question():
    b = np.array([1.0, 0.5, 0.0])
    t = np.array([1.0, 0.25, 1.0])
    counts = expected_counts(b, t)
    assert counts["P"] == pytest.approx(1 + 0.125)
    assert counts["E"] == pytest.approx(0.125 + 1)
    assert counts["S"] == pytest.approx(0.375)
    assert counts["O"] == pytest.approx(0.375)


# -- per question ----------------------------------------------------------------------
def test_compare_questions_categories_and_fisher():
    counts = counts_table(
        [
            ("b", "1", "base", 4, 2), ("b", "1", "rl", 4, 4),  # P
            ("b", "2", "base", 4, 0), ("b", "2", "rl", 4, 1),  # E
            ("b", "3", "base", 4, 1), ("b", "3", "rl", 4, 0),  # S
            ("b", "4", "base", 4, 0), ("b", "4", "rl", 4, 0),  # O
            ("b", "5", "base", 4, 4),  # base only
        ]
    )  # fmt: skip
    q = compare_questions(counts, "base", "rl")
    assert q.column("question_id").to_pylist() == ["1", "2", "3", "4"]
    assert q.column("category").to_pylist() == ["P", "E", "S", "O"]
    assert q.column("k").to_pylist() == [4, 4, 4, 4]
    assert q.column("pass1_base").to_pylist() == [0.5, 0.0, 0.25, 0.0]
    assert q.column("passk_target").to_pylist() == [1.0, 1.0, 0.0, 0.0]
    # Fisher on [[2, 2], [4, 0]]: tables with row sums 4, 4 and column sums 6, 2;
    # P(x) for x = top-left in 2..4: C(6,x)C(2,4-x)/C(8,4) = 15/70, 40/70, 15/70;
    # observed x = 2 (15/70): as extreme are x = 2 and x = 4 -> 30/70
    assert q.column("fisher_p")[0].as_py() == pytest.approx(30 / 70)
    # [[0, 4], [0, 4]] has an empty column: p = 1; [[0,4],[1,3]]: x in 0..1, 1/2 each -> 1
    assert q.column("fisher_p")[3].as_py() == 1.0
    assert q.column("fisher_p")[1].as_py() == pytest.approx(1.0)
    assert missing_questions(counts, "base", "rl") == {"base": [("b", "5")], "rl": []}


def test_compare_questions_unequal_budgets_use_the_smaller():
    counts = counts_table([("b", "1", "base", 8, 1), ("b", "1", "rl", 4, 0)])
    q = compare_questions(counts, "base", "rl")
    assert q.column("k").to_pylist() == [4]
    # base at k=4 of 8 with 1 correct: 1 - C(7,4)/C(8,4) = 1 - 35/70 = 0.5 -> label in support
    assert q.column("passk_base").to_pylist() == [pytest.approx(0.5)]
    assert q.column("category").to_pylist() == ["S"]


def test_compare_questions_label_threshold_below_half():
    counts = counts_table([("b", "1", "base", 8, 1), ("b", "1", "rl", 8, 8)])
    q = compare_questions(counts, "base", "rl", k=2)
    # base pass@2 = 1 - C(7,2)/C(8,2) = 1 - 21/28 = 0.25 < 0.5 -> not in support -> E
    assert q.column("passk_base").to_pylist() == [pytest.approx(0.25)]
    assert q.column("category").to_pylist() == ["E"]


def test_compare_questions_rejects_k_above_a_question_budget():
    counts = counts_table([("b", "1", "base", 8, 1), ("b", "1", "rl", 4, 0)])
    with pytest.raises(ValueError, match="b/1"):
        compare_questions(counts, "base", "rl", k=5)


def test_compare_questions_unverified_question_has_no_category():
    counts = counts_table([("b", "1", "base", 0, 0), ("b", "1", "rl", 4, 1)])
    q = compare_questions(counts, "base", "rl")
    row = q.to_pylist()[0]
    assert row["k"] == 0
    assert row["category"] is None and row["passk_base"] is None and row["fisher_p"] is None
    assert summary_rows(q, {"b": "math"}, "base", "rl") == []


# -- summaries -------------------------------------------------------------------------
def four_question_counts() -> pa.Table:
    return counts_table(
        [
            ("x", "1", "base", 4, 2), ("x", "1", "rl", 4, 4),  # P
            ("x", "2", "base", 4, 0), ("x", "2", "rl", 4, 1),  # E
            ("y", "1", "base", 4, 1), ("y", "1", "rl", 4, 0),  # S
            ("y", "2", "base", 4, 3), ("y", "2", "rl", 4, 0),  # S
            ("z", "1", "base", 4, 0), ("z", "1", "rl", 4, 0),  # O
        ]
    )  # fmt: skip


def test_summary_rows_scopes_counts_and_rates():
    q = compare_questions(four_question_counts(), "base", "rl")
    rows = summary_rows(q, {"x": "math", "y": "math", "z": "logic"}, "base", "rl")
    assert [(r["scope"], r["name"]) for r in rows] == [
        ("benchmark", "x"), ("benchmark", "y"), ("benchmark", "z"),
        ("domain", "math"), ("domain", "logic"), ("overall", "overall"),
    ]  # fmt: skip
    x, y, z, math_, logic, overall = rows
    assert (x["N"], x["P"], x["E"], x["S"], x["O"]) == (2, 1, 1, 0, 0)
    assert (y["N"], y["P"], y["E"], y["S"], y["O"]) == (2, 0, 0, 2, 0)
    assert (z["P"], z["E"], z["S"], z["O"]) == (0, 0, 0, 1)
    assert all(isinstance(r[c], int) for r in rows for c in "PESO")
    # y: P + E = 0 -> NDR undefined, SDS undefined; SRR = 0; NSCR = -2/2
    assert (y["SRR"], y["NDR"], y["SDS"], y["NSCR"]) == (0.0, None, None, -1.0)
    assert (z["SRR"], z["NDR"], z["SDS"], z["NSCR"]) == (None, None, None, None)
    assert z["sign_test_p"] is None  # no discordant question
    # math = x + y, summed counts: P=1, E=1, S=2 -> SRR 1/3, NDR 1/2, NSCR -1/4
    assert (math_["N"], math_["P"], math_["E"], math_["S"], math_["O"]) == (4, 1, 1, 2, 0)
    assert math_["SRR"] == pytest.approx(1 / 3)
    assert math_["NDR"] == pytest.approx(1 / 2)
    assert math_["SDS"] == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    assert math_["NSCR"] == pytest.approx(-1 / 4)
    # sign test, math: S=2, E=1 -> 2 * P(X <= 1 | 3, 1/2) = 2 * 4/8 = 1
    assert math_["sign_test_p"] == pytest.approx(1.0)
    # y: S=2, E=0 -> 2 * (1/4) = 0.5
    assert y["sign_test_p"] == pytest.approx(0.5)
    assert logic["N"] == 1 and logic["O"] == 1
    assert (overall["N"], overall["P"], overall["E"], overall["S"], overall["O"]) == (5, 1, 1, 2, 1)
    assert overall["pass@1"]["base"] == pytest.approx((0.5 + 0 + 0.25 + 0.75 + 0) / 5)
    assert overall["pass@1"]["target"] == pytest.approx((1 + 0.25 + 0 + 0 + 0) / 5)
    assert overall["pass@k"] == {"base": pytest.approx(3 / 5), "target": pytest.approx(2 / 5)}
    assert overall["k"] == 4
    assert overall["token_entropy"] == {"base": None, "target": None}


def test_summary_rows_at_a_smaller_budget_are_expected_counts():
    q = compare_questions(four_question_counts(), "base", "rl", k=2)
    overall = summary_rows(q, {}, "base", "rl", k=2)[-1]
    assert overall["k"] == 2
    # pass@2 with n=4: c=0 -> 0, c=1 -> 1/2, c=2 -> 5/6, c>=3 -> 1
    b = np.array([5 / 6, 0, 1 / 2, 1, 0])
    t = np.array([1, 1 / 2, 0, 0, 0])
    assert overall["P"] == pytest.approx(float(np.sum(b * t)))
    assert overall["E"] == pytest.approx(float(np.sum((1 - b) * t)))
    assert overall["S"] == pytest.approx(float(np.sum(b * (1 - t))))
    assert overall["O"] == pytest.approx(float(np.sum((1 - b) * (1 - t))))
    assert all(isinstance(overall[c], float) for c in "PESO")
    assert overall["pass@k"]["base"] == pytest.approx(b.mean())
    # labels at k=2 (in support iff pass@2 >= 0.5): base in on 1, 3, 4; target on 1, 2
    # -> S = 2 (questions 3, 4), E = 1 (question 2): p = 1
    assert overall["sign_test_p"] == pytest.approx(1.0)


def test_scope_budget_is_the_smallest_question_budget():
    counts = counts_table(
        [("a", "1", "base", 8, 1), ("a", "1", "rl", 8, 0), ("a", "2", "base", 4, 0),
         ("a", "2", "rl", 4, 4)]
    )  # fmt: skip
    rows = summary_rows(compare_questions(counts, "base", "rl"), {}, "base", "rl")
    bench = rows[0]
    assert bench["k"] == 4
    # question 1 at k=4 of 8 with one correct: 1 - C(7,4)/C(8,4) = 1/2
    assert bench["S"] == pytest.approx(0.5) and bench["O"] == pytest.approx(0.5)
    assert bench["E"] == pytest.approx(1.0) and bench["P"] == pytest.approx(0.0)
    assert isinstance(bench["P"], float)


def test_budget_curve_default_budgets_and_exact_end_point():
    q = compare_questions(four_question_counts(), "base", "rl")
    curve = budget_curve(q)
    assert curve.column("k").to_pylist() == [1, 2, 4]
    last = curve.to_pylist()[-1]
    assert (last["P"], last["E"], last["S"], last["O"]) == (1.0, 1.0, 2.0, 1.0)
    first = curve.to_pylist()[0]
    # at k=1 pass@k = c/n: base (2,0,1,3,0)/4, target (4,1,0,0,0)/4
    b = np.array([2, 0, 1, 3, 0]) / 4
    t = np.array([4, 1, 0, 0, 0]) / 4
    assert first["P"] == pytest.approx(float(np.sum(b * t)))
    assert first["passk_base"] == pytest.approx(b.mean())
    assert budget_curve(q, ks=[3]).column("k").to_pylist() == [3]
    with pytest.raises(ValueError):
        budget_curve(q, ks=[5])


def test_curve_budgets():
    assert curve_budgets(1) == [1]
    assert curve_budgets(8) == [1, 2, 4, 8]
    assert curve_budgets(10) == [1, 2, 4, 8, 10]


# -- answers ---------------------------------------------------------------------------
def test_answer_distribution_merges_correct_and_counts_na():
    answers = ["1/2", "0.5", "1/2", None, "", "7", "7", "7"]
    correct = [True, True, True, False, False, False, False, False]
    dist = answer_distribution(answers, correct)
    assert dist == [("1/2", 3, True), ("7", 3, False), ("NA", 2, False)]
    # classes 3, 3, 2 of 8
    expected = -(2 * (3 / 8) * math.log(3 / 8) + (2 / 8) * math.log(2 / 8))
    assert answer_entropy(answers, correct) == pytest.approx(expected)
    assert gold_share_and_rank(answers, correct) == (3 / 8, 1)  # tied first -> rank 1


def test_gold_rank_and_edge_cases():
    answers = ["7", "7", "7", "42", "8", "8", "9"]
    correct = [False, False, False, True, False, False, False]
    assert gold_share_and_rank(answers, correct) == (1 / 7, 3)  # "7" (3) and "8" (2) above
    assert gold_share_and_rank(["7"], [False]) == (0.0, None)
    assert gold_share_and_rank([], []) == (None, None)
    assert answer_entropy([], []) is None
    assert answer_entropy(["5", "5"], [True, True]) == 0.0
    assert answer_distribution([None], [False]) == [("NA", 1, False)]
