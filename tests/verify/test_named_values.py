"""The question decides which named value is the answer (issue 32): ``k = -2, q = -4`` is
right for the gold -4 when the problem asks for q, wrong when it asks for k, and without a
problem text the verdict is what it was."""

from __future__ import annotations

import pytest

from sampler.verify.answers.named_values import asked_name
from sampler.verify.answers.one_sample import grade_completion

ASKS_Q = "The line $y = kx + q$ passes through $(1, -6)$ and $(0, -4)$. Find $q$."
ASKS_K = ASKS_Q.replace("Find $q$", "What is the value of $k$?")
BOTH = "So $\\boxed{k = -2, q = -4}$."


@pytest.mark.parametrize(
    ("gold", "completion", "problem", "status"),
    [
        ("-4", BOTH, ASKS_Q, "correct"),
        ("-2", BOTH, ASKS_Q, "incorrect"),
        ("-2", BOTH, ASKS_K, "correct"),
        ("-4", BOTH, ASKS_K, "incorrect"),
        ("-4", BOTH, None, "incorrect"),
        ("-4", "So $\\boxed{k = -4, q = -2}$.", ASKS_Q, "incorrect"),
        ("-4", "So $\\boxed{q = -4, q = -2}$.", ASKS_Q, "incorrect"),
    ],
)
def test_the_asked_value_among_several(gold, completion, problem, status):
    assert grade_completion(gold, completion, problem=problem).status == status


@pytest.mark.parametrize(
    ("problem", "name"),
    [
        ("What is the value of $q$?", "q"),
        ("Find $x$ if $x + 1 = 2$.", "x"),
        ("求 $q$ 的值。", "q"),
        ("Solve for $x_1$.", "x_1"),
        ("Find $a+b$.", None),
        ("Compute the area.", None),
        (None, None),
    ],
)
def test_asked_name(problem, name):
    assert asked_name(problem) == name
