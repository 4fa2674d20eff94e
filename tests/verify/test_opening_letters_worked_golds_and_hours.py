"""An option letter stated first, a gold that is a worked solution, and a bare hour gold of a
question that asks for a time.

The classes, from saved multiple-choice exam outputs (KMMLU, CLIcK, KorMedMCQA: "answer
first, then explain" prompts), R1-distill runs graded against GSM8K's whole ``answer``
field, and GSM8K's "what time" questions:

- a completion that opens with its option letter alone ("C", "B입니다.", "C: 60 mg/L") and then
  explains, ending with a number or cut off, was graded on that number or not at all; against
  a choice gold the opening letter is the answer, unless the end states a letter itself;
- a gold that is a worked solution closing with ``#### 33`` is ``33``;
- the gold ``2`` of "What is the latest time …?" is 2 o'clock: ``2:00 pm`` names it,
  ``2:30 pm`` does not, and without the question a time is no bare number.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.one_sample import grade_completion


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize(
    "completion",
    [
        "C\n\nExplanation: sin θc = 1/n with n = 1.33, so sin θc = 1/1.33.",
        "C: 60 mg/L\n\n해설 (Explanation):\n(12 mg / 200 mL) * 1000 mL = 60 mg",
        "C입니다.\n\n정확한 계산을 위해, 신뢰수준",
        "**C.**\n\nThus, the mean is 40 and the standard deviation is 6.",
    ],
)
def test_an_option_letter_stated_first_answers_a_choice_gold(completion):
    assert _status("C", completion) == "correct"
    assert _status("B", completion) == "incorrect"


def test_a_letter_stated_at_the_end_wins_over_the_opening_one():
    completion = "A\n\nLet me reconsider: the flow is 250 m3.\n\nThe correct answer is D."
    assert _status("D", completion) == "correct"
    assert _status("A", completion) == "incorrect"


def test_an_opening_letter_is_no_answer_to_a_number_gold():
    assert _status("6", "C\n\nThe standard deviation is 6.") == "correct"
    assert _status("3", "C\n\nThe standard deviation is 6.") == "incorrect"


def test_a_worked_solution_gold_is_its_closing_answer():
    worked = (
        "Total: 34 + 32 + 30 = <<34+32+30=96>>96 Pokemon\n"
        "32 / 96 * 100% = 33.333...%, which rounds down to 33%\n#### 33"
    )
    assert gold_from_question(worked).latex == "33"
    assert _status(worked, "So the chance is \\boxed{33\\%}.") == "correct"
    assert _status(worked, "So the chance is \\boxed{34}.") == "incorrect"


LATEST = (
    "Jordan wants the cake ready at 5:00 pm. It takes 3 hours in all. "
    "What is the latest time of day that Jordan can start making the cake?"
)


@pytest.mark.parametrize("answer", ["2:00 pm", "2:00 \\, \\text{pm}", "14:00", "2:00"])
def test_a_bare_hour_gold_of_a_time_question_is_that_hour(answer):
    assert _status("2", f"He must start at \\boxed{{{answer}}}.", LATEST) == "correct"


@pytest.mark.parametrize("answer", ["2:30 pm", "3:00 pm", "1:00 pm"])
def test_another_time_is_not_that_hour(answer):
    assert _status("2", f"He must start at \\boxed{{{answer}}}.", LATEST) == "incorrect"


def test_without_a_time_question_a_time_is_no_bare_number():
    assert _status("2", "The ratio is \\boxed{2:00 pm}.", "How many cakes does he bake?") != (
        "correct"
    )
