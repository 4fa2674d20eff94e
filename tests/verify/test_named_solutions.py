"""What Python prints, read as math: a system's solution (sympy's ``{x: 2, y: 3}``) and a
sentence's ``$x=2, y=3$`` are the pair (x, y), compared as a box holding it is, and the
question ("What is y?") picks one value; a printed matrix (``Matrix([[1], [2]])``) is a
``pmatrix`` against a matrix gold. Near misses: a set-builder, the pair in the other order,
rows of two lengths."""

from __future__ import annotations

import time

import pytest

from sampler.verify.answers.named_values import asked_name
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.plain_notation import python_matrix, sympy_solution

_SYSTEM = "If x + y = 5 and x - y = -1, what is y?"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{x: 2, y: 3}", "x = 2, y = 3"),
        ("[{x: 2, y: 3}]", "x = 2, y = 3"),
        ("{a: 1/2}", "a = 1/2"),
        ("{x: x > 0}", "{x: x > 0}"),  # a set-builder
        ("{x: 2*y, y: 3}", "{x: 2*y, y: 3}"),  # a value in terms of a named symbol
        ("{1, 2}", "{1, 2}"),  # a set
        ("{x: 1, x: 2}", "{x: 1, x: 2}"),  # a name twice
    ],
)
def test_sympy_solution(text, expected):
    assert sympy_solution(text) == expected


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        (
            "(2,3)",
            "```python\nprint(solve([x+y-5, x-y+1], [x, y]))\n```\n```output\n{x: 2, y: 3}\n```",
            None,
        ),
        ("(2,3)", "So \\boxed{[{x: 2, y: 3}]}", None),
        ("3", "So \\boxed{{x: 2, y: 3}}", _SYSTEM),
        ("(2,3)", "The solution is $x=2, y=3$.", None),
        ("3", "The solution is $x=2, y=3$.", _SYSTEM),
        ("3", "So \\boxed{x=2, y=3}", _SYSTEM),
        ("5", "Thus $x = 5$.", None),
    ],
)
def test_named_values_are_the_solution(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        ("(3,2)", "So \\boxed{{x: 2, y: 3}}", None),  # the other order
        ("2", "The solution is $x=2, y=3$.", _SYSTEM),  # the value of x, asked for y
        ("(2,4)", "The solution is $x=2, y=3$.", None),
    ],
)
def test_the_wrong_solution_stays_wrong(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status == "incorrect"


@pytest.mark.parametrize(
    ("problem", "asked"),
    [
        ("What is y?", "y"),
        ("Find x.", "x"),
        ("Solve for $x$.", "x"),
        ("What is x if y = 2?", "x"),
        ("What is a good way to see it?", None),
        ("Find the area.", None),
    ],
)
def test_the_quantity_asked_for_with_or_without_dollars(problem, asked):
    assert asked_name(problem) == asked


_M = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"
_V = "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        (_M, "[[1, 2], [3, 4]]", "correct"),
        (_M, "Matrix([[1, 2], [3, 4]])", "correct"),
        (_M, "array([[1, 2],[3, 4]])", "correct"),
        (_V, "Matrix([[1], [2]])", "correct"),
        (_M, "[[1, 2], [4, 3]]", "incorrect"),
        (_M, "[[1, 2], [3]]", "incorrect"),  # rows of two lengths: no matrix
        (_V, "Matrix([[2], [1]])", "incorrect"),
    ],
)
def test_a_printed_matrix_against_a_matrix_gold(gold, answer, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status


def test_a_tool_prints_a_sympy_matrix():
    completion = "```python\nprint(A * B)\n```\n```output\nMatrix([[1, 2], [3, 4]])\n```"
    assert grade_completion(_M, completion).status == "correct"
    assert grade_completion(_M, completion.replace("[3, 4]", "[3, 5]")).status == "incorrect"


def test_a_python_list_is_no_matrix_against_a_list_gold():
    assert python_matrix("[1, 2]") == "[1, 2]"
    assert grade_completion("[1, 2]", "So $\\boxed{[1, 2]}$.").status == "correct"


@pytest.mark.parametrize(
    "text",
    [
        "[[" + " " * 40_000 + "x",
        "[" + "[1, 2], " * 5_000 + "[1",
        "{x:" + " " * 40_000,
        "{x: 1" + " " * 40_000 + "y",
        "{" + "x: 1, " * 7_000,
    ],
)
def test_printed_forms_are_read_in_linear_time(text):
    # a nested lazy pattern took 18 s on 4,000 spaces; the bound is generous for a loaded machine
    started = time.monotonic()
    python_matrix(text)
    sympy_solution(text)
    assert time.monotonic() - started < 2.0
