"""Comparison by the gold's type (issue 32): a formula gold with rounded coefficients.

A gold that states decimals of at least four significant digits (``1386.15``,
``0.0185185``, ``2.71828182845905``) is rounded there: an exact answer within half a unit
in the last place of each such literal, at a few sample points, is right. Shorter decimals
(``0.013``, ``0.5``) may be exact, and a different structure, a coefficient off in its
third digit or a coarser answer stay wrong. Checked through ``grade_completion`` (real
math-verify).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from sympy import Symbol, exp

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.rounded_coefficients import rounded_literals, same_up_to_rounding

ACCEPTED = [
    ("1386.15*[e^{0.013*t}-1]", r"\frac{18.02}{0.013} ( e^{0.013t} - 1 )"),
    ("1386.15*[e^{0.013*t}-1]", r"1386.154 ( e^{0.013t} - 1 )"),
    ("0.333333+(-0.0185185)*(x-5)", r"\frac{23 - x}{54}"),
    ("2.71828182845905^{cosh(4*x)} * sinh(4*x) * 4", r"4 e^{\cosh(4x)} \sinh(4x)"),
    ("2.7183^{x}", "e^{x}"),
    ("1.4142 x + 0.7071 y", r"\sqrt{2} x + \frac{y}{\sqrt{2}}"),
    (r"2 \times 3.1416", r"2\pi"),
]

REJECTED = [
    # another structure, with the same rounded coefficient
    ("1386.15*[e^{0.013*t}-1]", r"\frac{18.02}{0.013} ( e^{0.014t} - 1 )"),
    ("1386.15*[e^{0.013*t}-1]", r"\frac{18.02}{0.013} ( e^{0.013t} + 1 )"),
    # a coefficient off in its third or fifth digit, or coarser than the gold
    ("1386.15*[e^{0.013*t}-1]", r"1390 ( e^{0.013t} - 1 )"),
    ("1386.15*[e^{0.013*t}-1]", r"1386.2 ( e^{0.013t} - 1 )"),
    ("1386.15*[e^{0.013*t}-1]", r"1386.16 ( e^{0.013t} - 1 )"),  # another rounding
    ("1386.15*[e^{0.013*t}-1]", r"1386.156 ( e^{0.013t} - 1 )"),  # rounds to 1386.16
    ("0.333333+(-0.0185185)*(x-5)", r"\frac{24 - x}{54}"),
    ("0.333333+(-0.0185185)*(x-5)", r"\frac{23 - x}{55}"),
    ("0.333333+(-0.0185185)*(x-5)", r"\frac{23 - y}{54}"),
    ("2.71828182845905^{cosh(4*x)} * sinh(4*x) * 4", r"4 e^{\cosh(4x)} \cosh(4x)"),
    ("2.71828182845905^{cosh(4*x)} * sinh(4*x) * 4", r"e^{\cosh(4x)} \sinh(4x)"),
    ("2.7183^{x}", "e^{1.0001x}"),
    ("1.4142x", "1.41x"),
    (r"2 \times 3.1416", "6.28"),
    # decimals of fewer than four digits are taken as exact
    ("0.5x+1", r"\frac{x}{2}+1.001"),
    ("0.333x", r"\frac{x}{3}"),
]


@pytest.mark.parametrize(("gold", "answer"), ACCEPTED)
def test_an_answer_within_the_gold_rounding_is_correct(gold: str, answer: str) -> None:
    assert grade_completion(gold, answer).status == "correct"


@pytest.mark.parametrize(("gold", "answer"), REJECTED)
def test_an_answer_outside_the_gold_rounding_is_incorrect(gold: str, answer: str) -> None:
    assert grade_completion(gold, answer).status == "incorrect"


def test_rounded_literals_are_those_of_four_digits_or_more() -> None:
    assert rounded_literals("1386.15*[e^{0.013*t}-1]") == [(Decimal("1386.15"), Decimal("0.01"))]
    assert rounded_literals("0.5x + 2.25") == []
    assert rounded_literals("x^2 + 1") == []


def test_a_gold_with_no_rounded_literal_is_left_alone() -> None:
    t = Symbol("t")
    assert not same_up_to_rounding("1.5(e^{t}-1)", 1.5 * (exp(t) - 1), 1.5 * (exp(t) - 1))


def test_the_bound_follows_cancellation_at_a_root() -> None:
    # 0.71, a sample point, is the root: there the gold is -5.7e-7 and the answer 0, which a
    # relative tolerance would call different; the bound moves with the literals instead
    gold, answer = "0.333333 x - 0.236667", r"\frac{x - 0.71}{3}"
    assert grade_completion(gold, answer).status == "correct"
    assert grade_completion(gold, r"\frac{x - 0.72}{3}").status == "incorrect"
