"""Numbers written in words (issue 32): a gold in words against digits, words against a
numeric gold; anything that is not a number in words stays what it was."""

from __future__ import annotations

import pytest

from sampler.verify.answers.number_words import number_from_words
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("forty three", 43),
        ("Forty-three.", 43),
        ("one hundred and five", 105),
        ("three thousand two hundred", 3200),
        ("minus seven", -7),
        ("twenty thirteen", None),
        ("seven dogs", None),
        ("hundred", None),
        ("thousand thousand", None),
        ("", None),
    ],
)
def test_number_from_words(text, value):
    assert number_from_words(text) == value


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("forty three", "So $\\boxed{43}$.", "correct"),
        ("forty three", "So $\\boxed{44}$.", "incorrect"),
        ("43", "The answer is forty-three.", "correct"),
        ("43", "The answer is forty-four.", "incorrect"),
        ("Evelyn", "The answer is Evelyn.", "correct"),
        ("Evelyn", "The answer is seven.", "incorrect"),
    ],
)
def test_numbers_in_words_compare_as_numbers(gold, completion, status):
    assert grade_completion(gold, completion).status == status
