"""Issue 32: finals read from the structure of a completion's end (JSON field, concluding
sentence, "the answer (…) is", the last complete statement), graded the way ``leash verify``
grades a sample. Every right case has a wrong twin (another value, or a hedge) that must
stay wrong, and a sentence that does not conclude states nothing."""

from __future__ import annotations

import pytest

from sampler.verify.answers.golds import labelled_choice
from sampler.verify.answers.one_sample import grade_completion

JSON_FENCE = '```json\n{{"reasoning": "2 + 1 = 3, so three.", "answer": {}}}\n```'


@pytest.mark.parametrize(
    ("completion", "gold", "status", "rule"),
    [
        (JSON_FENCE.format('"3"'), "3", "correct", "json answer field"),
        (JSON_FENCE.format('"4"'), "3", "incorrect", "json answer field"),
        (JSON_FENCE.format("3"), "3", "correct", "json answer field"),
        (JSON_FENCE.format('"\\\\frac{1}{2}"'), "\\frac{1}{2}", "correct", "json answer field"),
        (JSON_FENCE.format('"$\\\\frac{1}{3}$"'), "\\frac{1}{2}", "incorrect", "json answer field"),
        (JSON_FENCE.format('"\\\\boxed{12}"'), "12", "correct", "box"),
        (JSON_FENCE.format('"C"'), "C", "correct", "json answer field"),
        (JSON_FENCE.format('"The answer is 18 dollars"'), "18", "correct", "json answer field"),
        (JSON_FENCE.format('"3 or -3"'), "3", "incorrect", "json answer field"),
        # the answer field ends last: a statement inside the reasoning does not win
        ('{"reasoning": "the answer is 5", "answer": "6"}', "5", "incorrect", "json answer field"),
        ("Therefore, the answer (arabic numerals) is 18.", "18", "correct", "statement"),
        ("Therefore, the answer (arabic numerals) is 19.", "18", "incorrect", "statement"),
        ("Among A through E, the answer is (C).", "C", "correct", "statement"),
        ("So the answer (Yes or No) is no.", "False", "correct", "statement (words)"),
        # a completion cut off after "The answer is": the statement before it counts
        ("The answer is True.\nThe answer is True.\nThe answer is", "True", "correct", None),
        ("The answer is False.\nThe answer is False.\nThe answer is", "True", "incorrect", None),
        ("The answer is (a).\nThe answer is (a).\nThe answer is (", "(a)", "correct", None),
        # "This answer is correct." is a verdict on an answer (a loop), not a statement of one
        ("The answer is 6.\n" + "This answer is correct.\n" * 8, "6", "correct", "statement"),
        ("The answer is 7.\n" + "This answer is correct.\n" * 8, "6", "incorrect", "statement"),
        ("The answer is (b).\nThe answer is (b).\nThe answer is (", "(a)", "incorrect", None),
    ],
)
def test_structured_finals(completion, gold, status, rule):
    graded = grade_completion(gold, completion)
    assert graded.status == status
    if rule is not None:
        assert graded.rule == rule


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("Il reste 353 g - 79 g = 274 g. Donc, il a déjà 79 g de cire.", "79", "correct"),
        ("Il reste 353 g - 79 g = 274 g. Donc, il a déjà 78 g de cire.", "79", "incorrect"),
        ("我们知道。 66 + 126 = 192公斤 因此，杰西开始慢跑前的体重是192公斤。", "192", "correct"),
        ("我们知道。 66 + 126 = 192公斤 因此，杰西开始慢跑前的体重是191公斤。", "192", "incorrect"),
        ("所以一共有3 + 10 = 13只鸟和鹳鸟。", "13", "correct"),
        ("इसलिए, दुकान में अब 67 कमीजें हैं। ", "67", "correct"),
        ("Therefore $x \\geq 5$ is the solution.", "x >= 5", "correct"),
        ("Thus $x <= 2$ is our answer.", "x \\leq 2", "correct"),
        ("Thus $x <= 3$ is our answer.", "x \\leq 2", "incorrect"),
        ("The solution is $x != 5$", "x \\neq 5", "correct"),
        (
            "Substituting back, $y = 8.8 - 2.8 = 6$ So, the ordered pair $(x, y)$"
            " that solves it is $(7, 6)$.",
            "(7,6)",
            "correct",
        ),
        (
            "Substituting back, $y = 8.8 - 2.8 = 6$ So, the ordered pair $(x, y)$"
            " that solves it is $(6, 7)$.",
            "(7,6)",
            "incorrect",
        ),
        ("Therefore, there are 12 sequences that meet the three conditions.", "12", "correct"),
        ("Therefore, the minimum error increases by 100%.", "100\\%", "correct"),
        # a hedge: every alternative is given, and judged wrong
        ("Therefore x = 3 or x = -3.", "3", "incorrect"),
        ("Therefore $x = 3$ or $x = -3$.", "-3", "incorrect"),
        # a completion that is one sentence states its answer, whatever opens it
        (
            "The identity matrix is $\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}$.",
            "\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}",
            "correct",
        ),
        (
            "The identity matrix is $\\begin{pmatrix}1 & 0 \\\\ 0 & 2\\end{pmatrix}$.",
            "\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}",
            "incorrect",
        ),
        # not concluding, negated, several values without "is", or cut off: nothing stated
        ("We add 3 to 5 and get 8 apples in the basket.", "8", "no_answer"),
        ("Thus, the total is **not** 5 but **7**.", "7", "no_answer"),
        ("So we get 5, then we add 3 to get 8", "8", "no_answer"),
        ("Therefore, there are 12 sequences that meet the three", "12", "no_answer"),
    ],
)
def test_concluding_sentence(completion, gold, status):
    graded = grade_completion(gold, completion)
    assert graded.status == status
    if status != "no_answer":  # "… is our answer." names its answer first: that rule may read it
        assert graded.rule in ("concluding sentence", "named as the answer")


