"""Answer words joined by a copula, prices written with "$", thinking cut without its tag,
answer tags written wrong, and boxes that hold words.

The classes, from saved outputs of multilingual, chat, R1-style and R1-zero-style runs:

- the word for "answer" followed by a copula or a particle, not a colon ("La risposta è 5",
  "Jibu ni 57", "উত্তর হল 20।", "คำตอบคือ 350", "答えは5です", "정답은 B입니다",
  "정답 (Answer): C") gave no answer or a value from the sentence before;
- a "$" before a price paired with the next "$" as a math span: "the answer is $27,000. Wait,
  let me check … So Jean paid $" read the prose between them, and "$40.00 - $20.00 = $20.00৷"
  (a Bengali sentence end) as math;
- an R1-style trace whose ``<think>`` was in the prompt, cut by the token limit mid-sentence
  while thinking aloud ("Wait", "Alternatively", "Let me check"): a value it tried is no final;
- ``Answer: 4</answer>`` (a closing tag with no opening one), ``answer> 320 </answer>``,
  ``<answer answer="1">``, ``</ answer >``: the tag text hid the answer; a tag's content that is
  a sentence or a computation ("Angle A is 36 degrees.", "30 * 28 = 840") was compared whole;
- a box holding a sentence or a unit phrase with one number (``\\boxed{Seth is 16 years old}``,
  ``\\boxed{10 miles per hour}``, ``\\boxed{72Mb/hour}``) or an ordinal (``\\boxed{18th}``);
- ``\\degree`` and a period inside the math (``$70^\\circ.$``) after a degree value;
- the answer alone after ``</think>`` (``<think>…</think>Paris``).

Each positive case has a twin that must stay wrong.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.tag_debris import _TAG_RE, _may_hold_tags, with_paired_tags
from sampler.verify.answers.unfinished_thinking import cut_off_thinking


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


COPULA_MARKERS = [
    ("5", "4", "Calcoliamo 2 + 3 = 5.\n\nLa risposta è 5."),
    ("57", "56", "Jumla ni 50 + 7 = 57.\n\nJibu ni 57."),
    ("20", "21", "তাই তার লাভ হল 40 - 20 = 20৷ উত্তর হল 20।"),
    ("350", "349", "ดังนั้นเขาจึงเหลือเงิน 1050 - 700 = 350 ดอลลาร์ คำตอบคือ 350"),
    ("5", "6", "計算すると 2 + 3 になります。\n\n答えは5です。"),
    ("B", "C", "계산하면 0.5 M입니다.\n\n따라서 정답은 B입니다."),
    ("C", "B", "= 48400 / 50 = 968 Ω\n\n정답 (Answer): C"),
    ("12", "13", "మొత్తం 7 + 5.\n\nసమాధానం 12."),
    ("5", "6", "Dus 2 + 3.\n\nHet antwoord is 5."),
    ("B", "A", "Ta có 2x = 4.\n\nĐáp án là B."),
]


@pytest.mark.parametrize(("gold", "wrong", "completion"), COPULA_MARKERS)
def test_an_answer_word_joined_by_a_copula_marks_the_answer(gold, wrong, completion):
    assert _status(gold, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("27000", "So the answer is $27,000. Wait, but let me check again. So Jean paid $27,000."),
        ("400", "They spend money on three things. The total is $100 + $125 + $175 = $400."),
        ("20", "চার্লি তাই তার লাভ হল $40.00 - $20.00 = $20.00৷ তাই লাভ হল $20।"),
    ],
)
def test_a_dollar_before_a_price_is_no_math_delimiter(gold, completion):
    assert _status(gold, completion) == "correct"
    assert _status(str(int(gold) + 1), completion) == "incorrect"


def test_a_math_span_that_is_math_still_reads():
    assert _status("5", "So the answer is $5$.") == "correct"
    assert _status("x+1", "The answer is $x + 1$.") == "correct"


THINKING_CUT = (
    "Okay, so I need to find how much he saves. The packages of 3 cost $2.50.\n\n"
    "So the answer is $6. But let me go through the problem again to make sure.\n\n"
    "Wait, maybe the packages of 2 are cheaper. Alternatively, he could mix them.\n\n"
    "Hmm, let me check the cost of 18 flowers in packages of 2, then compare it to the cost"
)


def test_a_trace_cut_while_thinking_aloud_states_no_answer():
    assert cut_off_thinking(THINKING_CUT)
    assert _status("6", THINKING_CUT) == "no_answer"


def test_the_same_trace_closed_and_answered_is_read():
    closed = THINKING_CUT + " of packages of 3.\n</think>\n\nHe saves $\\boxed{6}$."
    assert not cut_off_thinking(closed)
    assert _status("6", closed) == "correct"
    assert _status("7", closed) == "incorrect"


def test_a_completion_cut_mid_sentence_without_thinking_aloud_is_read_as_before():
    text = "The total is 5 + 7 = 12 apples, and the answer is 12 apples in all of the"
    assert not cut_off_thinking(text)


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("4", "Thus $n$ = 4.\nAnswer: 4</answer>"),
        ("320", "Therefore, Elaine has 320 Pokemon cards.\n\nanswer> 320 </answer>"),
        ("1", '</think> <answer answer="1">Dora needs $1 more to buy all the items. </answer>'),
        ("0", "Thus, the answer is \\boxed{0}.</ answer >"),
        ("36^\\circ", "<answer>Angle A is 36 degrees.</answer>"),
        ("840", "<answer> 30 * 28 = 840\n</think> </answer>"),
        ("3", "<answer> 3 times\n</answer>"),
    ],
)
def test_answer_tags_written_wrong_or_holding_a_sentence(gold, completion):
    assert _status(gold, completion) == "correct"
    wrong = "37^\\circ" if gold == "36^\\circ" else str(int(gold) + 1)
    assert _status(wrong, completion) == "incorrect"


def test_unpaired_tags_are_line_breaks_and_pairs_are_kept():
    assert with_paired_tags("Answer: 4</answer>") == "Answer: 4\n"
    assert with_paired_tags("[answer]5[/answer]") == "<answer>5</answer>"
    assert with_paired_tags("<answer>5</answer>") == "<answer>5</answer>"
    assert with_paired_tags("x > 3 and the answer>5") == "x > 3 and the answer>5"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("10", "He runs at an average speed of \\boxed{10 miles per hour}."),
        ("72", "The speed in Mb per hour is \\boxed{72Mb/hour}."),
        ("16", "Seth is 16 years old.\n\nTherefore, \\boxed{Seth is 16 years old}."),
        ("18", "Therefore, Bill is now on the \\boxed{18th} floor."),
    ],
)
def test_a_box_of_words_with_one_number_is_that_number(gold, completion):
    assert _status(gold, completion) == "correct"
    assert _status(str(int(gold) + 1), completion) == "incorrect"


def test_a_box_with_two_numbers_in_words_is_no_one_number():
    assert _status("3", "\\boxed{3 apples and 4 pears}") != "correct"


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("90^\\circ", "The answer is $90 \\degree$."),
        ("70", "<answer>Therefore, the value of $x$ is $70^\\circ.$</answer>"),
    ],
)
def test_degree_macros_and_a_period_inside_the_math(gold, completion):
    assert _status(gold, completion) == "correct"
    assert _status(gold.replace("0", "1", 1), completion) == "incorrect"


def test_the_answer_alone_after_the_thinking():
    completion = "<think>The capital of France is Paris, of course.</think>Paris"
    assert _status("Paris", completion) == "correct"
    assert _status("Lyon", completion) == "incorrect"


def test_an_echoed_template_tag_holds_no_answer():
    completion = (
        "So the number of pizzas is \\boxed{28}.</think> <answer> \\boxed{28} </answer> "
        "Format: <answer> answer here </answer>"
    )
    assert _status("28", completion) == "correct"
    assert _status("29", completion) == "incorrect"


def test_spaced_tags_in_a_degenerate_tail_are_debris():
    completion = (
        "Thus, the positive value of $x$ is $\\boxed{66}$.</ thought> < answer > $66</ answer > "
        "nights.< answer > 12</ answer > [/ think] [/ think]"
    )
    assert _status("66", completion) == "correct"


_TAG_PIECES = st.sampled_from(
    [
        "answer",
        "Answer",
        "solution",
        "final_answer",
        "<",
        ">",
        "[",
        "]",
        "/",
        " ",
        "\t",
        "\n",
        "*",
        "x",
        "42",
        '="1"',
        "think",
        "ANSWER",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TAG_PIECES, max_size=14).map("".join))
def test_the_fast_scan_for_tags_never_misses_a_tag_the_pattern_reads(text):
    # ``with_paired_tags`` skips completions the scan finds no tag in: it must be exact
    if _TAG_RE.search(text):
        assert _may_hold_tags(text.lower())
    if not _may_hold_tags(text.lower()):
        assert with_paired_tags(text) == text
