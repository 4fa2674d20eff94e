"""The report's per-question answer columns, a row's entropies and a row's intervals
(``analysis.support``), from hand-built tables: every value is checked against what the
rows hold, and the intervals against leash's own bootstrap of the same questions."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest
from scipy import stats

from leash_tui.analysis.bootstrap import bootstrap_intervals, data_seed
from leash_tui.analysis.estimators import support_probability
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import (
    add_answer_columns,
    compare_questions,
    drawn_fields,
    expected_counts,
    in_support,
    scope_intervals,
    scope_tables,
    summary_row,
    summary_rows,
    support_rates,
)
from leash_tui.analysis.support_names import INTERVAL_NAMES
from tests.support.counts_tables import counts_table

ROLES = ("base", "target")
# (benchmark, qid, n_base, c_base, n_target, c_target); rows deliberately out of order
QUESTIONS = [
    ("m", "2", 4, 1, 4, 3),
    ("g", "1", 4, 0, 4, 2),
    ("m", "1", 4, 4, 4, 0),
    ("g", "2", 4, 2, 4, 2),
]


def counts(rows: list[tuple]) -> pa.Table:
    out = []
    for bench, qid, n_b, c_b, n_t, c_t in rows:
        out += [(bench, qid, "b", n_b, c_b), (bench, qid, "t", n_t, c_t)]
    return counts_table(out)


def answer_stats(rows: list[tuple]) -> pa.Table:
    """(model, benchmark, qid, gold_share, gold_rank, answer_entropy, token sum, token n)."""
    names = (
        "model",
        "benchmark",
        "question_id",
        "gold_share",
        "gold_rank",
        "answer_entropy",
        "token_entropy_sum",
        "token_entropy_n",
    )
    types = (pa.string(),) * 3 + (pa.float64(), pa.int64(), pa.float64(), pa.float64())
    types += (pa.int64(),)
    return pa.table(
        {
            name: pa.array([r[i] for r in rows], kind)
            for i, (name, kind) in enumerate(zip(names, types, strict=True))
        }
    )


STATS = answer_stats(
    [
        ("b", "m", "2", 0.25, 2, 1.5, 3.0, 4),
        ("t", "m", "2", 0.75, 1, 0.8, 2.0, 1),
        ("b", "g", "1", 0.0, None, 0.0, 0.0, 0),  # no token entropies recorded
        ("t", "g", "1", 0.5, 1, 1.0, 6.0, 3),
        ("b", "m", "1", 1.0, 1, 0.0, 1.0, 2),
        ("t", "x", "9", 0.1, 3, 2.0, 9.0, 9),  # a question the pair does not share
        ("other", "m", "2", 0.9, 1, 9.0, 9.0, 1),  # another model's stats
    ]
)


def test_answer_columns_are_each_roles_own_stats_in_question_order():
    questions = compare_questions(counts(QUESTIONS), "b", "t")
    out = add_answer_columns(questions, STATS, "b", "t")
    assert out.num_rows == len(QUESTIONS)
    keys = list(
        zip(out.column("benchmark").to_pylist(), out.column("question_id").to_pylist(), strict=True)
    )
    assert keys == [("g", "1"), ("g", "2"), ("m", "1"), ("m", "2")]
    assert out.column_names[: len(questions.column_names)] == questions.column_names
    rows = {(r["benchmark"], r["question_id"]): r for r in out.to_pylist()}
    m2 = rows[("m", "2")]
    assert (m2["gold_share_base"], m2["gold_rank_base"], m2["answer_entropy_base"]) == (
        0.25,
        2,
        1.5,
    )
    assert m2["token_entropy_base"] == pytest.approx(3.0 / 4)
    assert (m2["gold_share_target"], m2["gold_rank_target"], m2["answer_entropy_target"]) == (
        0.75,
        1,
        0.8,
    )
    assert m2["token_entropy_target"] == pytest.approx(2.0)
    g1 = rows[("g", "1")]
    assert g1["token_entropy_base"] is None  # no token entropies: null, not 0/0
    assert (g1["gold_share_base"], g1["gold_rank_base"]) == (0.0, None)
    assert g1["token_entropy_target"] == pytest.approx(2.0)
    m1 = rows[("m", "1")]
    assert m1["token_entropy_base"] == pytest.approx(0.5)
    assert [m1[f"{f}_target"] for f in ("gold_share", "gold_rank", "token_entropy")] == [None] * 3
    g2 = rows[("g", "2")]  # no stats at all for either model
    assert all(g2[f"{f}_{r}"] is None for f in ("gold_share", "token_entropy") for r in ROLES)
    # the question columns are untouched
    assert (
        out.select(questions.column_names).sort_by(
            [("benchmark", "ascending"), ("question_id", "ascending")]
        )
        == questions
    )


def entropy_stats(rows: list[tuple]) -> pa.Table:
    """(benchmark, qid, token sum, token n, answer entropy) as question_answer_stats."""
    return pa.table(
        {
            "benchmark": [r[0] for r in rows],
            "question_id": [r[1] for r in rows],
            "token_entropy_sum": pa.array([r[2] for r in rows], pa.float64()),
            "token_entropy_n": pa.array([r[3] for r in rows], pa.int64()),
            "answer_entropy": pa.array([r[4] for r in rows], pa.float64()),
        }
    )


def test_a_rows_entropies_are_each_models_own_and_none_over_one_sample():
    """Token entropy: the mean over samples; answer entropy: the mean over questions,
    None for a model with one sample per question (every answer entropy is then 0)."""
    rows = [(b, q, 1, int(c > 0), 4, ct) for (b, q, _, c, _, ct) in QUESTIONS]  # base: 1 each
    questions = compare_questions(counts(rows), "b", "t")
    base = entropy_stats([("m", "1", 2.0, 1, 0.0), ("g", "1", 4.0, 1, 0.0)])
    target = entropy_stats([("m", "1", 3.0, 4, 1.0), ("g", "1", 1.0, 2, 0.5), ("m", "2", 0, 0, 0)])
    row = summary_row(questions, "overall", "overall", "b", "t", 1, {"b": base, "t": target})
    assert row["token_entropy"]["base"] == pytest.approx(6.0 / 2)
    assert row["answer_entropy"]["base"] is None
    assert row["token_entropy"]["target"] == pytest.approx(4.0 / 6)
    assert row["answer_entropy"]["target"] == pytest.approx(1.5 / 3)
    only_target = summary_row(questions, "overall", "overall", "b", "t", 1, {"t": target})
    assert only_target["token_entropy"]["base"] is None
    assert only_target["answer_entropy"]["target"] == pytest.approx(0.5)
    two = [(b, q, 4, c, 2, min(ct, 2)) for (b, q, _, c, _, ct) in QUESTIONS]  # target: 2 each
    row = summary_row(compare_questions(counts(two), "b", "t"), "overall", "overall", "b", "t")
    entropies = {"b": base, "t": target}
    assert row["answer_entropy"] == {"base": None, "target": None}  # no entropies passed
    row = summary_row(
        compare_questions(counts(two), "b", "t"), "overall", "overall", "b", "t", 2, entropies
    )
    assert row["answer_entropy"]["target"] == pytest.approx(1.5 / 3)  # two samples: a measure
    plain = summary_row(questions, "overall", "overall", "b", "t", 1)
    assert plain["token_entropy"] == plain["answer_entropy"] == {"base": None, "target": None}
    assert "support_threshold" not in plain


def many_questions(size: int = 60, seed: int = 5) -> pa.Table:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(size):
        c_b, c_t = rng.integers(0, 9, size=2)
        rows += [("m" if i % 3 else "g", str(i), "b", 8, int(c_b))]
        rows += [("m" if i % 3 else "g", str(i), "t", 8, int(c_t))]
    return compare_questions(counts_table(rows), "b", "t")


def test_a_rows_intervals_are_leashs_bootstrap_of_its_questions():
    """The row's ``ci`` is the bootstrap of the scope's per-question support probabilities
    and pass@1, each benchmark a stratum, seeded by the budget, threshold and resamples:
    what anyone calling the bootstrap on the same questions gets."""
    questions = many_questions()
    n_b, c_b = (questions.column(c).to_numpy() for c in ("n_base", "c_base"))
    n_t, c_t = (questions.column(c).to_numpy() for c in ("n_target", "c_target"))
    bench = questions.column("benchmark").to_numpy(zero_copy_only=False)
    for budget, tau, resamples, level in ((2, 0.0, 1000, 0.95), (4, 0.5, 500, 0.9)):
        ci = scope_intervals(questions, budget, tau, resamples, level)
        pk_b, pk_t = pass_at_k(n_b, c_b, budget), pass_at_k(n_t, c_t, budget)
        b = pk_b if tau == 0 else support_probability(n_b, c_b, budget, tau)
        t = pk_t if tau == 0 else support_probability(n_t, c_t, budget, tau)
        seed = data_seed(extra=(budget, tau, resamples))
        drawn = bootstrap_intervals(
            b, t, c_b / n_b, c_t / n_t, bench, resamples, level, seed, pk_b, pk_t
        )
        assert ci == {"level": level, **drawn_fields(drawn, resamples), **drawn.ci}
        assert list(ci) == ["level", "resamples", "mc_error", *INTERVAL_NAMES]
        assert 0 < ci["resamples"] <= resamples
        # the pass@k intervals hold the pass@k means, the pass@1 ones the pass@1 means
        for name, point in (
            ("pass@k_base", pk_b.mean()),
            ("pass@k_target", pk_t.mean()),
            ("pass@1_base", (c_b / n_b).mean()),
            ("pass@1_target", (c_t / n_t).mean()),
        ):
            lo, hi = ci[name]
            assert lo <= point <= hi, (budget, tau, name)


def test_intervals_at_a_threshold_are_of_the_threshold_support_and_of_pass_at_k():
    """τ = 1 at budget 4: a question is in support only when all 4 samples are correct, far
    rarer than one success; the SRR interval follows the threshold, pass@k's does not."""
    questions = many_questions(90)
    at_one = scope_intervals(questions, 4, 1.0, 1000)
    plain = scope_intervals(questions, 4, 0.0, 1000)
    n_b, c_b = (questions.column(c).to_numpy() for c in ("n_base", "c_base"))
    strict = support_probability(n_b, c_b, 4, 1.0).mean()
    loose = pass_at_k(n_b, c_b, 4).mean()
    assert strict < loose - 0.2
    for ci in (at_one, plain):  # pass@k does not depend on the threshold
        assert ci["pass@k_base"][0] <= loose <= ci["pass@k_base"][1]
        assert not ci["pass@k_base"][0] <= strict <= ci["pass@k_base"][1]
    assert at_one["SRR"] != plain["SRR"]


