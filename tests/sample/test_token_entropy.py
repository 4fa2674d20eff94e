"""Token entropy from top-k log-probabilities: the top-k part and the bounds of the measures doc."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sampler.sample.token_entropy import full_entropies, segment_sums, topk_entropies


def entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def top_logprobs(p: np.ndarray, k: int) -> np.ndarray:
    return np.log(np.sort(p)[::-1][:k])[None, :]


def test_top_k_covering_the_vocabulary_gives_the_exact_entropy_for_all_three():
    p = np.array([0.5, 0.25, 0.125, 0.125])
    ent = topk_entropies(top_logprobs(p, 4), vocab_size=4)
    assert ent.topk[0] == pytest.approx(entropy(p), abs=1e-12)
    assert ent.lower[0] == pytest.approx(entropy(p), abs=1e-12)
    assert ent.upper[0] == pytest.approx(entropy(p), abs=1e-12)


def test_bounds_follow_the_formulas_of_the_spec():
    p = np.array([0.4, 0.3, 0.1, 0.1, 0.05, 0.05])
    k, vocab = 3, 6
    top = np.sort(p)[::-1][:k]
    r = 1 - top.sum()
    h_k = -(top * np.log(top)).sum()
    ent = topk_entropies(np.log(top)[None, :], vocab)
    assert ent.topk[0] == pytest.approx(h_k)
    assert ent.lower[0] == pytest.approx(h_k + r * -np.log(top[-1]))
    assert ent.upper[0] == pytest.approx(h_k + r * np.log((vocab - k) / r))


def test_upper_bound_is_reached_by_a_uniform_tail_and_lower_by_a_tail_of_p_k():
    head = np.array([0.5, 0.2])
    p = np.concatenate([head, np.full(10, 0.03)])  # r = 0.3 spread evenly over V - k = 10
    assert topk_entropies(np.log(head)[None, :], vocab_size=12).upper[0] == pytest.approx(
        entropy(p)
    )
    head = np.array([0.4, 0.1])
    p = np.concatenate([head, np.full(5, 0.1)])  # r = 0.5 as five tokens of probability p_k
    assert topk_entropies(np.log(head)[None, :], vocab_size=20).lower[0] == pytest.approx(
        entropy(p)
    )


@settings(max_examples=200, deadline=None)
@given(
    weights=st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=2, max_size=60),
    k=st.integers(min_value=1, max_value=30),
    extra_vocab=st.integers(min_value=0, max_value=5),
)
def test_full_entropy_lies_between_the_bounds(weights, k, extra_vocab):
    p = np.array(weights) / sum(weights)
    vocab = len(p) + extra_vocab  # tokens of probability 0 are part of the vocabulary too
    ent = topk_entropies(top_logprobs(p, k), vocab)
    h = entropy(p)
    assert ent.topk[0] <= ent.lower[0] + 1e-12
    assert ent.lower[0] <= h + 1e-9
    assert h <= ent.upper[0] + 1e-9


def test_rows_in_any_order_with_padding_and_zero_probabilities():
    p = np.array([0.6, 0.3, 0.1])
    rows = np.array(
        [
            [np.log(0.1), np.log(0.6), np.log(0.3), np.nan],  # unsorted, one absent entry
            [np.log(0.6), np.log(0.3), np.log(0.1), -np.inf],  # a token of probability 0
        ]
    )
    ent = topk_entropies(rows, vocab_size=3)
    np.testing.assert_allclose(ent.topk, [entropy(p)] * 2)
    np.testing.assert_allclose(ent.upper, [entropy(p)] * 2)


def test_float32_rounding_of_a_complete_distribution_leaves_no_phantom_mass():
    # what vLLM returns for a model whose unused tokens have logit -1e4: their log
    # probabilities are about -1e4 and the float32 sum of the rest is not exactly 1
    p = np.array([0.3] + [0.0875] * 8)
    logprobs = np.concatenate([np.log(p), np.full(11, -1.0e4)]).astype(np.float32)
    ent = topk_entropies(logprobs[None, :].astype(np.float64), vocab_size=32)
    assert ent.lower[0] == pytest.approx(entropy(p), abs=1e-6)
    assert ent.upper[0] == pytest.approx(entropy(p), abs=1e-6)


def test_full_entropies_and_empty_input():
    p = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(full_entropies(np.log(p)), [np.log(2), 0.0])
    assert topk_entropies(np.zeros((0, 5)), 10).topk.shape == (0,)
    with pytest.raises(ValueError):
        topk_entropies(np.zeros(5), 10)


def test_segment_sums_with_empty_segments():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(segment_sums(values, np.array([2, 0, 1, 1])), [3.0, 0.0, 3.0, 4.0])
    with pytest.raises(ValueError):
        segment_sums(values, np.array([1, 1]))
