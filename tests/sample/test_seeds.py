"""Seed layout: every (run seed, model, benchmark, question) gets its own block of seeds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sampler.errors import LeashError
from sampler.sample.seeds import (
    MAX_BENCHMARKS,
    MAX_MODELS,
    MAX_QUESTIONS,
    MAX_RUN_SEED,
    MAX_SAMPLES,
    check_layout,
    question_seed,
)

slots = st.tuples(
    st.integers(0, MAX_RUN_SEED),
    st.integers(0, MAX_MODELS - 1),
    st.integers(0, MAX_BENCHMARKS - 1),
    st.integers(0, MAX_QUESTIONS - 1),
)


@given(a=slots, b=slots)
def test_sample_streams_of_different_questions_never_overlap(a, b):
    sa, sb = question_seed(*a), question_seed(*b)
    if a == b:
        assert sa == sb
    else:
        # vLLM draws sample i with seed + i, i < MAX_SAMPLES: the ranges are disjoint
        assert sa + MAX_SAMPLES <= sb or sb + MAX_SAMPLES <= sa


@given(a=slots)
def test_seeds_fit_in_a_signed_64_bit_integer_with_room_for_every_sample(a):
    # the last sample of a block has index MAX_SAMPLES - 1 (the edge: every field at its largest)
    assert 0 <= question_seed(*a) and question_seed(*a) + MAX_SAMPLES - 1 < 2**62


def test_neighbouring_questions_and_models_get_neighbouring_blocks():
    assert question_seed(0, 0, 0, 1) - question_seed(0, 0, 0, 0) == MAX_SAMPLES
    assert question_seed(0, 1, 0, 0) - question_seed(0, 0, 0, 0) == (
        MAX_SAMPLES * MAX_QUESTIONS * MAX_BENCHMARKS
    )
    assert question_seed(1, 0, 0, 0) != question_seed(0, 0, 0, 0)


def test_out_of_range_positions_and_too_large_runs_are_refused():
    with pytest.raises(LeashError, match="--seed"):
        question_seed(MAX_RUN_SEED + 1, 0, 0, 0)
    with pytest.raises(LeashError, match="question position"):
        question_seed(0, 0, 0, MAX_QUESTIONS)
    with pytest.raises(LeashError, match="samples per question"):
        check_layout(1, 1, 10, MAX_SAMPLES + 1)
    with pytest.raises(LeashError, match="questions in one benchmark"):
        check_layout(1, 1, MAX_QUESTIONS + 1, 8)
    check_layout(MAX_MODELS, MAX_BENCHMARKS, MAX_QUESTIONS, MAX_SAMPLES)
