"""Forms math-verify does not prove equal (issue 32): each class accepted, its near miss not.

Graded the way ``leash verify`` grades a boxed sample (``grade_completion``).
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        # degrees inside trigonometric functions
        (r"\cos x", r"\sin(90^\circ - x)", "correct"),
        (r"\sin(90^\circ - x)", r"\cos x", "correct"),
        (r"\cos x", r"\sin(90^{\circ} - x)", "correct"),
        (r"\cos x", r"\sin(91^\circ - x)", "incorrect"),
        (r"\sin x", r"\sin(90^\circ - x)", "incorrect"),
        # hyperbolic functions and exponentials
        (r"\frac{\sinh(at)}{a}", r"\frac{e^{at} - e^{-at}}{2a}", "correct"),
        (r"\frac{e^{at} - e^{-at}}{2a}", r"\frac{\sinh(at)}{a}", "correct"),
        (r"\cosh(x)", r"\frac{e^{x}+e^{-x}}{2}", "correct"),
        (r"\frac{\sinh(at)}{a}", r"\frac{e^{at} + e^{-at}}{2a}", "incorrect"),
        (r"\frac{\sinh(at)}{a}", r"\frac{e^{at} - e^{-at}}{a}", "incorrect"),
        # set-builder notation, spaced and written otherwise
        (r"\{x | x = 3k\}", r"\{x\mid x=3k\}", "correct"),
        (r"\{x | x = 3k\}", r"\{ x \,|\, x = 3k \}", "correct"),
        (r"\{x | x = 3k\}", r"\left\{x \mid x = k \cdot 3\right\}", "correct"),
        (r"\{x | x = 3k\}", r"\{x | x = 3k+1\}", "incorrect"),
        (r"\{x | x = 3k\}", r"\{x | x = 2k\}", "incorrect"),
        # an ordering for a chain of inequalities
        ("b > a > c", "b, a, c", "correct"),
        ("b > a > c", "c < a < b", "correct"),
        ("a < b < c", "a, b, c", "correct"),
        ("b > a > c", "a, b, c", "incorrect"),
        ("b > a > c", "c, a, b", "incorrect"),
        ("a < b < c", "c, b, a", "incorrect"),
        ("b > a > c", "b, a", "incorrect"),
    ],
)
def test_equal_forms_are_accepted_and_their_near_misses_are_not(gold, answer, status):
    graded = grade_completion(gold, f"So the answer is $\\boxed{{{answer}}}$.")
    assert graded.status == status


def test_each_form_gold_verifies_against_itself():
    for gold in (r"\sin(90^\circ - x)", r"\frac{\sinh(at)}{a}", r"\{x | x = 3k\}", "b > a > c"):
        assert grade_completion(gold, f"$\\boxed{{{gold}}}$").status == "correct"
