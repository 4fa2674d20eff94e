"""A yes/no question answered by a statement: the statement that restates the question
answers Yes, with a negation in its main clause No; a statement about something else, a
hedge or a question answers nothing, and no other gold reads a last statement."""

from __future__ import annotations

import random
import re

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.yes_no_statements import (
    last_statement,
    statement_polarity,
    yes_no_words,
)

MULTIPLE = "Is 1232 a multiple of 7?"
COIN = "A coin is heads up. Ann flips it twice. Is the coin still heads up?"
PARIS = "Is Paris the capital of France?"


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        ("True", "1232 = 7 * 176.\nTherefore, 1232 is a multiple of 7.", MULTIPLE),
        ("False", "1234 = 7 * 176 + 2. Therefore, 1234 is not a multiple of 7.",
         "Is 1234 a multiple of 7?"),
        ("Yes", "Flips: 2. The coin is still heads up.", COIN),
        ("Yes", "Since none of them flipped it back, the coin is still heads up.", COIN),
        ("True", "Therefore, Paris is the capital of France.", PARIS),
        ("No", "It is unlikely that Paris is the capital of France.", PARIS),
    ],
)  # fmt: skip
def test_a_statement_answers_the_yes_no_question(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status == "correct"


@pytest.mark.parametrize(
    ("gold", "completion", "problem"),
    [
        ("False", "1232 = 7 * 176.\nTherefore, 1232 is a multiple of 7.", MULTIPLE),
        ("True", "Paris might be the capital of France.", PARIS),  # a hedge
        ("True", "While Paris is not large, it is the capital of France.", PARIS),  # contrast
        ("True", "Flips: 1. The coin is now tails up.", COIN),  # about something else
        ("True", "Is Paris the capital of France?", PARIS),  # a question
    ],
)
def test_statements_that_do_not_answer_yes(gold, completion, problem):
    assert grade_completion(gold, completion, problem=problem).status != "correct"


def test_a_last_statement_answers_no_other_gold():
    completion = "We tried everything. The problem cannot be solved."
    assert grade_completion("5", completion).status == "no_answer"
    assert grade_completion("5", completion, problem="What is x?").status == "no_answer"


def test_the_question_words():
    assert yes_no_words(COIN) == ("coin", "still", "head", "up")
    assert yes_no_words("What is 2 + 2?") == ()
    assert yes_no_words(None) == ()
    words = yes_no_words(MULTIPLE)
    assert statement_polarity("So 1232 is a multiple of 7.", words) is True
    assert statement_polarity("Hence 1232 isn't a multiple of 7.", words) is False
    assert statement_polarity("Since 1232 is a multiple of 7, the answer is clear.", words) is None


def test_a_question_of_one_word_is_too_little_to_match():
    assert yes_no_words("Is it possible?") == ()
    completion = "We checked every case. It is possible."
    assert grade_completion("Yes", completion, problem="Is it possible?").status == "no_answer"


def _last_statement_by_pattern(text: str) -> str | None:
    """The reference ``last_statement`` scans back for: the pattern, tried at every position
    (closing bold aside; a stop inside a word or number, "6.3", ends nothing)."""
    tail = text.rstrip(" \t\n\r\f\v*_")[-400:]
    match = re.search(r"(?:[^.!?。\n]|\.(?=[^\W_])){3,300}[.!。]?[ \t]*$", tail)
    if match is None:
        return None
    sentence = match.group(0).strip(" \t*_")
    return sentence if sentence and not sentence.endswith("?") else None


def test_the_last_statement_is_what_the_pattern_finds_in_linear_time():
    rng = random.Random(7)
    alphabet = "ab .!?。\n\t*_x7"
    texts = ["", "ab", "abc", "abc.", "abc..", "So it is 5!", "Is it?", "a\nb", "x" * 350 + "."]
    texts += [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 900))) for _ in range(3000)
    ]
    texts += [
        "Work.\n" + "w" * rng.randrange(250, 420) + rng.choice(["", ".", "!"]) for _ in range(200)
    ]
    for text in texts:
        assert last_statement(text) == _last_statement_by_pattern(text), repr(text)


PRIME = 'Is 9221 a prime number? Think step by step and then answer "[Yes]" or "[No]".'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("We check every prime up to 96. So it is a prime number.", "Yes"),  # a pronoun
        ("… and none divides 9221. Therefore 9221 is a prime number.", "Yes"),  # was 9221
        ("… so 9221 is not divisible by any number other than 1 and itself, and is therefore "
         "a prime number.", "Yes"),  # the negation is not in the restating clause
        ("So 9221 is not divisible by any prime number other than 1, making it a prime number.",
         "Yes"),
        ("9221 is divisible by 13 and 709, which means it is not a prime number.", "No"),
        ("So 9221 is not divisible by 3 and therefore is not a prime number itself.", "No"),
        ("Therefore, we can conclude that 9221 is a composite number and not a prime number.",
         "No"),
        ("9221 is a composite number, not a prime number.", "No"),
    ],
)  # fmt: skip
def test_a_statement_restates_the_question_with_a_pronoun_or_in_its_last_clause(text, said):
    assert grade_completion("Yes", text, problem=PRIME).status == (
        "correct" if said == "Yes" else "incorrect"
    )
    assert grade_completion("No", text, problem=PRIME).status == (
        "correct" if said == "No" else "incorrect"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Therefore, 9221 is a composite number with prime factors 13 and 709.",
        "It is actually a composite number with prime factors of 13 and 709.",
        "Hence 9221 is the product of two prime numbers.",
    ],
)
def test_the_question_words_that_restate_no_question_say_no_yes(text):
    # they hold "9221", "prime" and "number", not "9221 is a prime number" (were Yes)
    assert grade_completion("Yes", text, problem=PRIME).status != "correct"
