"""Completions the token limit cut: the number their last line holds is a step, not an answer.

The classes, from evaluation dumps of instruct models on competition math (PRIME-RL/PRIME's
Qwen2.5-Math-style outputs: Llama-3.1-8B looping over "## Step k:" paragraphs, long
enumerations cut mid-list, brute-force searches cut mid-case):

- a loop whose copies are not back to back: the model writes a paragraph, a heading that
  alternates between two wordings, the paragraph again, and the limit cuts a copy: the
  number of the cut copy was read, and where it was the gold, accepted;
- a loop whose counters move on ("## Step 54: …", "## Step 55: …", "k = 40: …", "k = 50:
  …") and whose last copy is cut: its period is the same once numbers are set aside;
- a last line that stops mid-sentence (a comma, a function word after the number, an
  unclosed tuple) gave the number before the cut;
- the twins: a complete closing line keeps its number, a closing line restated without its
  period is no cut copy, and a final list of pairs is no loop.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.last_number import last_number
from sampler.verify.answers.loops import looping
from sampler.verify.answers.one_sample import grade_completion

FULL = (
    "Since we must separate all the points, we need at least 40 lines through the red"
    " points and 41 lines through the blue points."
)
CUT = "Since we must separate all the points, we need at least 40 lines"


def _looping_steps(last: str) -> str:
    headings = ("Consider the lines needed", "Count the lines needed")
    parts = []
    for step in range(20, 27):
        parts.append(f"## Step {step}: {headings[step % 2]}\n{FULL}\n")
        if step == 23:
            parts.append("## Step 23b: Bound the separation\nAt most 2 points are split.\n")
    parts.append(f"## Step 27: {headings[1]}\n{last}")
    return "\n".join(parts)


def _status(gold: str, text: str) -> str:
    return grade_completion(gold, text).status


def test_a_loop_cut_mid_copy_gives_no_answer_even_when_its_number_is_the_gold():
    assert looping(_looping_steps(CUT))
    assert _status("40", _looping_steps(CUT)) == "no_answer"


def test_the_same_steps_closed_by_an_answer_are_read():
    text = _looping_steps(FULL) + "\n\nTherefore, the minimum number of lines is 40."
    assert _status("40", text) == "correct"
    assert _status("41", text) == "incorrect"


def test_a_closing_line_restated_without_its_period_is_no_cut_copy():
    text = "The answer is 12.\n\nLet me check again.\n\nThe answer is 12.\n\nThe answer is 12"
    assert not looping(text)
    assert _status("12", text) == "correct"


STEPS_WITH_COUNTERS = "\n".join(
    f"## Step {n}:  By considering these constraints, we can find the largest value of $C$.\n"
    f"## Step {n + 1}:  We can then use the fact that the sum is at most 2022 to find $C$."
    for n in range(40, 56, 2)
)


@pytest.mark.parametrize(
    "end",
    [
        "\n## Step 56:  By considering these constraints, we can find the",
        "\n## Step 56:  By considering these constraints, we can find the largest value of $C$.\n"
        "## Step 57:  We can then use the fact that the sum is at most 2022",
    ],
)
def test_a_loop_whose_counters_move_on_is_a_loop_when_cut(end):
    assert looping(STEPS_WITH_COUNTERS + end)
    assert _status("2022", STEPS_WITH_COUNTERS + end) == "no_answer"


SEARCH = "".join(
    f"If k = {k}, then n = 9k + 3 = {9 * k + 3}. The digit sum of {9 * k + 3} is not 30.\n\n"
    for k in range(340, 346)
)


def test_a_search_whose_cases_differ_only_in_numbers_is_a_loop_when_cut():
    text = SEARCH + "If k = 346, then n = 9k + 3 = 3117. The digit sum of 3117"
    assert looping(text)
    assert _status("3117", text) == "no_answer"


def test_a_final_list_of_pairs_is_no_loop():
    text = "Checking each case, the solutions are (1, 2), (3, 4), (5, 6), (7, 8), (9, 10)"
    assert not looping(text)
    assert not looping(text.replace("solutions are", "solutions are (0, 1),"))


@pytest.mark.parametrize(
    "line",
    [
        "For the sum 33, the possibilities are (3, 3, 7, 0), (3, 4, 6, 0), (3, 5, 5, 0), ",
        "For 19 digits there is 1 combination: (1, 1, 1, 1, 1, 1, 1",
        "We then use the fact that the sum of the sequence is at most 2022 to",
        "So far the running total is 120 and",
        "After the second round we have 36, ",
    ],
)
def test_a_last_line_cut_mid_sentence_states_no_number(line):
    text = "We work through the cases one by one.\n\n" + line
    assert last_number(text) is None
    assert _status("0", text) == "no_answer"


@pytest.mark.parametrize(
    ("line", "gold"),
    [
        ("There are 2022 apples", "2022"),
        ("The possibilities are (2, 2, 8, 0) and (2, 3, 7, 0), so there are 2", "2"),
        ("The total is 14 in all.", "14"),
        ("(30, 120, 30)", "(30, 120, 30)"),
    ],
)
def test_a_complete_last_line_keeps_its_number(line, gold):
    text = "We work through the cases one by one.\n\n" + line
    assert _status(gold, text) == "correct"
