"""A sentence typeset as display math, thinking cut by the token limit, a bold value with
its unit.

The classes, from how chat and reasoning models end a completion:

- a closing sentence written as display math in ``\\text{}`` (``\\[\\text{Carver's son is }
  25 \\text{ years old.}\\]``, ``\\[\\text{Final Answer: } 140 \\text{ minutes}\\]``) gave no
  answer: read as math, the display is all words or nothing; it is now read as the prose it is.
  A display that is an equation with a label (``\\[\\text{Leo's Age} = 42\\]``) stays math;
- an R1-style completion whose ``<think>`` never closes and which ends mid-sentence was cut
  by the token limit while thinking: a value it tried on the way ("perhaps the answer is
  25") is no final answer. Unclosed thinking that ends with a box or a full sentence (a model
  that forgot the closing tag and answered) is read as before;
- a bold value with a one- or two-word unit in the last line (``she needs **16 yards** of
  fabric``) is the bold final; a bold comparison (``**3 more than Betty**``) is not.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.text_displays import displays_as_prose
from sampler.verify.answers.unfinished_thinking import cut_off_thinking

SON = (
    "Let x be the son's age. Then 3x + 5 = 80, so x = 25.\n\n"
    "\\[\n\\text{Carver's son is } 25 \\text{ years old.}\n\\]"
)
MINUTES = (
    "The drive takes 80 minutes and the stop 60.\n\n"
    "\\[\\text{Final Answer: } 140 \\text{ minutes}\\]"
)
DOLLARS = "He pays 2 + 3 = 5 dollars.\n\n$$\\text{Total cost is } \\$5.00 \\text{ in all.}$$"


def _status(gold: str, completion: str) -> str:
    return grade_completion(gold, completion).status


@pytest.mark.parametrize(
    ("completion", "gold", "wrong"),
    [(SON, "25", "24"), (MINUTES, "140", "139"), (DOLLARS, "5", "6")],
)
def test_a_sentence_written_as_display_math_is_read_as_the_sentence(completion, gold, wrong):
    assert _status(gold, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


def test_a_display_that_is_an_equation_stays_math():
    equation = "So\n\\[\n\\text{Leo's Age} = 42\n\\]"
    assert displays_as_prose(equation) == equation
    assert _status("42", equation) == "correct"
    assert _status("41", equation) == "incorrect"


def test_a_display_with_one_word_of_text_stays_math():
    display = "Hence\n\\[\\text{area } 12\\pi\\]"
    assert displays_as_prose(display) == display


def test_display_prose_keeps_the_math_between_the_words_inline():
    text = "\\[\\text{The roots are } x^2 - 1 \\text{ and its factors.}\\]"
    assert displays_as_prose(text).strip() == "The roots are $x^2 - 1$ and its factors."


CUT = (
    "<think>\nThe train covers 100 km in 4 hours. So, perhaps the answer is 25.\n\n"
    "But let me verify step by step. The distance is 100 and the time is 4, which is x *"
)


def test_thinking_cut_mid_sentence_states_no_answer():
    assert cut_off_thinking(CUT)
    assert extract_answer(CUT) is None
    assert _status("25", CUT) == "no_answer"


@pytest.mark.parametrize(
    "completion",
    [
        "<think>\nSo the speed is 25.\n\nI forgot to close the tag. The answer is \\boxed{25}.",
        "<think>\nSo the speed is 25.</think>\nThe speed is 25 km/h.",
        "The speed is 100/4 = 25 km/h, so the answer is 25",
    ],
)
def test_thinking_that_closed_or_ends_in_an_answer_is_read(completion):
    assert not cut_off_thinking(completion)
    assert _status("25", completion) == "correct"
    assert _status("26", completion) == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        "Each dress takes 4 yards: 4 * 4 = 16.\n\n"
        "So for 4 dresses she needs **16 yards** of fabric in total.",
        "Each dress takes 4 yards: 4 * 4 = 16.\n\nFor 4 dresses: **16 yards**",
    ],
)
def test_a_bold_value_with_its_unit_is_the_final(completion):
    assert _status("16", completion) == "correct"
    assert _status("17", completion) == "incorrect"


def test_a_bold_comparison_is_no_bold_value():
    completion = "Anna has 3 more.\n\nIn the end Anna has **3 more than Betty** after 5 days."
    span = extract_answer(completion)
    assert span is None or span.rule != "bold final"
