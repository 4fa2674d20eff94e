"""Three ways of writing a final answer the default extraction reads: an ``<answer>`` pair
(R1-style and GRPO format prompts ask for it), a number with what it counts as its unit
(``\\boxed{12 cookies}``), and a last sentence that calls the statement true or false; each
with the near misses that must stay as they were."""

from __future__ import annotations

import pytest

from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.units import split_unit


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("5", "Some reasoning: 2 + 3.\n<answer>5</answer>"),
        ("5", "<think>2+3 is 5</think>\n<answer>5</answer>"),
        ("5", "<think>Maybe \\boxed{4}? No, wait: 2+3.</think>\n<answer>5</answer>"),
        ("5", "<answer>The answer is 5</answer>"),
        ("18", "<answer>$18</answer>"),
        ("\\frac{1}{2}", "<answer>\\frac{1}{2}</answer>\n"),
        ("5", "<answer>\\boxed{5}</answer>"),
        ("5", "<ANSWER> 5 </ANSWER>"),
    ],
)
def test_an_answer_pair_is_the_final_answer(gold, completion):
    assert grade_completion(gold, completion).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        # a statement after the pair is the last word: it wins
        ("6", "<answer>5</answer>\nActually, the answer is 6.", "correct"),
        # a box after the pair wins, as it does after any statement
        ("5", "<answer>4</answer> Checking again: \\boxed{5}", "correct"),
        # the format quoted in the reasoning, empty or a placeholder: the box is the answer
        ("5", "I must answer as <answer></answer>. So \\boxed{5}", "correct"),
        ("5", "Format: <answer> answer here </answer>. Thus \\boxed{5}", "correct"),
        # a wrong tagged answer stays wrong
        ("5", "<think>\\boxed{5}</think><answer>6</answer>", "incorrect"),
        # an opening tag never closed states nothing by itself
        ("5", "<answer>", "no_answer"),
    ],
)
def test_near_misses_of_answer_pairs(gold, completion, status):
    assert grade_completion(gold, completion).status == status


def test_the_tag_rule_is_named():
    span = extract_answer("Reasoning.\n<answer>7</answer>")
    assert span is not None and span.text == "7" and span.rule == "answer tag"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("5", "So \\boxed{5 apples}"),
        ("12", "\\boxed{12 red marbles}"),
        ("5", "<answer>5 apples</answer>"),
        ("3", "The answer is $3 \\text{ ways}$."),
        ("7", "\\boxed{7 solutions}"),
    ],
)
def test_a_number_with_what_it_counts_is_the_number(gold, completion):
    assert grade_completion(gold, completion).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("3", "\\boxed{3 dozen}"),  # a scale: 36
        ("5", "\\boxed{5 times}"),  # an operation
        ("3", "\\boxed{3 halves}"),  # a fraction word: 1.5
        ("5 \\text{ pears}", "\\boxed{5 apples}"),  # another thing counted
        ("4", "\\boxed{5 apples}"),  # the count still decides
    ],
)
def test_words_that_scale_or_differ_are_not_dropped(gold, completion):
    assert grade_completion(gold, completion).status == "incorrect"


def test_count_nouns_follow_only_a_plain_number():
    assert split_unit("12 cookies") == ("12", "count:cookie")
    assert split_unit("x + 2 cookies")[1] is None  # a formula keeps its words
    # capitalised, as Omni-MATH's models write it ("\\boxed{6 Trinkets}"): still a count
    assert split_unit("6 Trinkets") == ("6", "count:trinket")
    assert split_unit("2 Pi")[1] is None  # a constant's name is no count
    assert split_unit("5 APPLES")[1] is None
    assert split_unit("2 sqrt")[1] is None


_CHECKED = "We check n = 1, 2 and 3: 1+1=2, 2+2=4 and 3+3=6 are all even.\n\n"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("True", "The statement is true."),
        ("True", _CHECKED + "Therefore, the statement is true."),
        ("False", _CHECKED + "Hence the claim is false."),
        ("False", _CHECKED + "Thus the statement is not true."),
        ("True", "Hence the inequality is always true."),
        ("True", _CHECKED + "So it is true."),
    ],
)
def test_a_statement_called_true_or_false_answers_a_boolean_gold(gold, completion):
    problem = "True or false: n + n is even for every integer n."
    assert grade_completion(gold, completion, problem=problem).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("False", _CHECKED + "Therefore, the statement is true."),
        ("True", _CHECKED + "Thus the statement is not true."),
        ("False", "Is it true?"),  # a question states nothing true
    ],
)
def test_the_wrong_boolean_stays_wrong(gold, completion):
    assert grade_completion(gold, completion).status != "correct"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("0.5", "One half."),
        ("0.5", "half"),
        ("3/4", "three quarters"),
        ("\\frac{1}{2}", "The probability is one half."),
        ("0.75", "The fraction is three quarters."),
        ("\\frac{5}{2}", "The answer is two and a half."),
        ("1000000", "a million"),
        ("\\frac{1}{2}", "So $\\boxed{\\frac12}$."),
        ("one half", "So $\\boxed{\\frac12}$."),  # a gold in words
        ("5", "= 5"),
    ],
)
def test_fractions_in_words_and_a_bare_right_hand_side(gold, completion):
    assert grade_completion(gold, completion).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("1", "The probability is one half."),  # not the "one" of "one half"
        ("0.5", "two thirds"),
        ("3", "The fraction is three quarters."),
        ("6", "= 5"),
    ],
)
def test_a_fraction_in_words_is_not_its_numerator(gold, completion):
    assert grade_completion(gold, completion).status == "incorrect"
