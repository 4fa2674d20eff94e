"""Answers restated across an agent's turns, debris after the last token, and cells that
do not parse.

The classes, from how multi-turn tool-use agents end (a harness that answers "Your answer
is wrong" and asks again, so the model restates its answer after each new try), how a
decoder ends (a chat template's next role name once its special tokens are skipped, a
character cut inside its bytes, an agent's flags-only end signal), and how a kernel shows
code that does not parse:

- a closing sentence restated after an apology and a second cell was read as a loop and
  gave no answer; a loop whose counters move on (``Cell In[3]``, ``Cell In[4]``) stays a loop;
- ``user``, ``Assistant:``, ``\\ufffd`` and ``{"end": true}`` after the last sentence hid it;
- ``print($7)`` above its ``SyntaxError`` was not found as the closing cell, so the answer
  stated before it was not read;
- a closing sentence written two to four times back to back, then the end, was a loop;
  one the limit cut mid-copy, or written many more times, still is;
- a completion that runs on into an Alpaca-style template's next ``### Instruction:`` was
  read at its end;
- a printed dict of results keyed by names (``{'Neil': 19, 'Ana': 12}``) gave no answer:
  the question picks the value it names, as it picks among sympy's named solutions;
- prose a transcript writes with a leading space (" I made a mistake …") read as an
  indented code line, so the closing cell (a revision printed after a stated answer) was
  not found;
- the twins: a wrong restated answer stays wrong, an end that truly loops stays unanswered,
  a JSON object that holds a value is not debris, and a dict whose keys the question does
  not name states no one value.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.end_tokens import without_trailing_debris
from sampler.verify.answers.loops import looping
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.tool_transcript import closing_cell_start
from sampler.verify.answers.value_reprs import printed_value

GARDEN = "A garden is 8 m long and 6 m wide. What is its area in square meters?"
FIRST_TRY = (
    "The area is the length times the width.\n"
    "area = 8 * 6\nprint(area)\n48\n"
    "The area of the garden is 48 square meters.\n\n"
    "The area of the garden is 48 square meters.\n"
)
RETRY = (
    "I apologize for the mistake. Let's check it again.\n\n"
    "Assistant:\n\n"
    "length = 8\nwidth = 6\nprint(length * width)\n48\n"
    "The area of the garden is 48 square meters.\n\n"
    "The area of the garden is 48 square meters."
)


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize("problem", [GARDEN, None])
def test_an_answer_restated_after_each_try_is_the_answer(problem):
    assert _status("48", FIRST_TRY + RETRY, problem) == "correct"
    assert _status("49", FIRST_TRY + RETRY, problem) == "incorrect"
    restated = FIRST_TRY + "Let me double-check with another method.\n" + RETRY
    assert _status("48", restated, problem) == "correct"


def test_a_restatement_is_no_loop_but_a_repeated_passage_is():
    assert not looping(FIRST_TRY + RETRY)
    loop = "We try again.\nx = 1 / 0\nThat fails.\n" * 4 + "We try again."
    assert looping(loop)


def test_a_loop_whose_counters_move_on_is_still_a_loop():
    turn = (
        "We skip a = 1, since 0 has no inverse.\ncount = 0\nprint(count)\n"
        "ValueError                                Traceback (most recent call last)\n"
        "Cell In[{n}], line 3\nValueError: base is not invertible for the given modulus\n"
    )
    text = "".join(turn.format(n=n) for n in range(2, 6)) + "We skip a = 1, since 0 has no inverse."
    assert looping(text)
    assert _status("0", text) == "no_answer"  # the loop's 0 is a step, not an answer


@pytest.mark.parametrize(
    "debris",
    [
        "\n user",
        "\nuser\n",
        "\nAssistant:",
        "\n### Human:",
        "\ufffd",
        "\ufffd\ufffd",
        '{\n"end": true\n}',
        ' {"done": true, "success": false}',
        '{"end": true}\n user',
    ],
)
def test_debris_after_the_last_sentence_is_no_part_of_it(debris):
    text = "The total is 12 + 30 = 42.\nThe total cost is $42." + debris
    assert without_trailing_debris(text) == "The total is 12 + 30 = 42.\nThe total cost is $42."
    assert _status("42", text) == "correct"
    assert _status("24", text) == "incorrect"


@pytest.mark.parametrize(
    "text",
    [
        "The number of users is 5.",
        "Each user\nsees the same page.",
        "The best fit is the exponential\nmodel",  # a sentence that goes on
        "So we ask the\nuser",
        'We store it as {"end": 5}',
        "user",  # what is all of the text is kept: nothing would be left to read
        "\ufffd",
    ],
)
def test_what_is_not_debris_stays(text):
    assert without_trailing_debris(text) == text


def test_a_json_object_with_a_value_is_no_end_signal():
    assert without_trailing_debris('So it is 5. {"answer": 7}') == 'So it is 5. {"answer": 7}'


SYNTAX_ERRORS = {
    "ipython": "Cell In[1], line 1\n    print($7)\n          ^\nSyntaxError: invalid syntax",
    "python": '  File "<stdin>", line 1\n    print($7)\n          ^\nSyntaxError: invalid syntax',
}


@pytest.mark.parametrize("kernel", sorted(SYNTAX_ERRORS))
def test_an_answer_before_a_cell_that_does_not_parse_is_read(kernel):
    prose = (
        "Peter paid 20 * $0.25 = $5 for the popsicles and 4 * $0.50 = $2 for the bars.\n"
        "In total, Peter paid $5 + $2 = $7.\n"
    )
    text = prose + "print($7)\n" + SYNTAX_ERRORS[kernel]
    assert closing_cell_start(text) == len(prose)
    assert _status("7", text) == "correct"
    assert _status("5", text) == "incorrect"


def test_a_syntax_error_alone_states_nothing():
    assert _status("7", "print($7)\n" + SYNTAX_ERRORS["ipython"]) == "no_answer"
    # a line the traceback does not quote is no cell of its own
    text = "In total, he paid $7.\nprint($5)\n" + SYNTAX_ERRORS["ipython"]
    assert closing_cell_start(text) is None


@pytest.mark.parametrize("copies", [2, 3, 4])
def test_a_closing_sentence_restated_back_to_back_is_read_once(copies):
    work = "Sam has 5 apples and buys 7 more.\n5 + 7 = 12\n"
    text = work + "\n\n".join(["Sam has 12 apples now."] * copies)
    assert not looping(text)
    assert _status("12", text) == "correct"
    assert _status("5", text) == "incorrect"


def test_a_closing_sentence_repeated_until_the_limit_is_still_a_loop():
    work = "Sam has 5 apples and buys 7 more.\n5 + 7 = 12\n"
    many = work + "Sam has 12 apples now.\n" * 9
    cut = work + "Sam has 12 apples now.\n" * 3 + "Sam has 12 app"
    assert looping(many) and looping(cut)
    assert _status("12", cut) == "no_answer"


def test_an_alpaca_templates_next_instruction_is_a_run_on():
    answer = "total = 6 * 7\nprint(total)\n42\nThe total number of apples is 42.\n\n"
    text = answer + "### Instruction:\nTom has 3 pears. How many pears?\n\n### Response:\n3"
    assert _status("42", text) == "correct"
    assert _status("3", text) == "incorrect"


NOTEBOOK = "Let's compute it.\nages = {'Neil': 19, 'Ana': 12}\nprint(ages)\n"


@pytest.mark.parametrize(
    ("question", "gold", "wrong"),
    [("How old is Neil?", "19", "12"), ("How old is Ana now?", "12", "19")],
)
def test_the_question_picks_a_value_from_a_printed_dict_of_results(question, gold, wrong):
    text = NOTEBOOK + "{'Neil': 19, 'Ana': 12}"
    assert _status(gold, text, question) == "correct"
    assert _status(wrong, text, question) == "incorrect"


def test_a_dict_the_question_does_not_name_states_no_one_value():
    text = NOTEBOOK + "{'Neil': 19, 'Ana': 12}"
    assert _status("19", text, "How old is the older one?") != "correct"
    assert _status("19", text) != "correct"


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("{'Neil': 19, 'Ana': 12}", "{Neil: 19, Ana: 12}"),
        ("{'total cost': np.float64(2.5)}", "{total_cost: 2.5}"),
        ("{'r': Fraction(1, 3), 's': -2}", "{r: 1/3, s: -2}"),
        ("{'name': 'Ana'}", "{'name': 'Ana'}"),  # a string: no value
        ("{'ok': True}", "{'ok': True}"),
        ("{'Neil': [1, 2]}", "{'Neil': [1, 2]}"),  # a container: no one value
        ("{1: 5, 2: 7}", "{1: 5, 2: 7}"),  # keys that name nothing
        ("{x: 2, y: 3}", "{x: 2, y: 3}"),  # sympy's own solution, read by plain_notation
    ],
)
def test_a_dict_of_results_is_written_as_named_values(printed, value):
    assert printed_value(printed) == value


REVISED = (
    "S = (100 / 2) * (5 + -302)\nprint(S)\n-14850.0\nThe answer is -14850.0.\n"
    " I made a mistake: the terms have no common difference. I need to sum them directly.\n"
    "S = 0\nfor n in range(1, 101):\n    S += (-1)**(n+1) * (3*n + 2)\n\nprint(S)\n-150"
)


def test_a_revision_after_prose_with_a_leading_space_is_the_answer():
    assert closing_cell_start(REVISED) == REVISED.index("S = 0")
    assert _status("-150", REVISED) == "correct"
    assert _status("-14850", REVISED) == "incorrect"


def test_indented_code_is_still_code():
    # a continuation line and a comment that is a sentence stay lines of the cell
    cell = (
        "def f(x):\n    total = compute(x,\n        x + 1)\n    # Sum it up.\n"
        "    return total\nprint(f(2))\n3"
    )
    text = "We define a helper.\n" + cell
    assert closing_cell_start(text) == len("We define a helper.\n")