@pytest.mark.parametrize(
    ("answer", "gold", "status"),
    [
        ("x < 3", "(-\\infty, 3)", "correct"),
        ("x \\le 3", "(-\\infty, 3)", "incorrect"),
        ("x > 3", "(-\\infty, 3)", "incorrect"),
        ("x \\geq 5", "[5, \\infty)", "correct"),
        ("x > 5", "[5, \\infty)", "incorrect"),
        ("(-\\infty, 3)", "x < 3", "correct"),
        ("(-\\infty, 3]", "x < 3", "incorrect"),
    ],
)
def test_interval_gold_against_an_inequality(answer, gold, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status


@pytest.mark.parametrize(
    ("answer", "gold", "status"),
    [
        ("1000,99", "1000.99", "correct"),
        ("1000,98", "1000.99", "incorrect"),
        ("2,74", "2.74", "correct"),
        ("1,500", "1.5", "incorrect"),  # three digits after the comma: thousands
    ],
)
def test_a_decimal_comma_against_a_decimal_gold(answer, gold, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("D. it can't be A or B", "D", "correct"),
        ("D. it can't be A or B", "A", "incorrect"),
        ("B。 不是 A", "B", "correct"),
        ("B。 不是 A", "A", "incorrect"),
        # alternatives in the stated clause stay a hedge
        ("B, or possibly C", "B", "incorrect"),
        ("The answer is B, or possibly C.", "B", "incorrect"),
        ("Therefore the answer is D or E.", "D", "incorrect"),
    ],
)
def test_a_choice_letter_then_its_reasons(completion, gold, status):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("answer", "gold", "status"),
    [
        ("i(2-i)", "1+2i", "correct"),
        ("i(2+i)", "1+2i", "incorrect"),
        ("(2-i)^2", "3-4i", "correct"),
        ("(2-i)^2", "3+4i", "incorrect"),
        ("-2/i", "2i", "correct"),
        ("i^2", "-1", "incorrect"),  # the gold has no i: i stays a symbol
    ],
)
def test_i_is_the_imaginary_unit_when_both_sides_use_it(answer, gold, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("(D) Alina", "D", "correct"),
        ("(D) Alina", "C", "incorrect"),
        ("(D) Alina", "The answer is Alina.", "correct"),
        ("(D) Alina", "The answer is Bob.", "incorrect"),
        ("(A) $4^{x}$", "so $\\boxed{4^x}$", "correct"),
        ("(A) $4^{x}$", "so $\\boxed{4^y}$", "incorrect"),
        # no option label: a title is no option A
        ("A Tale", "The answer is A Farewell.", "incorrect"),
    ],
)
def test_a_gold_written_as_a_letter_with_its_content(gold, completion, status):
    assert grade_completion(gold, completion).status == status


def test_only_a_punctuated_label_makes_a_gold_an_option():
    assert labelled_choice("(D) Alina") == (("D", "Alina"),)
    assert labelled_choice("B. 12") == (("B", "12"),)
    assert labelled_choice("I \\frac{d \\omega}{d t}+2 B \\omega=T") == ()
    assert labelled_choice("A Tale") == ()
    assert labelled_choice("B. x=3") == ()


def test_a_choice_gold_accepts_its_option_content_as_math():
    problem = "Which is it?\nA. $2+\\sqrt{3}$\nB. $2\\sqrt{3}-1$\nC. $3$\nD. $4$"
    box = "因此，答案是：\n\\[\n\\boxed{2\\sqrt{3} - 1}\n\\]"
    assert grade_completion("B", box, problem=problem).status == "correct"
    assert grade_completion("A", box, problem=problem).status == "incorrect"
    assert grade_completion("B", box.replace("- 1", "- 2"), problem=problem).status == "incorrect"
    assert grade_completion("B", box).status == "incorrect"  # no options to read
