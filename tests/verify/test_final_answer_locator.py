"""The final-answer locator's structural rules (issue 32): where a completion's end states its
answer, and where it must state nothing.

Inputs are written the way the tuning sources of tests/data/verdict_corpus write them
(GAOKAO-Bench's ``【答案】…<eoa>``, Plan-and-Solve's ``Answer:`` heading, TabMWP's bare
``(B) Thursday`` and "Wednesday is the correct answer."), and each rule has inputs on which
it must not fire: a number mid-derivation, a question restated, a completion cut off.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.end_tokens import without_end_tokens
from sampler.verify.answers.extraction import RULES, extract_answer
from sampler.verify.answers.one_sample import grade_completion


def _graded(gold: str, completion: str, problem: str | None = None) -> tuple[str, str | None]:
    graded = grade_completion(gold, completion, problem=problem)
    return graded.status, graded.rule


# -- end-of-sequence tokens and the bracketed answer marker (GAOKAO-Bench) ---------------


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("【解析】集合的交集是$\\{0,1,2\\}$，所以答案是D。<eoe>\n【答案】D<eoa>", "D", "correct"),
        ("【解析】……<eoe>\n【答案】: C <eoa>", "D", "incorrect"),
        ("【解析】……球的表面积为14π。<eoe>\n【答案】14π<eoa>", "14\\pi", "correct"),
        (
            "【解析】……<eoe>\n【答案】$\\frac{x^2}{4} - y^2 = 1$<eoa>",
            "\\frac{1}{4} x^{2}-y^{2}=1",
            "correct",
        ),
    ],
)
def test_bracketed_answer_marker_reads_what_the_brackets_hold(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion)[0] == status
    assert "<eoa>" not in (extract_answer(completion).text or "")


def test_an_empty_answer_bracket_states_nothing() -> None:
    assert (
        _graded("2", "【解析】解这个方程，可以得到 $t$ 的值。<eoe>\n【答案】<eoa>")[0]
        == "no_answer"
    )


def test_a_bracket_that_chooses_no_option_is_wrong_not_an_answer_letter() -> None:
    status, rule = _graded("A", "【解析】这是一个错误的题目。<eoe>\n【答案】无正确答案<eoa>")
    assert status == "incorrect" and rule == "answer marker (words)"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is 5.</s>", "The answer is 5.\n"),
        ("A: 5<|eot_id|>", "A: 5\n"),
        ("x < 3 and y > 2", "x < 3 and y > 2"),  # comparisons are no tokens
        ("<eoe>\n【答案】B<eoa>", "\n\n【答案】B\n"),
    ],
)
def test_end_tokens_become_line_breaks(text: str, expected: str) -> None:
    assert without_end_tokens(text) == expected


def test_a_chat_token_still_cuts_a_run_on_completion() -> None:
    completion = (
        "The answer is 5.<|im_end|>\n<|im_start|>user\nNew problem: what is 2+2?\nThe answer is 4."
    )
    graded = grade_completion("5", completion)
    assert graded.status == "correct" and graded.rule.endswith("(run-on cut)")


# -- an "Answer:" heading over a closing sentence (Plan-and-Solve) ------------------------


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        (
            "Calculation:\n\nTotal eggs available for sale = 16 - 3 - 4 = 9\nTotal money made at "
            "farmers' market = 9 x $2 = $18\n\nAnswer:\n Janet makes $18 every day at the "
            "farmers' market.",
            "18",
        ),
        (
            "Calculation:\nx = 126 - 66\nx = 60 kilograms\n\nAnswer:\nJessie weighed 60 kilograms "
            "before starting to jog.",
            "60",
        ),
        ("Calculation: 6 x 33 = 198\n\nAnswer: Jack has 198 books in the classics section.", "198"),
        (
            "Total revenue = $4079 + $8265 = $12,344\n\nAnswer:\nThe Razorback t-shirt shop made "
            "$12,344 from selling the t-shirts.",
            "12344",
        ),
    ],
)
def test_answer_heading_reads_the_one_value_of_its_sentence(completion: str, gold: str) -> None:
    assert _graded(gold, completion) == ("correct", "answer heading")
    assert _graded(str(int(gold) + 1), completion) == ("incorrect", "answer heading")


@pytest.mark.parametrize(
    "completion",
    [
        # cut off after the heading: nothing concluded
        "53 - 26 = 27\n\nAnswer: Randy should buy",
        # two values and no "is": the parts, not the answer
        "Answer: Jasper has 2 tubes of blue paint and 9 tubes of yellow paint.",
        # negated
        "Answer: The total is not 12.",
        # a heading over more than one line is not this rule's (the others read it)
        "Answer:\nLet x be the number of apples\nand y the number of pears",
    ],
)
def test_answer_heading_states_nothing_here(completion: str) -> None:
    assert _graded("12", completion)[1] != "answer heading"
    assert _graded("12", completion)[0] != "correct"


# -- a sentence that names its answer first, and a closing option letter (TabMWP, AQuA) ---


def test_named_as_the_answer() -> None:
    completion = (
        "Find the day with the greatest number of minutes. The day with the greatest number is "
        "Wednesday.\n\nWednesday is the correct answer."
    )
    assert _graded("Wednesday", completion) == ("correct", "named as the answer (words)")
    assert _graded("Tuesday", completion)[0] == "incorrect"
    assert _graded("12", "So $x = 12$ is the final answer.") == ("correct", "named as the answer")


@pytest.mark.parametrize(
    "completion",
    [
        "We test each value. If 5 is the correct answer, then",  # a hypothesis, cut off
        "x = 5. This is the correct answer.",  # a verdict on a pronoun names nothing
        "Which of 5 and 6 is the correct answer?",  # a question restated
    ],
)
def test_named_as_the_answer_must_not_fire(completion: str) -> None:
    assert _graded("5", completion)[1] != "named as the answer"


def test_closing_option_letter() -> None:
    completion = (
        "Rate of man along the current = (4 kmph + 2 kmph) / 2 = 6 kmph\n\nAnswer:\n\n"
        "The man's rate along the current is 6 kmph. (B)"
    )
    assert _graded("B", completion) == ("correct", "closing option")
    assert _graded("E", completion) == ("incorrect", "closing option")


@pytest.mark.parametrize(
    "completion", ["Let us check option (B)", "The options are (A) 3 (B)", "Now compute (B) first"]
)
def test_closing_option_must_not_fire_mid_text(completion: str) -> None:
    assert _graded("B", completion)[1] != "closing option"


# -- a bare option with its content (TabMWP) ----------------------------------------------


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("(B) Thursday", "B", "correct"),
        ("(B) nonlinear", "A", "incorrect"),
        ("Answer: (D) $20000", "D", "correct"),
    ],
)
def test_an_option_letter_with_its_content_is_that_letter(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion)[0] == status


def test_the_new_rules_are_listed() -> None:
    for rule in ("answer heading", "named as the answer", "closing option"):
        assert rule in RULES