def test_drawn_fields_say_the_resamples_used_and_the_rounded_error():
    questions = many_questions()
    fields = drawn_fields(
        bootstrap_intervals(*(np.zeros(0),) * 4, resamples=700), 700
    )  # no questions: nothing drawn, the asked count stands
    assert fields == {"resamples": 700, "mc_error": 0.0}
    ci = scope_intervals(questions, 2, 0.0, 4000)
    assert ci["resamples"] in (250, 500, 1000, 2000, 4000)
    assert ci["mc_error"] == round(ci["mc_error"], 4) and 0 < ci["mc_error"] <= 0.1


def test_summary_rows_give_every_scope_the_pairs_budget_threshold_and_entropies():
    """A budget below the questions' own (4 samples each, asked at 2), a threshold, and
    entropies reach every row; a benchmark the domains do not name is in "math"."""
    questions = compare_questions(counts(QUESTIONS), "b", "t")
    base = entropy_stats([("m", "1", 2.0, 1, 0.3), ("g", "1", 4.0, 2, 0.1)])
    target = entropy_stats([("m", "2", 1.5, 1, 0.2)])  # one sample's token entropy
    entropies = {"b": base, "t": target}
    rows = summary_rows(questions, {"m": "code"}, "b", "t", 2, entropies, 0.5)
    assert [(r["scope"], r["name"]) for r in rows] == [
        ("benchmark", "m"),
        ("benchmark", "g"),
        ("domain", "code"),
        ("domain", "math"),
        ("overall", "overall"),
    ]
    for row, (scope, name, part) in zip(rows, scope_tables(questions, {"m": "code"}), strict=True):
        assert row == summary_row(part, scope, name, "b", "t", 2, entropies, 0.5)
        assert (row["base"], row["target"], row["k"], row["support_threshold"]) == (
            "b",
            "t",
            2,
            0.5,
        )
    overall = rows[-1]
    n_b, c_b = (questions.column(c).to_numpy() for c in ("n_base", "c_base"))
    n_t, c_t = (questions.column(c).to_numpy() for c in ("n_target", "c_target"))
    at_half = expected_counts(
        support_probability(n_b, c_b, 2, 0.5), support_probability(n_t, c_t, 2, 0.5)
    )
    assert {c: overall[c] for c in "PESO"} == pytest.approx(at_half)
    assert overall["pass@k"]["base"] == pytest.approx(pass_at_k(n_b, c_b, 2).mean())
    assert overall["token_entropy"] == {"base": pytest.approx(6.0 / 3), "target": 1.5}
    assert overall["answer_entropy"] == {"base": pytest.approx(0.2), "target": 0.2}


