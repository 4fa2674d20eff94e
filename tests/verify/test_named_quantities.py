"""The question picks one of a closing sentence's quantities: "The area is 12 and the
perimeter is 14." is 12 when it asks the area, 14 when it asks the perimeter; without the
question, or when it names none (or several) of them, the reading is what it was."""

from __future__ import annotations

import pytest

from sampler.verify.answers.named_quantities import asked_value, asked_words
from sampler.verify.answers.one_sample import grade_completion

RECTANGLE = "A rectangle is 3 by 4. What is its {}?"
APPLES = "Alice and Bob have 10 apples; Bob has 2 more. How many apples does {} have?"
F = "Let f(x) = 2x + 1. What is {}?"


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        ("12", "The area is 12 and the perimeter is 14.", RECTANGLE.format("area")),
        ("14", "The area is 12 and the perimeter is 14.", RECTANGLE.format("perimeter")),
        ("4", "Alice has 4 apples and Bob has 6 apples.", APPLES.format("Alice")),
        ("6", "Alice has 4 apples and Bob has 6 apples.", APPLES.format("Bob")),
        ("5", "The value of f(2) is 5, and the value of f(3) is 7.", F.format("f(2)")),
        ("7", "The value of f(2) is 5, and the value of f(3) is 7.", F.format("f(3)")),
        ("2", "So $a = 2$ and $b = 3$.", "Find $a$ if a + b = 5 and a - b = -1."),
        ("-2", "Solving, we get x = -2 and y = 5.", "Solve 3x + y = -1, x + y = 3 for x."),
        ("5", "Solving, we get x = -2 and y = 5.", "Solve 3x + y = -1, x + y = 3 for y."),
    ],
)
def test_the_quantity_the_question_asks_for(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        # the other quantity's value is not the answer
        ("14", "The area is 12 and the perimeter is 14.", RECTANGLE.format("area")),
        ("6", "Alice has 4 apples and Bob has 6 apples.", APPLES.format("Alice")),
        ("7", "The value of f(2) is 5, and the value of f(3) is 7.", F.format("f(2)")),
        ("5", "Solving, we get x = -2 and y = 5.", "Solve 3x + y = -1, x + y = 3 for x."),
    ],
)
def test_the_other_quantity_is_wrong(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status == "incorrect"


def test_without_the_question_the_reading_is_unchanged():
    sentence = "The area is 12 and the perimeter is 14."
    assert grade_completion("14", sentence).status == "correct"  # the value after the last "is"
    # a question that names neither quantity picks nothing
    assert grade_completion("14", sentence, problem="A rectangle is 3 by 4.").status == "correct"


@pytest.mark.parametrize(
    "sentence",
    [
        "The area is 12.",  # one quantity
        "The area is 12 and 14.",  # one name, two values
        "The area is 12 and the area is 14.",  # the same name twice
        "The area is 12 or the perimeter is 14.",  # a hedge is no list
    ],
)
def test_sentences_that_are_no_list_of_results(sentence):
    assert asked_value(sentence, frozenset({"area"})) is None


def test_the_question_is_the_last_sentence_that_asks():
    words = asked_words("Bob has 6 apples. Alice has 2 more than Bob. How many does Alice have?")
    assert "alice" in words and "bob" not in words
    assert "f(3)" in asked_words("Let f(x) = x. What is f(3)?")
    assert asked_words(None) == frozenset()
