"""Answers with no marker at all (issue 32): a completion that is nothing but its answer, a
last sentence that states the result, display math that closes the completion, a final
sentence with several numbers read against what the question gave, an answer followed by a
check or a note, tool transcripts without an output fence, and math in Unicode characters.

Each rule has inputs on which it must state nothing (a refusal, LaTeX cut off, a step, a
question, a hedge) or on which the answer it finds must be judged wrong (a near miss).
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.afterword import without_afterword
from sampler.verify.answers.bare_answer import bare_answer
from sampler.verify.answers.closing_sentence import closing_statement, yes_no_sentence
from sampler.verify.answers.extraction import RULES, extract_answer
from sampler.verify.answers.last_number import given_numbers, only_value
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.sign_off import without_sign_off
from sampler.verify.answers.tool_transcript import echoed_output, fenced_output
from sampler.verify.answers.unicode_math import unicode_to_latex


def _graded(gold: str, completion: str, problem: str | None = None) -> tuple[str, str | None]:
    graded = grade_completion(gold, completion, problem=problem)
    return graded.status, graded.rule


# -- a completion that is nothing but its answer (graders' test pairs, terse replies) ----


@pytest.mark.parametrize(
    ("completion", "right", "wrong"),
    [
        (
            "\\begin{pmatrix}1\\\\2\\end{pmatrix}",
            "\\begin{pmatrix}1\\\\2\\end{pmatrix}",
            "\\begin{pmatrix}1\\\\3\\end{pmatrix}",
        ),
        (
            "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}",
            "\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}",
            "\\begin{pmatrix}1&0\\\\0&2\\end{pmatrix}",
        ),
        ("f'", "f'", "g'"),
        ("(x, t)", "(x, t)", "(x, y)"),
        ("atan(1)", "\\frac{\\pi}{4}", "\\frac{\\pi}{3}"),
        ("17\\text{ cm}", "17", "18"),
    ],
)
def test_a_bare_math_answer_is_read_as_math(completion: str, right: str, wrong: str) -> None:
    assert _graded(right, completion) == ("correct", "whole completion")
    assert _graded(wrong, completion) == ("incorrect", "whole completion")


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("\\text{east}", "\\text{east}", "correct"),
        ("\\text{east}", "\\text{west}", "incorrect"),
        ("odd", "\\text{odd}", "correct"),
        ("\\text{oddd}", "odd", "incorrect"),
        # words for a math gold: an answer was given, and it is wrong
        ("dog", "13\\pi R^2", "incorrect"),
        ("eval(chr(112))", "42", "incorrect"),
        ("not math at all", "1", "incorrect"),
    ],
)
def test_a_bare_answer_in_words_is_judged_by_the_golds_type(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion) == (status, "whole completion (words)")


@pytest.mark.parametrize(
    "completion",
    [
        "I don't know",
        "I give up.",
        "ran out of tokens",  # a harness's note that the generation failed
        "unicode ∑ \u0000 and \x1b[31m",  # control characters, and an open last word
        "N/A",
        "not 5 but 7",  # a negated number
        "I ran out of time before I could finish the",
        "I'm not sure.",
        "Sorry, I cannot solve this.",
        "\\frac{1}{",  # cut off inside its LaTeX
        "\\sqrt{2",
        "x = \\",
        "   ",
        "5\n6",  # two lines: not one bare answer
        "The quick brown fox jumps over the lazy dog while the model keeps writing words and",
    ],
)
def test_what_a_bare_answer_is_not(completion: str) -> None:
    assert bare_answer(completion) is None


def test_a_bare_first_line_never_cuts_a_run_on_completion() -> None:
    """A first line such as "Sure!" is no answer: the run-on cut needs one before it."""
    span = extract_answer("Sure!\nProblem: What is 2 + 2?\nSolution: $2 + 2 = 4$, so \\boxed{4}")
    assert span is not None and span.text == "4" and span.rule == "box"


def test_a_bare_answer_comes_after_every_other_rule() -> None:
    span = extract_answer("The answer is 12.")
    assert span is not None and span.rule != "whole completion"


# -- the last sentence states the result -------------------------------------------------


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        (
            "```python\nprint(-3)\n```\n```output\n-3\n```\nThe sum of the roots is \\( -3 \\).",
            "-3",
        ),
        ("Adding them, 2 + 4 = 6.\n\nThere are 6 marbles left.", "6"),
        ("We count the cases one by one.\nWe get 3 integers in total.", "3"),
        ("The total is 4! = 24 ways.\nThe number of arrangements is $24$.", "24"),
        ("We solve the system.\nThe roots are 2 and 3.", "2, 3"),
        ("We solve the system.\nThe roots are 2 and 3.", "\\{2, 3\\}"),
    ],
)
def test_a_closing_statement_states_the_result(completion: str, gold: str) -> None:
    assert _graded(gold, completion) == ("correct", "closing statement")


def test_a_closing_list_keeps_its_names_for_the_asked_value() -> None:
    completion = "We solve the system.\nThe point is \\( x = 2 \\) and \\( y = 3 \\)."
    assert _graded("3", completion, problem="Find $y$.")[0] == "correct"
    assert _graded("2", completion, problem="Find $y$.")[0] == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        "We expand the square.\nLet's check with x = 3.",  # a step
        "We expand the square.\nIs the total 12?",  # a question
        "We expand the square.\nThe total is not 12.",  # negated
        "We expand the square.\nThe total might be 12.",  # a hypothesis
        "We expand the square.\nThe total is 12 and",  # cut off
    ],
)
def test_a_closing_statement_must_not_fire(completion: str) -> None:
    assert closing_statement(completion) is None
    assert _graded("12", completion)[1] != "closing statement"


def test_a_hedged_closing_sentence_is_wrong() -> None:
    assert _graded("12", "We expand the square.\nThe total is 12 or 13.")[0] == "incorrect"


def test_closing_display_math_after_a_lead_in() -> None:
    assert _graded("6", "Adding up.\nThe final result is:\n\\[\n6\n\\]") == (
        "correct",
        "closing statement",
    )
    assert _graded("6", "Adding up, we get\n$$x = 6$$")[0] == "correct"
    # display math that is a step of a derivation ends nothing
    assert _graded("6", "Now we expand:\n\\[\n(x+1)^2 = x^2 + 2x + 1\n\\]")[0] == "no_answer"


def test_an_escaped_dollar_inside_math_is_a_dollar() -> None:
    assert _graded("12", "We add the prices.\nThe cost is $\\$12$.")[0] == "correct"


# -- several numbers in the final sentence: the one the question did not give ------------

_JANE = (
    "Jane saves $4 a week and has saved $32 so far. How many more weeks until she has "
    "saved a total of $60?"
)
_JANE_ANSWER = (
    "60 - 32 = 28\n28 / 4 = 7\n\nAnswer:\nIt will take Jane 7 more weeks to have saved a total "
    "of $60."
)


def test_numbers_the_question_gave_are_restated_not_the_answer() -> None:
    assert _graded("7", _JANE_ANSWER, problem=_JANE)[0] == "correct"
    assert _graded("8", _JANE_ANSWER, problem=_JANE)[0] == "incorrect"


def test_several_numbers_without_the_question() -> None:
    """Without the question, a sentence with several numbers is wrong when none of them is
    the gold, and states nothing when one is (which one it states cannot be told)."""
    assert _graded("8", _JANE_ANSWER) == ("incorrect", "answer heading (words)")
    assert _graded("7", _JANE_ANSWER) == ("no_answer", "answer heading (words)")
    assert _graded("60", _JANE_ANSWER)[0] == "no_answer"


def test_given_numbers_and_only_value() -> None:
    assert given_numbers("Ben has 4 tubes, 1,000 beads and 2.50 dollars.") == {"4", "1000", "2.5"}
    given = given_numbers(_JANE)
    assert only_value("It takes 7 weeks to reach $60", given) == "7"
    assert only_value("Jasper has 2 blue and 9 yellow tubes", given) is None  # both new
    assert only_value("It takes 7 weeks to reach $60", frozenset()) is None


def test_the_rules_are_listed() -> None:
    assert "closing statement" in RULES and "whole completion" in RULES


# -- closing courtesies, tool transcripts, yes/no sentences, words in a box ---------------


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        ("We multiply.\nSo the product is 42.\n\nLet me know if you have other questions!", "42"),
        ("We multiply.\nThe product is $42$. I hope this helps! Good luck.", "42"),
        ("We multiply.\nThe answer is 42.\n\nIf you have any other questions, just ask.", "42"),
    ],
)
def test_a_closing_courtesy_is_no_part_of_the_answer(completion: str, gold: str) -> None:
    assert _graded(gold, completion)[0] == "correct"
    assert _graded("43", completion)[0] == "incorrect"


def test_without_sign_off_keeps_what_is_not_a_courtesy() -> None:
    kept = "Let me know if x = 3.\nThen the answer is 5"
    assert without_sign_off(kept) == kept  # a courtesy must end the text
    assert without_sign_off("Let me know if you need help") == "Let me know if you need help"


@pytest.mark.parametrize(
    "completion",
    [
        "```python\nprint(6*7)\n```\n```\n42\n```",
        "```python\nprint(6*7)\n```\nOutput:\n```\n42\n```",
        "```python\nprint(6*7)\n```\n```text\n42\n```",
        "from sympy import *\nresult = 6*7\nresult\n42",
    ],
)
def test_the_printed_result_of_a_tool_transcript(completion: str) -> None:
    assert _graded("42", completion)[0] == "correct"
    assert _graded("43", completion)[0] == "incorrect"


def test_a_printed_sentence_with_one_value() -> None:
    completion = "```python\nprint(total)\n```\n```\nThe total is 5 apples\n```"
    assert _graded("5", completion) == ("correct", "tool output")
    assert _graded("6", completion)[0] == "incorrect"


def test_a_notebook_echo_reads_a_formula() -> None:
    completion = "from sympy import *\nresult = sqrt(2)/2\nresult\nsqrt(2)/2"
    assert _graded("\\frac{\\sqrt{2}}{2}", completion) == ("correct", "tool output")
    assert _graded("\\frac{\\sqrt{3}}{2}", completion)[0] == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        # a block that is no code's output, a result of several lines, an equation printed
        "Here is a table:\n```\n42\n```",
        "```python\nprint(6*7)\n```\n```\n42\n43\n```",
        "```python\nprint(x)\n```\n```\nx = 42\n```",
        "The product of six and seven\nresult\n42 apples and more",
    ],
)
def test_what_is_no_printed_result(completion: str) -> None:
    assert fenced_output(completion) is None and echoed_output(completion) is None


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("We check divisibility.\nNo, 1234 is not a multiple of 7.", "False", "correct"),
        ("We check divisibility.\nNo, 1234 is not a multiple of 7.", "True", "incorrect"),
        ("We check.\nYes, 1234 is a multiple of 2.", "True", "correct"),
    ],
)
def test_a_closing_yes_no_sentence_answers_a_boolean(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion) == (status, "yes/no sentence")


def test_a_yes_that_confirms_is_no_answer_of_its_own() -> None:
    assert yes_no_sentence("The answer is 5.\nYes, that is correct.") is None


@pytest.mark.parametrize(
    ("completion", "right", "wrong"),
    [
        ("So \\boxed{\\text{The answer is 5}}", "5", "6"),
        ("So \\boxed{\\text{five}}", "5", "6"),
        ("So \\boxed{five}", "5", "6"),
        ("We sort.\nThe numbers in decreasing order are 5, 2, and -3.", "5, 2, -3", "5, 2, 3"),
        ("We differentiate twice.\nThe second derivative is -12*x**2.", "-12x^2", "-12x^3"),
    ],
)
def test_words_in_a_box_lists_and_plain_formulas(completion: str, right: str, wrong: str) -> None:
    assert _graded(right, completion)[0] == "correct"
    assert _graded(wrong, completion)[0] == "incorrect"


# -- an afterword after the answer: a check, a note, verifying code, a rule line ---------


@pytest.mark.parametrize(
    "completion",
    [
        "We add.\nThe sum is \\( 5 \\). Let's verify this with code:\n```python\nprint(2+3)\n```",
        "We add.\nThe sum is \\( 5 \\). Let's verify:\n```python\nprint(2+3)\n```\n"
        "```output\n5\n```\nThe code confirms it.",
        "We add.\nThe sum is \\( 5 \\).\n\nLet's double check: 2+3=5. Correct.",
        "We add.\nThe sum is 5.\n\nNote: this assumes integer inputs.",
        "We add.\nTherefore, the sum is $5$\n\n---",
        "We add.\nThe product is \\(5\\). This is the final result.",
        "We add.\nThe sum is \\( 5 \\). Thus, the result is confirmed.",  # no value in it
        "We add.\nThe number of ways is 5.\nEach of them satisfies the conditions.",
    ],
)
def test_the_answer_before_an_afterword(completion: str) -> None:
    graded = grade_completion("5", completion)
    assert graded.status == "correct" and graded.rule.endswith("(before an afterword)")
    assert grade_completion("6", completion).status == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        "We add.\n\\[ 2 + 3 = 5 \\]\nThus, the sum is",  # cut off: nothing concluded
        "The sum is 5.\n\nLet's verify this by considering the case where x",  # check cut off
        "The sum is 5. Let's verify:\n```python\nprint(2+",  # unclosed fence
        "We add.\nThe sum is \\( 5 \\). So no other value works.",
    ],
)
def test_a_cut_off_afterword_is_not_removed(completion: str) -> None:
    """Nor one that says something of its own: "So no other value works." is a negation."""
    assert without_afterword(completion) is None or grade_completion("5", completion).rule is None


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("-2, 2", "[-2, 2]", "correct"),  # Python's list for a bare list gold
        ("-2, 2", "[-2, 3]", "incorrect"),
        ("[3, 5]", "3, 5", "correct"),  # an ordered list gold
        ("[3, 5]", "5, 3", "incorrect"),
        ("[1, 2]", "(1, 2]", "incorrect"),  # an interval stays an interval
    ],
)
def test_a_list_reads_with_the_golds_brackets(gold: str, answer: str, status: str) -> None:
    assert grade_completion(gold, f"So \\boxed{{{answer}}}").status == status


# -- math written in Unicode characters ----------------------------------------------------


@pytest.mark.parametrize(
    ("completion", "right", "wrong"),
    [
        ("We compute.\nThe result is √2.", "\\sqrt{2}", "\\sqrt{3}"),
        ("We compute.\nThe length is 3√2 units.", "3\\sqrt{2}", "2\\sqrt{3}"),
        ("We compute.\nThe result is 2⁵.", "32", "33"),
        ("We compute.\nThe result is 5 × 10³.", "5000", "500"),
        ("We compute.\nThe angle is π/4.", "\\frac{\\pi}{4}", "\\frac{\\pi}{3}"),
        ("We compute.\nThe result is ½.", "\\frac{1}{2}", "\\frac{1}{3}"),
        ("So \\boxed{3¾}", "3.75", "3.5"),
        ("So \\boxed{x₁²}", "x_1^2", "x_2^2"),
        ("So \\boxed{10⁻³}", "0.001", "0.01"),
    ],
)
def test_unicode_math_is_read_as_math(completion: str, right: str, wrong: str) -> None:
    assert grade_completion(right, completion).status == "correct"
    assert grade_completion(wrong, completion).status == "incorrect"


def test_unicode_to_latex_leaves_other_text_alone() -> None:
    assert unicode_to_latex("x^2 + 1") == "x^2 + 1"
    assert unicode_to_latex("√(x+1)") == "\\sqrt{x+1}"
    assert unicode_to_latex("14π") == "14\\pi"


# -- numbers in words and spaces -----------------------------------------------------------


@pytest.mark.parametrize(
    ("completion", "right", "wrong"),
    [
        ("We add.\nThe total is five.", "5", "6"),
        ("We add.\nThe total is twenty-one apples.", "21", "20"),
        ("We add.\nThe total is 1.5 million dollars.", "1500000", "1500"),
        ("We add.\nThe change is minus 5.", "-5", "5"),
        ("We add.\nThe total is 1 000.", "1000", "1"),
        ("We list.\nThe digits are 6 4 0.", "6 4 0", "6 4 1"),
    ],
)
def test_numbers_in_words_and_spaces(completion: str, right: str, wrong: str) -> None:
    assert grade_completion(right, completion).status == "correct"
    assert grade_completion(wrong, completion).status == "incorrect"


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("6 4 0", "0", "incorrect"),  # not the product math-verify reads in "6 4 0"
        ("6 4 0", "6, 4, 0", "correct"),
        ("6 4 0", "[6, 4, 0]", "correct"),
        ("6", "2 3", "incorrect"),
        ("12 000", "12000", "correct"),  # thousands grouped by spaces
    ],
)
def test_a_gold_list_written_with_spaces(gold: str, answer: str, status: str) -> None:
    assert grade_completion(gold, f"So \\boxed{{{answer}}}").status == status


_CODE = "Let's compute.\n<llm-code>\nprint((16 - 3 - 4) * 2)\n</llm-code>\n"


@pytest.mark.parametrize(
    ("completion", "status"),
    [
        (_CODE + "<llm-code-output>\n18\n</llm-code-output>", "correct"),
        (_CODE + "<llm-code-output>\n18\n</llm-code-output>\n", "correct"),
        ("We compute.\n<output>\n18\n</output>", "correct"),
        ("<|execution_start|>\n18\n<|execution_end|>", "correct"),
        (_CODE + "<llm-code-output>\n17\n</llm-code-output>", "incorrect"),
        # several lines, an equation, an error: no result stated
        (_CODE + "<llm-code-output>\n17\n18\n</llm-code-output>", "no_answer"),
        (_CODE + "<llm-code-output>\nx = 18\n</llm-code-output>", "no_answer"),
        (
            _CODE + "<llm-code-output>\nNameError: name 'x18' is not defined\n</llm-code-output>",
            "no_answer",
        ),
    ],
)
def test_output_tags_that_close_the_completion(completion, status):
    assert grade_completion("18", completion).status == status


@pytest.mark.parametrize(
    ("completion", "status"),
    [
        ("Options: (A) 3 (B) 5 (C) 7. Since 2 + 3 = 5, so it's B.", "correct"),
        ("So it is B.", "correct"),
        ("Hence it must be (B).", "correct"),
        ("That is B!", "correct"),
        ("Since 2 + 3 = 5, it's C.", "incorrect"),
        ("It might be B.", "incorrect"),  # a hedge states no choice
        ("So it is b.", "incorrect"),  # a lower-case letter is a variable, not an option
    ],
)
def test_a_pronoun_naming_an_option_closes_the_completion(completion, status):
    assert grade_completion("B", completion).status == status


@pytest.mark.parametrize(
    "completion",
    [
        "Step 1: 2 + 3 = 5\nStep 2:",
        "Step 1: 2 + 3 = 5\n### Step 2",
        "First case done.\n**Case 2:**",
        "Part 1 is done.\nPart 2.",
    ],
)
def test_a_heading_number_that_ends_a_cut_off_completion_is_no_answer(completion):
    assert grade_completion("2", completion).status == "no_answer"


def test_a_number_alone_on_the_last_line_is_still_read():
    assert grade_completion("5", "We add them up.\n5").status == "correct"


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("Option A is correct.", "A", "correct"),
        ("Among the options, A is correct.", "A", "correct"),
        ("A is the right choice.", "A", "correct"),
        ("I choose C.", "C", "correct"),
        ("My answer: C", "C", "correct"),
        ("Option B is correct.", "A", "incorrect"),
        ("I think A is correct, but B might be.", "A", "no_answer"),  # a hedge chooses none
        ("If A is correct, then", "A", "incorrect"),  # a hypothesis, cut off
        ("So the best option is B) 5.", "B", "correct"),  # the option's letter with content
        ("So the best option is B) 5.", "5", "correct"),  # and its content for a value gold
        ("So the best option is B) 5.", "A", "incorrect"),
    ],
)
def test_an_option_chosen_in_words(completion, gold, status):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize("completion", ["So x is 5.", "So, x is 5.", "It is 5."])
def test_a_sentence_of_short_words_is_no_formula(completion):
    assert grade_completion("5", completion).status == "correct"