def test_summary_rows_with_one_models_entropies():
    questions = compare_questions(counts(QUESTIONS), "b", "t")
    target = entropy_stats([("m", "2", 1.5, 3, 0.2), ("g", "1", 0.5, 1, 0.4)])
    overall = summary_rows(questions, {}, "b", "t", None, {"t": target})[-1]
    assert overall["token_entropy"] == {"base": None, "target": pytest.approx(2.0 / 4)}
    assert overall["answer_entropy"] == {"base": None, "target": pytest.approx(0.3)}


def test_sds_is_the_harmonic_mean_of_equal_rates_and_of_rates_summing_to_one():
    assert support_rates(1, 1, 1, 0)["SDS"] == pytest.approx(0.5)  # SRR = NDR = 1/2
    rates = support_rates(3, 1, 1, 5)  # SRR 3/4, NDR 1/4: their sum is 1
    assert (rates["SRR"], rates["NDR"]) == (0.75, 0.25)
    assert rates["SDS"] == pytest.approx(2 * 0.75 * 0.25)


def test_a_budget_above_the_samples_is_refused_with_both_numbers():
    questions = compare_questions(counts(QUESTIONS), "b", "t")
    with pytest.raises(
        ValueError, match="k = 5 is larger than the smallest verified sample count 4"
    ):
        summary_row(questions, "overall", "overall", "b", "t", 5)


