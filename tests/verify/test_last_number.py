"""The ``stated`` strategy's last rule: the number that ends a completion's last line.

math-verify's extraction finds these finals; leash's structural rules did not. The rule
must still refuse what is no final: a negated, hedged, operator-led or cut-off number.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.last_number import last_number, only_value
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("completion", "value"),
    [
        ("La réduction est de 100 * 0,30 = 30 $. Le coût final est donc de 100 - 30 = 70", "70"),
        ("the number is not 10 which is 1,000.99€", "1000.99"),
        ("not it's not 10 it's 1,000.99m²", "1000.99"),
        ("Soucis : 2,74 $ a..", "2.74"),
        ("Step 1: 3 apples.\nShe keeps 14 bags.", "14"),
        ("he pays 1,000 dollars", "1000"),
        ("the share is 13/28", "13/28"),
    ],
)
def test_the_number_that_ends_the_last_line_is_the_final(completion, value):
    span = last_number(completion)
    assert span is not None and span.text == value and span.rule == "last number"
    found = extract_answer(completion)  # another rule may read it first, never otherwise
    assert found is not None and found.text == value


@pytest.mark.parametrize(
    "completion",
    [
        "it is not 12",  # negated
        "so we need to compute 3 + 4",  # a term of an expression: cut off mid-step
        "We get 17 apples and then we divide the rest among the",  # runs on in words
        "Is the total 12?",  # a question
        "The total is 12.\nNow let us check the other case",  # the last line has no number
        "x_2",  # a subscript, not a number
    ],
)
def test_no_final_where_the_last_number_is_no_conclusion(completion):
    assert last_number(completion) is None


def test_two_numbers_joined_by_or_are_a_hedge_and_wrong():
    span = last_number("so it is 3 or 4")
    assert span is not None and span.text == "3 or 4"
    assert grade_completion("3", "so it is 3 or 4").status == "incorrect"


def test_an_off_by_one_last_number_is_still_wrong_and_the_gold_right():
    text = "La réduction est de 100 * 0,30 = 30 $. Le coût final est donc de 100 - 30 = 70"
    assert grade_completion("70", text).status == "correct"
    assert grade_completion("71", text).status == "incorrect"
    assert grade_completion("1000.99", "the number is not 10 which is 1,000.99€").status == (
        "correct"
    )
    assert grade_completion("10", "the number is not 10 which is 1,000.99€").status == ("incorrect")


def test_words_holding_one_value_give_it_and_several_give_none():
    assert only_value("每份应该是 (\\frac{2}{5}) 吨") == "\\frac{2}{5}"
    assert only_value("Janeth owes 220 $ now") == "220"
    assert only_value("Janeth owes 220 $ within 12 months") is None
    assert only_value("it is 3 or 4") is None
    assert only_value("it is not 3") is None
    assert only_value("5, but I ran out of time") is None
    assert only_value("no number here") is None


@pytest.mark.parametrize(
    "completion",
    [
        "Wait, let me double-check this step. If $k = 3$, then $k^2 = 9$",
        "Multiplying both sides by $19$ gives \\begin{align*} 19y &= 127 \\\\",
        "By the Law of Cosines, $c^2 = a^2 + b^2 - 2ab\\cos\\theta = 113$.",
        "Since \\(x = 4\\), we get \\(y = 12",
    ],
)
def test_a_number_inside_latex_math_that_concludes_nothing_is_a_step_cut_off(completion):
    assert last_number(completion) is None


@pytest.mark.parametrize(
    ("completion", "value"),
    [
        ("unicode ∑ \u0000 and \x1b[31m", None),  # the digits of a colour code are no number
        ("the end\x1b]8;;http://x/42\x07", None),  # nor those of a terminal link
        ("the total is \x1b[1m70\x1b[0m", "70"),  # a number between control sequences is one
        ("so it is 7\r\n", "7"),
    ],
)
def test_terminal_control_sequences_are_not_text(completion, value):
    span = last_number(completion)
    assert (span.text if span is not None else None) == value
