"""Issue 21's verdicts: LaTeX spaces before units, letter case, times of day, unboxed finals.

Every case goes the whole way a sample goes (gold quirks, extraction from a completion,
unit handling, the integer shortcut, judge), so a rule that breaks another is seen.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.one_sample import grade_completion
from tests.support.unboxed_suite import grade  # a gold that does not parse: "no_gold"


def boxed(answer: str) -> str:
    return f"Working it out.\nSo the answer is $\\boxed{{{answer}}}$."


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        # the user's four: a LaTeX space before a unit
        ("10", r"10\,\text{inches}", "correct"),
        ("52", r"52\ \text{WPM}", "correct"),
        ("16", r"16\,\text{hours}", "correct"),
        (r"3\text{ cm}", r"3\,\text{cm}", "correct"),
        # every LaTeX space
        (r"3\text{ cm}", r"3\;\text{cm}", "correct"),
        (r"3\text{ cm}", r"3\:\text{cm}", "correct"),
        (r"3\text{ cm}", r"3~\text{cm}", "correct"),
        (r"3\text{ cm}", r"3\quad\text{cm}", "correct"),
        # a spaced unit is still a unit: another one is wrong, another value is wrong
        (r"3\text{ cm}", r"3\,\text{m}", "incorrect"),
        ("10", r"11\,\text{inches}", "incorrect"),
        (r"5\text{ km}", r"5\,\text{km}", "correct"),
    ],
)
def test_latex_spaces_before_a_unit(gold, answer, expected):
    assert grade(gold, boxed(answer)) == expected


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("T", "t", "incorrect"),
        ("T", "T", "correct"),
        (r"-\frac{2B}{I}\omega + \frac{T}{I}", r"-\frac{2B}{I}\omega + \frac{t}{I}", "incorrect"),
        (r"-\frac{2B}{I}\omega + \frac{T}{I}", r"\frac{T - 2B\omega}{I}", "correct"),
        ("x^2 + 1", "1 + x^2", "correct"),
        ("x^2 + 1", "1 + X^2", "incorrect"),
        # a gold that uses both cases: each is its own symbol, as before
        ("T + t", "t + T", "correct"),
        # choice letters are not symbols
        ("C", "(C)", "correct"),
    ],
)
def test_letter_case_counts_where_the_gold_uses_one_case(gold, answer, expected):
    assert grade(gold, boxed(answer)) == expected


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("1:58 am", "2:116", "incorrect"),
        ("1:58 am", r"\frac{1}{58}", "incorrect"),
        ("1:58 am", r"1:58 \text{ a.m.}", "correct"),
        ("1:58 am", "1:58", "correct"),
        ("1:58 am", "1:58 pm", "incorrect"),
        ("1:58 pm", "13:58", "correct"),
        ("13:58", "1:58 pm", "correct"),
        ("13:58", "1:58 am", "incorrect"),
        ("13:58", "1:58", "correct"),  # a bare 12-hour time is either
        ("12:05 am", "0:05", "correct"),
        ("12:05 pm", "0:05", "incorrect"),
        ("5pm", "5pm", "correct"),
        ("5pm", r"5\text{ p.m.}", "correct"),
        ("5pm", "17:00", "correct"),
        ("5pm", "5am", "incorrect"),
        ("5am", "5", "correct"),  # a unit is ignored when the other side has none
        ("9:30", "9:30", "correct"),
        ("9:30", "9:03", "incorrect"),
        ("9:30", "9:300", "incorrect"),
        # a bare H:MM gold may be a ratio: a fraction is left to math-verify
        ("10:21", r"\frac{10}{21}", "correct"),
    ],
)
def test_times_of_day_compare_as_times(gold, answer, expected):
    assert grade(gold, boxed(answer)) == expected


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("14", "Each bag holds 2.\nThus, Jean can fill **14** bags.", "correct"),
        ("14", "Each bag holds 2.\nThus, Jean can fill **15** bags.", "incorrect"),
        ("73", "Adding up.\n\nFinal answer: **73**", "correct"),
        (r"\frac{207}{64}", "So the answer is: \\[\\frac{207}{64}\\]", "correct"),
        ("5", "Half of 10 is 5.\n#### 5", "correct"),
        ("3600", "1200*3 = 3600\n#### 3,600", "correct"),
        ("5", "```python\nprint(2 + 3)\n```\n```output\n5\n```", "correct"),
        ("5", "```python\nprint(2 + 3)\n```\n```output\n6\n```", "incorrect"),
        # run-on: the invented problem's answer is not the answer
        ("5", boxed("5") + "\n\nProblem: What is 2+2?\nSolution: $\\boxed{4}$", "correct"),
        ("4", boxed("5") + "\n\nQuestion 2: What is 2+2?\nThe answer is 4.", "incorrect"),
        # prose is no answer
        ("5", "We know the answer is at least 5 since x > 0, and", "no_answer"),
        ("12", "If the answer is 12, then", "no_answer"),
        ("5", "The answer is correct.", "no_answer"),
        ("7", "Thus, the total is **not** 5 but **7**.", "no_answer"),
    ],
)
def test_finals_without_a_box(gold, completion, expected):
    assert grade(gold, completion) == expected


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        # a choice label before the value, against a value gold
        ("0.3", r"\text{(b) } 0.3", "correct"),
        ("0.3", "(B) 0.3", "correct"),
        ("0.4", r"\text{(b) } 0.3", "incorrect"),
        ("D", "(D) (2,0)", "correct"),  # a choice gold still takes the label
        # inequality against an interval gold, and back
        ("(0, 12.5)", "0 < x < 12.5", "correct"),
        ("0 < x < 12.5", "(0, 12.5)", "correct"),
        ("(0, 12.5)", r"0 \le x < 12.5", "incorrect"),
        ("[-1, 2)", r"-1 \leq x < 2", "correct"),
        ("(0, 12.5)", "0 < x < 12", "incorrect"),
        # odd box contents
        ("45", "45°", "correct"),
        ("46", "45°", "incorrect"),
        ("5", "5.", "correct"),
        ("6", "5.", "incorrect"),
        ("1.5", "1{,}5", "correct"),
        ("1000", "1{,}000", "correct"),
        ("1.5", "1{,}6", "incorrect"),
        # golds in other notations
        ("1 000 000", "1000000", "correct"),
        ("2**(1/4)", r"\sqrt[4]{2}", "correct"),
        ("2**(1/4)", r"\sqrt[3]{2}", "incorrect"),
        # a set is no ordered pair
        ("(1, 2)", r"\{1, 2\}", "incorrect"),
        ("(1, 2)", "(1, 2)", "correct"),
    ],
)
def test_other_notations(gold, answer, expected):
    assert grade(gold, boxed(answer)) == expected


def test_a_misspelled_box_is_still_the_box():
    assert grade("12", r"So the answer is \boxxed{12}.") == "correct"
    assert grade("12", r"So the answer is \boxd{13}.") == "incorrect"
    assert extract_answer(r"So the answer is \boxxed{12}.").rule == "misspelled box"


def test_a_stated_time_is_read_as_a_time():
    assert grade("1:58 am", "So the answer is 1:58 am.") == "correct"
    assert grade("1:58 am", "So the answer is 1:58 pm.") == "incorrect"


_UNION = "(-\\infty, 2) \\cup (3, \\infty)"


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("x < 2 \\text{ or } x > 3", "correct"),
        ("x<2 or x>3", "correct"),
        ("x < 2 \\text{ or } x \\ge 3", "incorrect"),  # a closed end
        ("x < 3 \\text{ or } x > 2", "incorrect"),
        ("x < 2", "incorrect"),  # half the union
        ("x = 2 \\text{ or } x = 3", "incorrect"),  # values, not inequalities: a hedge
    ],
)
def test_inequalities_joined_by_or_against_a_union(answer, status):
    assert grade_completion(_UNION, f"So $\\boxed{{{answer}}}$.").status == status


def test_inequalities_joined_by_or_stay_a_hedge_against_one_interval():
    completion = "So $\\boxed{x < 2 \\text{ or } x > 3}$."
    assert grade_completion("(-\\infty, 2)", completion).status == "incorrect"