def test_counts_are_whole_only_when_both_models_hold_exactly_the_budget():
    # base 4 samples, target 8, at k = 4: the target's support is a probability
    rows = [("m", str(i), 4, c, 8, c) for i, c in enumerate((0, 1, 2, 4))]
    questions = compare_questions(counts(rows), "b", "t", k=4)
    row = summary_row(questions, "overall", "overall", "b", "t", 4)
    target = pass_at_k(np.full(4, 8), np.array([0, 1, 2, 4]), 4)
    base = (np.array([0, 1, 2, 4]) > 0) * 1.0
    assert {c: row[c] for c in "PESO"} == pytest.approx(expected_counts(base, target))
    assert not any(isinstance(row[c], int) for c in "PESO")
    assert row["P"] != round(row["P"])


def test_a_question_at_pass_at_k_one_half_is_labelled_in_support():
    """The label takes in-support iff pass@k >= 0.5: at n = 4, c = 1, k = 2 pass@k is
    exactly 1/2, so three such base questions the target never solves are three S in the
    sign test (p = 2/8), not three O (no discordant question: no p)."""
    rows = [("m", str(i), 4, 1, 4, 0) for i in range(3)]
    questions = compare_questions(counts(rows), "b", "t", k=2)
    assert questions.column("category").to_pylist() == ["S"] * 3
    row = summary_row(questions, "overall", "overall", "b", "t", 2)
    assert row["sign_test_p"] == pytest.approx(0.25)


