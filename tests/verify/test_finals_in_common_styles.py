"""Final answers in styles chat models write that leash used to find no answer in.

Each class was found by probing common answer styles against the verifier: closing marks
(emoji, check marks, QED), an answer named first ("25 is the answer."), a value with a
remark or in quotes, a computation in display math or an ``aligned`` environment that ends
the completion, an equal restatement ("0.75, or $\\frac34$ as a fraction"), and choice
letters written alone, after a conclusion word, as "option B" or in lowercase. Each
positive case has its off-by-one twin, which must stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.sign_off import without_sign_off

WORK = "Let me think. First we have 3 apples and 7 more, then 10 pairs and 4 left over.\n\n"
APPLES = "How many apples does she have?"

VALUE_ENDINGS = [
    "**Final answer:** {v} ✅",
    "She has {v} apples. 🍎",
    "Therefore {v}. QED",
    "The answer is {v}. $\\blacksquare$",
    "Answer: {v} ✅\n\nI hope this helps! 😊",
    "{v} is the answer.",
    "So, ${v}$ is the answer.",
    "{v} apples would be the answer.",
    "Answer: {v} (rounded to the nearest whole number)",
    'Answer: "{v}"',
    "Answer: `{v}`",
    "$$\\begin{{aligned}} t &= 10 + 15 \\\\ &= {v} \\end{{aligned}}$$",
    "\\[\n\\begin{{align*}}\nt &= 10 + 15 \\\\\n&= {v}\n\\end{{align*}}\n\\]",
    "\\[ 10 + 15 = {v} \\]",
    "\\[ \\text{{Apples}} = 10 + 15 = {v} \\]",
]


@pytest.mark.parametrize("ending", VALUE_ENDINGS)
def test_a_stated_value_is_found_and_judged(ending: str) -> None:
    right = grade_completion("25", WORK + ending.format(v=25), problem=APPLES)
    wrong = grade_completion("25", WORK + ending.format(v=26), problem=APPLES)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


@pytest.mark.parametrize(
    "ending",
    [
        "Here is the answer.",
        "The number of apples is the answer.",
        "Let's verify:\n\\[ 25 - 15 = 10 \\]",
        "\\[ x^2 - 5x + 6 = 0 \\]",
        "\\[ 2x + 3 = 13 \\]",
        "Answer: 25 (or 26 if we count the core)",
    ],
)
def test_what_states_no_value_stays_no_answer(ending: str) -> None:
    """A pointer to an answer, a check, an equation to solve, a hedge in a remark."""
    graded = grade_completion("10", WORK + ending, problem=APPLES)
    assert graded.status == "no_answer", graded


def test_closing_marks_go_but_what_is_not_a_mark_stays() -> None:
    assert without_sign_off("x = 25 ✔️") == "x = 25"
    assert without_sign_off("A: 25 👍🏽") == "A: 25"
    assert without_sign_off("so 25.  \\(\\blacksquare\\)") == "so 25."
    for kept in ("$3+\\square$", "Answer: ○", "25 QEDx", "Answer ⟶ 25", "✅"):
        assert without_sign_off(kept) == kept


@pytest.mark.parametrize(
    ("ending", "gold", "status"),
    [
        ("The answer is 0.75, or $\\frac{3}{4}$ as a fraction.", "\\frac34", "correct"),
        ("The answer is 0.75, or $\\frac{2}{3}$ as a fraction.", "\\frac34", "incorrect"),
        ("So the probability is $\\frac{1}{2}$, or 50%.", "\\frac12", "correct"),
        ("The answer is $3$ or $-3$.", "3", "incorrect"),
        ("The answer is 25, or 26 if we count the core.", "25", "incorrect"),
    ],
)
def test_an_equal_restatement_is_one_value_and_a_hedge_is_wrong(
    ending: str, gold: str, status: str
) -> None:
    assert grade_completion(gold, WORK + ending, problem="What is it?").status == status


CHOICE_PROBLEM = "Which is largest?\n(A) 2\n(B) 5\n(C) 3\n(D) 1"
CHOICE_WORK = "Comparing the options, 5 is bigger than 3, 2 and 1.\n\n"


@pytest.mark.parametrize(
    "ending",
    [
        "**B**",
        "B",
        "Hence, (B).",
        "5 is the largest. So B.",
        "The correct answer is option B.",
        "The answer is option (B).",
        "I would choose B.",
        "Correct answer: B",
        "Answer choice: B",
        "My answer is B.",
        "Answer: [B]",
        "the answer is b",
        "Option B is the answer.",
    ],
)
def test_a_choice_letter_is_found_however_it_is_written(ending: str) -> None:
    right = grade_completion("B", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    wrong = grade_completion("C", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


@pytest.mark.parametrize(
    "ending", ["This answer is correct.", "My answer is correct.", "Our answer is consistent."]
)
def test_a_verdict_on_an_answer_states_none(ending: str) -> None:
    graded = grade_completion("B", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    assert graded.status == "no_answer", graded
