"""Comparison by the gold's type (issue 32): a gold written with a decimal comma.

``1,22`` (one or two digits after the comma) is the European 1.22 when the answer is a
decimal of that value; ``1,000`` stays one thousand, and lists (``3, 5``) stay lists.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

ACCEPTED = [
    ("1,22", "1.22"),
    ("1,22", r"The answer is \boxed{1.22}"),
    ("1,22", "1.220"),
    ("-0,5", "-0.5"),
    ("12,50", "12.5"),
    ("1,22", "1,22"),
    ("1,22", "1, 22"),  # still the list math-verify reads
    ("1,000", "1000"),
    ("3, 5", "3, 5"),
    ("3,5", "5, 3"),
]

REJECTED = [
    ("1,22", "1.23"),
    ("1,22", "122"),
    ("1,22", "12.2"),
    ("2,5", "2.6"),
    ("1,000", "1"),
    ("3, 5", "3.5"),  # a list, spaced, is no decimal
]


@pytest.mark.parametrize(("gold", "answer"), ACCEPTED)
def test_a_decimal_comma_gold_takes_the_decimal(gold: str, answer: str) -> None:
    assert grade_completion(gold, answer).status == "correct"


@pytest.mark.parametrize(("gold", "answer"), REJECTED)
def test_a_decimal_comma_near_miss_stays_wrong(gold: str, answer: str) -> None:
    assert grade_completion(gold, answer).status == "incorrect"