def test_in_support_on_its_own_is_the_hypergeometric_tail():
    """Without a pass@k given (the report's threshold blocks call it so): the chance that
    k of the n samples, drawn without replacement, hold at least max(1, ceil(tau k))
    correct ones; tau = 0 by default (pass@k)."""
    n, c, k = np.array([8, 8, 10, 5, 6]), np.array([0, 3, 5, 5, 1]), 4
    for tau in (0.0, 0.5, 1.0):
        need = max(1, math.ceil(tau * k))
        expected = stats.hypergeom.sf(need - 1, n, c, k)
        assert in_support(n, c, k, tau).tolist() == pytest.approx(expected.tolist())
    assert in_support(n, c, k).tolist() == pytest.approx(pass_at_k(n, c, k).tolist())


def test_a_scope_without_questions_has_no_intervals_and_says_the_resamples_asked():
    empty = many_questions().slice(0, 0)
    ci = scope_intervals(empty, 2, 0.0, 700)
    assert ci == {"level": 0.95, "resamples": 700, "mc_error": 0.0} | dict.fromkeys(INTERVAL_NAMES)


def test_per_question_columns_of_verified_and_unverified_questions():
    rows = [
        ("a", "1", 4, 1, 4, 2),
        ("a", "2", 1, 1, 1, 0),  # one sample each: the budget is 1
        ("a", "3", 0, 0, 4, 3),  # no verified base sample
        ("a", "4", 4, 2, 0, 0),  # no verified target sample
    ]
    q = compare_questions(counts(rows), "b", "t")
    assert q.column("k").to_pylist() == [4, 1, 0, 0]
    assert q.column("category").to_pylist() == ["P", "S", None, None]
    assert q.column("pass1_base").to_pylist() == [0.25, 1.0, None, None]
    assert q.column("pass1_target").to_pylist() == [0.5, 0.0, None, None]
    assert q.column("passk_target").to_pylist()[2:] == [None, None]
    at_one = compare_questions(counts(rows), "b", "t", k=1)
    assert at_one.column("k").to_pylist() == [1, 1, 0, 0]  # unverified: 0, not k
    assert at_one.column("passk_target").to_pylist()[:2] == [0.5, 0.0]
    with pytest.raises(ValueError, match="k must be at least 1"):
        compare_questions(counts(rows), "b", "t", k=0)


def test_categories_at_a_threshold_and_at_pass_at_k_one_half_for_the_target():
    rows = [("a", "1", 4, 1, 4, 2), ("a", "2", 4, 3, 4, 1)]
    q = compare_questions(counts(rows), "b", "t", k=4, tau=0.5)
    # at tau = 1/2 of 4 samples: base 1 correct (out), target 2 (in) -> E; then S
    assert q.column("category").to_pylist() == ["E", "S"]
    # the target's pass@2 at n = 4, c = 1 is exactly 1/2: in support, so E, not O
    half = compare_questions(counts([("a", "1", 4, 0, 4, 1)]), "b", "t", k=2)
    assert half.column("passk_target").to_pylist() == [0.5]
    assert half.column("category").to_pylist() == ["E"]
