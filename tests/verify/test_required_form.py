"""The form a question requires (issue 32): "Factor completely" rejects the expanded
polynomial, "Expand" rejects the product; equal values in the asked form stay right, and
without a problem text (or for a question that asks no form) nothing changes. And an angle
in degrees against one in radians with π is one angle."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.required_form import required_form

FACTOR = "Factor completely: $x^2 - 1$."
EXPAND = "Expand $(x+1)^2$."


@pytest.mark.parametrize(
    ("gold", "answer", "problem", "status"),
    [
        ("(x-1)(x+1)", "x^2-1", FACTOR, "incorrect"),
        ("(x-1)(x+1)", "(x+1)(x-1)", FACTOR, "correct"),
        ("(x-1)(x+1)", "(x+1)(x-2)", FACTOR, "incorrect"),
        ("(x-1)(x+1)", "x^2-1", None, "correct"),
        ("x^2+2x+1", "(x+1)^2", EXPAND, "incorrect"),
        ("x^2+2x+1", "1+2x+x^2", EXPAND, "correct"),
        ("5", "5", "Find the largest prime factor of 15.", "correct"),
    ],
)
def test_the_required_form(gold, answer, problem, status):
    completion = f"So $\\boxed{{{answer}}}$."
    assert grade_completion(gold, completion, problem=problem).status == status


@pytest.mark.parametrize(
    ("problem", "form"),
    [
        (FACTOR, "factor"),
        ("Simplify first. Factor by grouping: $ax+ay+bx+by$.", "factor"),
        (EXPAND, "expand"),
        ("Find the largest prime factor of 15.", None),
        ("The price grew by a factor of 3. Find it.", None),
        (None, None),
    ],
)
def test_required_form_is_read_from_the_instruction(problem, form):
    assert required_form(problem) == form


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("\\frac{\\pi}{6}", "30^\\circ", "correct"),
        ("\\frac{\\pi}{6}", "30°", "correct"),
        ("\\frac{\\pi}{6}", "60^\\circ", "incorrect"),
        ("30^\\circ", "\\frac{\\pi}{6}", "correct"),
        ("30^\\circ", "\\frac{\\pi}{3}", "incorrect"),
        ("\\frac{\\pi}{6}", "30", "incorrect"),  # no degree sign: 30 radians
    ],
)
def test_degrees_against_radians(gold, answer, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status


PLANE = (
    "Find the equation of the plane containing the points $(0,-1,-1),$ $(-4,4,4),$ and"
    " $(4,5,1).$  Enter your answer in the form\n\\[Ax + By + Cz + D = 0,\\]where $A,$ $B,$"
    " $C,$ $D$ are integers such that $A > 0$ and $\\gcd(|A|,|B|,|C|,|D|) = 1.$"
)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("5x - 7y + 11z + 4 = 0", "correct"),
        ("5x - 7y + 11z = -4", "correct"),  # the same coefficients, moved
        ("-20x + 28y - 44z - 16 = 0", "incorrect"),  # the plane, times -4
        ("-5x + 7y - 11z - 4 = 0", "incorrect"),  # A < 0
        ("10x - 14y + 22z + 8 = 0", "incorrect"),  # gcd 2
    ],
)
def test_normalised_coefficients_are_the_required_form(answer, status):
    gold = "5x - 7y + 11z + 4 = 0"
    assert required_form(PLANE) == "coefficients"
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.", problem=PLANE).status == status


def test_without_the_normalisation_a_multiple_of_the_equation_is_the_plane():
    gold = "5x - 7y + 11z + 4 = 0"
    completion = "So $\\boxed{-20x + 28y - 44z - 16 = 0}$."
    assert grade_completion(gold, completion, problem="Find the plane.").status == "correct"
