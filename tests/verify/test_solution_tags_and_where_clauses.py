"""Final answers in ``<solution>`` tags, answers whose symbols a where-clause defines, and
code that never ran.

The classes, from agent protocols that propose a final answer in tags (MINT and CodeAct ask
for ``<solution> … </solution>``; others write ``<final_answer>``), and from how a closing
sentence defines its symbols:

- a ``<solution>`` pair gave no answer (only ``<answer>`` was read); a nested pair
  (``<solution>The answer is <solution> 40 </solution>.</solution>``) is read inside, a
  stray tag after the pair pairs with nothing, and a content in words ("Jim spends 36
  hours in 4 weeks.") is read as a closing sentence, not as free text (its last number);
- "… is x + 1, where x is the number of divisors of n." was read as 1 (a false accept of
  a gold 1): the answer is the expression before the clause;
- prose that announces a computation, then a cell that never ran, gave the last number
  above it as the answer: no result was stated;
- ReAct's closing action, ``Action: Finish[42]`` (Reflexion, LATS and AgentBench keep it),
  gave no answer;
- the twins: a wrong answer in tags stays wrong, an answer before the clause stays read, an
  earlier ``Finish`` the agent was told was wrong gives way to the last one, and an empty
  ``Finish[]`` states nothing.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.afterword import ends_unexecuted
from sampler.verify.answers.extraction import RULES, extract_answer
from sampler.verify.answers.one_sample import grade_completion

JIM = "Jim watches TV for 2 hours and reads for 1 hour, 3 times a week. How many hours in 4 weeks?"


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize("tag", ["solution", "final_answer", "SOLUTION"])
def test_a_solution_tag_holds_the_final_answer(tag):
    text = f"<thought> 7 * 8 = 56 slices for 4 people: 56 / 4 = 14. </thought>\n<{tag}>14</{tag}>"
    assert extract_answer(text).text == "14"
    assert _status("14", text) == "correct"
    assert _status("56", text) == "incorrect"


def test_the_last_proposal_counts_and_a_nested_pair_is_read_inside():
    proposals = (
        "<solution> 12 </solution>\nThat is wrong. Let me redo it.\n<solution> 14 </solution>"
    )
    assert _status("14", proposals) == "correct"
    nested = "<solution>\nThe number of birds is <solution> 40 </solution>.\n</solution>"
    assert extract_answer(nested).text == "40"
    stray = "<answer>5</answer>\nI wrapped it in </answer> tags as asked."
    assert extract_answer(stray).text == "5"


def test_a_solution_in_words_is_read_as_a_closing_sentence():
    text = (
        "<thought> 3 * 3 = 9 hours a week. </thought>\n"
        "<solution> Jim spends 36 hours in 4 weeks. </solution>"
    )
    assert _status("36", text, JIM) == "correct"
    assert _status("4", text, JIM) == "incorrect"  # the question gave the 4 weeks


def test_a_computation_in_tags_is_read_as_math():
    assert _status("31", "<solution> $306 - $275 = 31 </solution>") == "correct"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (
            "Work.\nThe value of a + b + c is x + 1, where x is the number of divisors of n.",
            "x + 1",
        ),
        ("Work.\nSo the answer is n + 1, where n is the count.", "n + 1"),
        ("Work.\nSo the sum is 2n + 1, where n is odd.", "2n + 1"),
    ],
)
def test_a_where_clause_defines_the_answers_symbols_and_is_no_answer(text, read):
    assert extract_answer(text).text == read
    assert _status("1", text) == "incorrect"


def test_an_answer_before_a_where_clause_is_still_read():
    assert _status("5", "Work.\nThe answer is $5$, where the units are meters.") == "correct"
    assert _status("12", "Work.\nSo x = 12, where x is the number of apples.") == "correct"


ANNOUNCED = (
    "Let x be the population. Then 0.4x = 240, so we divide by 0.4.\n"
    "x = 240 / 0.4\nprint(x)\n600\n"
    "Now we can find the number of girls by subtracting the boys from the population.\n"
    "girls = 600 - 240\nprint(girls)"
)


def test_code_that_never_ran_after_an_announcement_states_no_answer():
    assert ends_unexecuted(ANNOUNCED)
    assert _status("600", ANNOUNCED) == "no_answer"
    ran = ANNOUNCED + "\n360"
    assert not ends_unexecuted(ran)
    assert _status("360", ran) == "correct"


def test_an_answer_stated_before_code_that_never_ran_is_still_read():
    text = (
        "So, the annual interest rate is 7%.\n\nLet's check it in Python:\n"
        "r = (1225 / 1000) ** (1 / 3) - 1\nprint(round(r * 100))"
    )
    assert _status("7", text) == "correct"


REACT = "Thought: 6 boxes of 7 apples make 6 * 7 = 42 apples.\n"


@pytest.mark.parametrize(
    ("action", "gold", "wrong"),
    [
        ("Action: Finish[42]", "42", "41"),
        ("Action 3: finish[42 apples]", "42", "41"),
        ("Finish[42]", "42", "7"),
        ("Action: Finish[Paris]", "Paris", "Lyon"),
    ],
)
def test_a_react_finish_action_is_the_final_answer(action, gold, wrong):
    assert _status(gold, REACT + action) == "correct"
    assert _status(wrong, REACT + action) == "incorrect"
    assert grade_completion(gold, REACT + action).rule.startswith("finish action")


def test_the_last_finish_counts_and_an_empty_one_states_nothing():
    retried = (
        "Action: Finish[41]\nObservation: Answer is INCORRECT\n" + REACT + "Action: Finish[42]"
    )
    assert _status("42", retried) == "correct"
    assert _status("42", "Observation: 42 apples\nAction: Finish[]") != "correct"
    assert "finish action" in RULES and "option line" in RULES
