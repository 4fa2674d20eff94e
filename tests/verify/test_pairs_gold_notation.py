"""Comparison by the gold's type (issue 32): two notations of Chinese exam golds.

Values joined by a Chinese "and" (``1 和 3``) are a list, on either side (math-verify read
only the ``3``); spacing that opens a ``\\mathrm{}`` wrapper (``\\mathrm{~N}``) is no part
of the symbol. Checked through ``grade_completion`` (real math-verify) both ways.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.golds import joined_values, without_wrapper_spacing
from sampler.verify.answers.one_sample import grade_completion

FRACTION = r"$\frac{\mathrm{N}_{1}}{\mathrm{~N}}$"

ACCEPTED = [
    ("1 和 3", r"\boxed{1, 3}"),
    ("1 和 3", r"\boxed{3 和 1}"),
    ("1 和 3", r"\boxed{1 和 3}"),
    ("1, 3", r"\boxed{1 和 3}"),
    (r"-\frac{1}{2} 与 2", r"\boxed{-\frac{1}{2}, 2}"),
    (FRACTION, r"\boxed{N_{1}/N}"),
    (FRACTION, r"\boxed{\frac{\mathrm{N}_{1}}{\mathrm{~N}}}"),
    (r"5 \mathrm{~cm}", r"\boxed{5 \mathrm{~cm}}"),
    (r"5 \mathrm{~cm}", r"\boxed{5 \mathrm{cm}}"),
]

REJECTED = [
    ("1 和 3", r"\boxed{3}"),  # one of the two values
    ("1 和 3", r"\boxed{1 和 4}"),
    ("1 和 3", r"\boxed{1, 3, 5}"),
    (FRACTION, r"\boxed{N/N_{1}}"),
    (FRACTION, r"\boxed{N_{2}/N}"),
    (r"5 \mathrm{~cm}", r"\boxed{5 \mathrm{~m}}"),
    (r"5 \mathrm{~cm}", r"\boxed{6 \mathrm{~cm}}"),
]


@pytest.mark.parametrize(("gold", "completion"), ACCEPTED)
def test_the_notations_are_read_as_their_values(gold: str, completion: str) -> None:
    assert grade_completion(gold, completion).status == "correct"


@pytest.mark.parametrize(("gold", "completion"), REJECTED)
def test_near_misses_in_those_notations_stay_wrong(gold: str, completion: str) -> None:
    assert grade_completion(gold, completion).status == "incorrect"


def test_joined_values_lists_values_only() -> None:
    assert joined_values("1 和 3") == "1, 3"
    assert joined_values("x=1 和 x=3") == "x=1 和 x=3"  # equations stay as written
    assert joined_values("A和B") == "A和B"  # letters are no values
    assert joined_values("甲和乙") == "甲和乙"
    assert joined_values("12") == "12"


def test_wrapper_spacing_goes() -> None:
    assert without_wrapper_spacing(r"\mathrm{~N}") == r"\mathrm{N}"
    assert without_wrapper_spacing(r"3 \text{\, cm}") == r"3 \text{cm}"
    assert without_wrapper_spacing(r"a~b") == r"a~b"
