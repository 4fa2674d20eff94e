"""A closing sentence with the answer and the question's own numbers; values named by words.

The classes: a last sentence that states the result, then restates what the question gave in
a clause ("Tom has 7 apples left after giving away 5 apples.", "…, since he gave away 5 of
his 12 apples.", "…, which is 5 fewer than he started with."), read as its last number or as
the value after the relative clause's "is" (a false accept of a gold 5); and sympy's solution
with symbols named by words (``{adults: 15, children: 10}``), no answer before. The question
decides: the sentence's one value it did not give, the name it asks for. Without the question
the sentence reads as before, and a value the question did not give stays wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.named_quantities import word_named_value
from sampler.verify.answers.one_sample import grade_completion

APPLES = "Tom had 12 apples and gave 5 away. How many apples does Tom have now?"
WORK = "Let's subtract.\napples = 12 - 5\nprint(apples)\n7\n"


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize(
    "sentence",
    [
        "Tom has 7 apples left after giving away 5 apples.",
        "Tom has 7 apples remaining when he gives away 5.",
        "Tom now has 7 apples, since he gave away 5 of his 12 apples.",
        "Tom has 7 apples because he gave away 5 of the 12.",
        "Tom has 7 apples left out of 12.",
        "Tom has 7 apples now, 5 less than the 12 he had.",
        "Tom has 7 apples left, having given away 5.",
        "Tom has 7 apples, which is 5 fewer than he started with.",
        "After giving away 5 apples, Tom has 7 apples left.",
    ],
)
def test_the_value_the_question_did_not_give_is_the_answer(sentence):
    completion = WORK + sentence
    assert _status("7", completion, APPLES) == "correct"
    assert _status("5", completion, APPLES) == "incorrect"
    assert _status("12", completion, APPLES) == "incorrect"


def test_without_the_question_the_last_number_is_read_as_before():
    completion = WORK + "After giving away 5 apples, Tom has 7 apples left."
    assert _status("7", completion) == "correct"
    assert _status("5", completion) == "incorrect"


def test_a_relative_clause_after_the_answer_is_a_remark():
    assert _status("5", "We add.\nThe total is 5, which is 3 more than yesterday.") == "correct"
    assert _status("3", "We add.\nThe total is 5, which is 3 more than yesterday.") == "incorrect"


TICKETS = (
    "A theater sold 25 tickets. There were 5 more adult tickets than child tickets. "
    "How many {} tickets were sold?"
)
SOLVED = (
    "We set up a system.\nfrom sympy import symbols, solve\n"
    "adults, children = symbols('adults children')\n"
    "solve((adults + children - 25, adults - children - 5), (adults, children))\n"
    "{adults: 15, children: 10}"
)


def test_sympy_values_named_by_words_answer_the_question_that_names_one():
    assert _status("10", SOLVED, TICKETS.format("child")) == "correct"
    assert _status("15", SOLVED, TICKETS.format("child")) == "incorrect"
    assert _status("15", SOLVED, TICKETS.format("adult")) == "correct"
    assert _status("10", SOLVED, TICKETS.format("adult")) == "incorrect"
    assert _status("10", SOLVED) == "incorrect"  # no question: no value is picked


@pytest.mark.parametrize(
    ("parts", "asked", "value"),
    [
        (["adults = 15", "children = 10"], {"child", "ticket"}, "10"),
        (["num_apples = 4", "num_pears = 6"], {"pear"}, "6"),
        (["x = 1", "y = 2"], {"pear"}, None),  # letters name nothing the question says
        (["red_balls = 3", "blue_balls = 4"], {"ball"}, None),  # both: no one is asked
        (["adults = 15"], {"adult"}, None),  # one value: nothing to pick
    ],
)
def test_word_named_value(parts, asked, value):
    assert word_named_value(parts, frozenset(asked)) == value
