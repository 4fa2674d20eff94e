"""Notebook outputs that are a library's repr, and closing cells that check or fail.

The classes, from how a Jupyter kernel shows a value and how a transcript without fences
(MathCoder-style role turns joined) ends:

- an output that is a repr rather than a value: ``Fraction(1, 3)`` (was read as its last
  number, 3: a false accept of a gold 3), numpy 2's ``np.int64(10)`` and ``np.float64(2.5)``,
  ``Decimal('2.5')``, ``array([1, 2])``, sympy's ``Interval.open(-oo, 3)``, ``Union(…)``,
  ``FiniteSet(1, 2)``, ``2 + 3*I``, Python's ``(1+2j)``, sympy's ``log`` (natural) and ``Abs``;
- a closing cell that checks an answer stated before it (``apples == 12`` then ``True``,
  ``assert …`` then ``<empty_execution>``), or fails with a traceback: the answer is the
  statement before the cell, unless the gold is a boolean (then ``True`` answers it);
- its twins: a wrong statement before the check stays wrong, a yes/no question's ``True``
  stays its answer, and a cell whose output is a sentence is not cut.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.afterword import without_afterword
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.tool_transcript import closing_cell_start
from sampler.verify.answers.value_reprs import printed_value

SYMPY = "Let's compute it.\nfrom sympy import *\nx = symbols('x')\n"
TRACEBACK = (
    "---------------------------------------------------------------------------\n"
    "NameError                                 Traceback (most recent call last)\n"
    "Cell In[3], line 1\n----> 1 math.sqrt(area) * 4\n\n"
    "NameError: name 'math' is not defined"
)


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Fraction(1, 3)", "1/3"),
        ("np.int64(10)", "10"),
        ("[np.int64(1), np.int64(2)]", "[1, 2]"),
        ("(np.float64(0.5), np.float64(2.0))", "(0.5, 2.0)"),
        ("Decimal('2.50')", "2.50"),
        ("mpf('0.25')", "0.25"),
        ("array([1, 2, 3])", "[1, 2, 3]"),
        ("Rational(-1, 2)", "-1/2"),
        ("2**Fraction(1, 3)", "2 ** (1/3)"),
        ("Interval(0, 1)", "[0, 1]"),
        ("Interval.Lopen(0, 1)", "(0, 1]"),
        ("Interval.open(-oo, 3)", "(-\\infty, 3)"),
        (
            "Union(Interval.open(-oo, -1), Interval.open(1, oo))",
            "(-\\infty, -1) \\cup (1, \\infty)",
        ),
        ("FiniteSet(1, 2)", "\\{1, 2\\}"),
        ("(1+2j)", "1 + 2*i"),
        ("log(2)", "ln(2)"),
        ("Abs(x)", "abs(x)"),
        ("Eq(x, 3)", "x = 3"),
        ("'0o17'", "17"),
        ("-0b101", "-101"),
        ("'0xFF'", "ff"),
        # no repr: unchanged, and prose that names one is no Python
        ("sqrt(2)/2", "sqrt(2)/2"),
        ("I think it is 5", "I think it is 5"),
        ("Fraction(1, x, y)", "Fraction(1, x, y)"),
    ],
)
def test_a_repr_reads_as_the_value_it_prints(text, value):
    assert printed_value(text) == value


@pytest.mark.parametrize(
    ("echo", "output", "right", "wrong"),
    [
        ("Fraction(2, 6)", "Fraction(1, 3)", "\\frac{1}{3}", "3"),
        ("int(np.sum([1, 2, 3, 4]))", "np.int64(10)", "10", "64"),
        ("np.mean([1, 2, 3, 4])", "np.float64(2.5)", "2.5", "64"),
        ("Decimal('5') / 2", "Decimal('2.5')", "2.5", "5"),
        ("np.array([1, 2])", "array([1, 2])", "[1, 2]", "[1, 3]"),
        (
            "solve_univariate_inequality(x < 3, x, relational=False)",
            "Interval.open(-oo, 3)",
            "(-\\infty, 3)",
            "(-\\infty, 3]",
        ),
        (
            "solve_univariate_inequality(x**2 > 1, x, relational=False)",
            "Union(Interval.open(-oo, -1), Interval.open(1, oo))",
            "(-\\infty, -1) \\cup (1, \\infty)",
            "(-1, 1)",
        ),
        ("FiniteSet(*solve(x**2 - 3*x + 2, x))", "FiniteSet(1, 2)", "\\{1, 2\\}", "\\{1, 3\\}"),
        ("expand((1 + I) * (2 + I) / (1 + I) + 2*I)", "2 + 3*I", "2+3i", "2+3"),
        ("complex(1, 2)", "(1+2j)", "1+2i", "1-2i"),
        ("integrate(1/x, (x, 1, 2))", "log(2)", "\\ln 2", "\\log_{10} 2"),
        ("sqrt(x**2)", "Abs(x)", "|x|", "x"),
    ],
)
def test_a_notebook_output_that_is_a_repr_is_its_value(echo, output, right, wrong):
    completion = f"{SYMPY}import numpy as np\nfrom fractions import Fraction\n{echo}\n{output}"
    assert _status(right, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


@pytest.mark.parametrize(
    ("problem", "echo", "output", "right", "wrong"),
    [
        ("What is 15 in base 8?", "oct(15)", "'0o17'", "17", "15"),
        ("What is 255 in base 16?", "hex(255)", "'0xff'", "ff", "fe"),
        ("What is -5 in base 2?", "bin(-5)", "'-0b101'", "-101", "101"),
    ],
)
def test_a_base_prefixed_output_is_its_digits(problem, echo, output, right, wrong):
    completion = f"{SYMPY}n = 0\n{echo}\n{output}"
    assert _status(right, completion, problem) == "correct"
    assert _status(wrong, completion, problem) == "incorrect"


def test_a_repr_in_a_closing_output_block_is_its_value():
    completion = "```python\nfrom fractions import Fraction\nprint(repr(Fraction(1, 3)))\n```\n"
    completion += "```output\nFraction(1, 3)\n```"
    assert _status("1/3", completion) == "correct"
    assert _status("3", completion) == "incorrect"


CHECKED = [
    # a check's True, after the answer stated in prose
    "The number of apples is 3 * 4 = {n}. Let's verify this with code.\n"
    "apples = 3 * 4\napples == {n}\nTrue",
    # the same check in fenced blocks
    "The number of apples is {n}. Let's verify.\n```python\nprint(3 * 4 == {n})\n```\n"
    "```output\nTrue\n```",
    # an assert, which shows nothing
    "apples = 3 * 4\nprint(apples)\n12\nSo Tom has {n} apples. Let me double check.\n"
    "assert apples == 12\n<empty_execution>",
    # a last cell that failed
    "side = 3\nprint(side * 4)\n12\nThe perimeter of the square is {n} cm. To be sure, we "
    "also compute it from the area.\nimport math\narea = side ** 2\nmath.sqrt(area) * 4\n"
    + TRACEBACK,
    # a loop that prints nothing
    "apples = 3 * 4\napples\n12\nThe answer is {n}, and we confirm it with a loop.\n"
    "for s in range(3):\n    p = 4 * s\n<empty_execution>",
]


@pytest.mark.parametrize("template", CHECKED)
def test_the_answer_before_a_closing_check_is_the_answer(template):
    assert _status("12", template.format(n=12)) == "correct"
    assert _status("12", template.format(n=13)) == "incorrect"


def test_a_boolean_gold_still_reads_the_check_itself():
    completion = "52 = 4 * 13, so yes. Let's check.\nn = 52\nn % 13 == 0\nTrue"
    problem = "Is 52 a multiple of 13?"
    assert _status("True", completion, problem) == "correct"
    assert _status("False", completion, problem) == "incorrect"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("We check it.\nassert x == 3\n<empty_execution>", "assert x == 3\n<empty_execution>"),
        ("Now the total.\nfor i in range(3):\n    t += i\nprint(t)\n3", "for i in range(3):"),
        ("We check it.\nx * 4 == y\nTrue", "x * 4 == y\nTrue"),
        ("Printed lines.\nprint('a:', a)\nprint('b:', b)\na: 1\nb: 2", "print('a:', a)"),
    ],
)
def test_a_closing_cell_starts_at_its_first_line_of_code(text, cell):
    start = closing_cell_start(text)
    assert start is not None and text[start:].startswith(cell)


@pytest.mark.parametrize(
    "text",
    [
        "x = 3\nprint(x)\n3",  # no prose before it: the transcript is all code
        "The answer is 5.",  # no code
        "We compute.\nx = 3\nprint(x)\n3\nThe value of x is 3.",  # prose ends it
        "Let me see.\nHence the total is 5",  # a sentence without code
    ],
)
def test_no_closing_cell_where_none_ends_the_text(text):
    assert closing_cell_start(text) is None


def test_a_cell_whose_output_is_followed_by_a_sentence_is_kept():
    # the sentence after the output is the conclusion: the cell before it is no afterword
    text = "We compute.\nside = 2\nperimeter = 4 * side\nperimeter\n8\nThe perimeter is 8 cm."
    assert closing_cell_start(text) is None
    assert (without_afterword(text) or text).endswith("The perimeter is 8 cm.")


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        (
            "24",
            "We add.\n 9 + 15\n24\n\n I apologize again for the confusion. I will be more "
            "careful in the future.",
        ),
        (
            "5",
            "The value of $k$ that makes the lines coplanar is 5.\n\nThis is my final step "
            "and solution. I hope this meets the requirements of the problem.",
        ),
        (
            "28",
            "We count.\nresult = 4 * 7\nprint(result)\n28\nLet's solve the given math "
            "problems following the guidelines provided.",
        ),
        (
            "28",
            "We count.\nresult = 4 * 7\nprint(result)\n28\nPlease provide me with a math "
            "problem to solve.",
        ),
    ],
)
def test_an_apology_or_a_harness_courtesy_after_the_answer_is_no_part_of_it(gold, completion):
    assert _status(gold, completion) == "correct"
    assert _status("3", completion) == "incorrect"


REVISED = (
    "The answer is 140.\nWait, we still need to add the rings of every friend.\n"
    "total_rings = 20 + 25 + 70 + 60\nprint(total_rings)\n175"
)


def test_a_notebook_output_after_a_stated_answer_supersedes_it():
    assert _status("175", REVISED) == "correct"
    assert _status("140", REVISED) == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        "The answer is 5.\nLet's verify this.\nx = 5\nx**2\n25",  # a check of the answer
        "The answer is 5.\nx = 5\nx == 5\nTrue",  # a check's True
        "The answer is 5.\nLet's compute.\n```python\nprint(25)\n```\n```output\n25\n```",  # fenced
    ],
)
def test_a_check_after_a_stated_answer_leaves_the_answer(completion):
    assert _status("5", completion) == "correct"
    assert _status("25", completion) == "incorrect"
