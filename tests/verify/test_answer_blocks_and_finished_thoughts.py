"""Round 15, second part: PRM800K's ``# Answer`` block, and thinking never closed whose answer
is finished in a script's own sentence end, behind closing marks or a separator, or on a last
line that gives it (a box with a unit word, an answer label), each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.unfinished_thinking import cut_off_thinking


@pytest.mark.parametrize(
    ("gold", "block", "wrong"),
    [
        (r"\frac{639}{40}", r"\frac{639}{40}", r"\frac{640}{40}"),
        (r"\cot x", r"\cot x", r"\tan x"),
        ("1+2i", "1+2i", "1-2i"),
        (r"(3,\frac{\pi}{2})", r"(3,\frac{\pi}{2})", r"(3,\frac{\pi}{3})"),
        (r"12\pi", "12*pi", "12*e"),
        ("3, 5, 7", "3, 7, 5", "3, 7, 6"),
        ("2k", "2k", "3k"),
        (r"-\frac{\pi}{6}", r"-$\pi/6$", r"-$\pi/3$"),
    ],
)
def test_the_answer_alone_under_an_answer_heading(gold, block, wrong):
    # PRM800K's GPT-4 samples end "# Answer\n\n<the answer>"; it was no_answer or a last number
    text = "So this is my final answer.\n# Answer\n\n{}"
    right = grade_completion(gold, text.format(block))
    assert (right.status, right.rule) == ("correct", "answer block")
    assert grade_completion(gold, text.format(wrong)).status == "incorrect"


def test_an_answer_heading_followed_by_more_than_one_line_is_left_to_the_other_rules():
    text = "**Final Answer**\n\n- NH4OH: 35.06 g/mol\n- NaHCO3: 84.01 g/mol"
    assert grade_completion("35.06", text).rule != "answer block"


THINKING = "<think>\nঠিক আছে, দেখা যাক। 15 × 83 = 1245.\n\n"


@pytest.mark.parametrize(
    ("gold", "end"),
    [
        ("243", "### উত্তর:\n\n$$\n\\boxed{{{v}}}\n$$\n\nমোট খরচ **${v}** হয়েছে।"),  # a danda
        ("83", "n = 83\n\n---\n\n### ✅ উত্তর: {v}"),  # an answer label, last
        ("294", "42 \\times 7 = 294\n\n---\n\n**答え：** $\\boxed{{{v}}}$ ドル"),  # a unit word
        ("83", "So the answer is {v}.\n\n---"),  # a separator after it
        ("83", "So the answer is {v} ✅"),  # a closing mark
    ],
)
def test_thinking_never_closed_with_a_finished_answer_is_read(gold, end):
    # the template opened <think> and the model never closed it, but its answer is finished
    done = THINKING + end.format(v=gold)
    assert not cut_off_thinking(done)
    assert grade_completion(gold, done).status == "correct"
    assert grade_completion(gold, THINKING + end.format(v=int(gold) + 1)).status == "incorrect"


@pytest.mark.parametrize(
    "cut",
    [
        "Alternatively maybe \\boxed{83}, but let me check the",
        "Alternatively maybe the answer is 83 but let me check the",
        "So x < 5 and y <",
    ],
)
def test_a_thought_cut_mid_sentence_still_states_nothing(cut):
    text = "<think>\nOkay. Wait, hmm. " + cut
    assert cut_off_thinking(text)
    assert grade_completion("83", text).status == "no_answer"
