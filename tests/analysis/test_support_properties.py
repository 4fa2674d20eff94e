"""Property-based tests of the invariants listed in docs/support-dynamics.md."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leash_tui.analysis.budget_curves import budget_curve
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import compare_questions, summary_rows
from tests.support.counts_tables import counts_table

BENCHMARKS = ("a", "b", "c")
DOMAINS = {"a": "math", "b": "math", "c": "code"}


@st.composite
def question_counts(draw, same_n: bool = True):
    """A verdict_counts table for base and target on 1..12 questions."""
    size = draw(st.integers(1, 12))
    rows = []
    n_common = draw(st.integers(1, 16))
    for i in range(size):
        bench = draw(st.sampled_from(BENCHMARKS))
        for model in ("base", "rl"):
            n = n_common if same_n else draw(st.integers(1, 16))
            c = draw(st.integers(0, n))
            rows.append((bench, str(i), model, n, c))
    return counts_table(rows)


@settings(max_examples=60, deadline=None)
@given(question_counts())
def test_categories_partition_the_questions(counts):
    rows = summary_rows(compare_questions(counts, "base", "rl"), DOMAINS, "base", "rl")
    for row in rows:
        assert all(isinstance(row[c], int) for c in "PESO")
        assert row["P"] + row["E"] + row["S"] + row["O"] == row["N"]
        # pass@k from the counts is pass@k from the samples at k = n
        assert row["pass@k"]["base"] == pytest.approx((row["P"] + row["S"]) / row["N"])
        assert row["pass@k"]["target"] == pytest.approx((row["P"] + row["E"]) / row["N"])


@settings(max_examples=60, deadline=None)
@given(question_counts(same_n=False), st.integers(1, 16))
def test_expected_counts_partition_at_any_budget(counts, k):
    questions = compare_questions(counts, "base", "rl")
    smallest = int(np.min(questions.column("k").to_numpy()))
    k = min(k, smallest)
    for row in summary_rows(
        compare_questions(counts, "base", "rl", k=k), DOMAINS, "base", "rl", k=k
    ):
        assert row["P"] + row["E"] + row["S"] + row["O"] == pytest.approx(row["N"])
        assert min(row[c] for c in "PESO") >= 0


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_pass_at_k_non_decreasing_and_c_over_n_at_one(nc):
    n, c = nc
    values = pass_at_k(np.full(n, n), np.full(n, c), np.arange(1, n + 1))
    assert values[0] == c / n
    assert np.all(np.diff(values) >= 0)  # exactly, not within a tolerance
    assert values[-1] == (1.0 if c else 0.0)
    assert np.all((values >= 0) & (values <= 1))


@settings(max_examples=60, deadline=None)
@given(question_counts())
def test_expected_counts_at_k_equal_n_are_the_exact_counts(counts):
    questions = compare_questions(counts, "base", "rl")
    exact = summary_rows(questions, {}, "base", "rl")[-1]
    end = budget_curve(questions).to_pylist()[-1]
    assert end["k"] == exact["k"]
    assert [end[c] for c in "PESO"] == [float(exact[c]) for c in "PESO"]
    # and they agree with the per-question labels
    labels = questions.column("category").to_pylist()
    assert [labels.count(c) for c in "PESO"] == [exact[c] for c in "PESO"]


def _rate(num, den):
    return None if den == 0 else num / den


@settings(max_examples=60, deadline=None)
@given(question_counts())
def test_domain_rows_sum_benchmark_counts_then_compute_rates(counts):
    rows = summary_rows(compare_questions(counts, "base", "rl"), DOMAINS, "base", "rl")
    benches = {r["name"]: r for r in rows if r["scope"] == "benchmark"}
    for row in rows:
        if row["scope"] == "benchmark":
            continue
        members = [b for b in benches if row["scope"] == "overall" or DOMAINS[b] == row["name"]]
        summed = {c: sum(benches[b][c] for b in members) for c in ("N", "P", "E", "S", "O")}
        assert {c: row[c] for c in summed} == summed
        p, e, s = summed["P"], summed["E"], summed["S"]
        for name, value in (
            ("SRR", _rate(p, p + s)),
            ("NDR", _rate(e, p + e)),
            ("NSCR", _rate(e - s, p + e + s)),
        ):
            assert row[name] == (None if value is None else pytest.approx(value))
        # pass@1 of a scope is the mean over all its questions
        n_all = sum(benches[b]["N"] for b in members)
        mean = sum(benches[b]["pass@1"]["base"] * benches[b]["N"] for b in members) / n_all
        assert row["pass@1"]["base"] == pytest.approx(mean)
        assert row["sign_test_p"] is None or 0 < row["sign_test_p"] <= 1
        assert not any(isinstance(v, float) and math.isnan(v) for v in row.values())
