"""Round 15, fourth part, from harness dumps (ConceptMath, GSM8K runs of Llama and Mistral)
and reasoning models' gaokao and MATH500 outputs: list golds written as Python lists, a list
or interval in brackets in prose, "are: 1, 5, 25", named parts whose names are function calls
or subscripted (``f\\left(\\frac{2\\pi}{3}\\right)=1``, ``q_{\\max}=…``, ``E[X]=…``), boxes joined
by a full-width comma, option letters spaced with LaTeX, and a reasoning model's closed
thinking that is no run-on; each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("[5, 5]", "So, the focus is at the point (5, 5).", "correct"),  # a list, no interval
        ("[5, 5]", "So, the focus is at the point (5, 6).", "incorrect"),
        ("[1, 5, 25]", r"\boxed{(1, 5, 25)}", "correct"),
        ("[1, 5, 25]", r"\boxed{(1, 5, 24)}", "incorrect"),
        ("[0, 5]", r"\boxed{(0, 5)}", "incorrect"),  # an ascending pair may be an interval
        ("[0, 5]", "The range of the function is [0, 5].", "correct"),  # was read as 0
        ("[0, 5]", "The range of the function is [0, 6].", "incorrect"),
        ("[1, 5, 25]", "The factors of 25 are: 1, 5, 25.", "correct"),  # was the sentence
        ("[1, 5, 25]", "The factors of 25 are: 1, 5, 24.", "incorrect"),
    ],
)
def test_lists_as_harnesses_write_their_golds(gold, text, status):
    assert grade_completion(gold, text).status == status


NAMED = (
    "So\n\\[\n\\boxed{{\\theta=\\frac{{3\\pi}}{{2}},"
    "\\quad f\\left(\\frac{{2\\pi}}{{3}}\\right)={v}}}\n\\]"
)
OPTIONS = "A. $-\\frac{1}{21}$\nB. 0\nC. 1\nD. 2"


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        (r"\frac{3\pi}{2}, 1", NAMED.format(v=1), None, "correct"),
        (r"\frac{3\pi}{2}, 1", NAMED.format(v=2), None, "incorrect"),
        (r"\sqrt[3]{\frac{3}{2}}", r"\boxed{q_{\max}= \sqrt[3]{\dfrac{3}{2}}}", None, "correct"),
        (r"\sqrt[3]{\frac{3}{2}}", r"\boxed{q_{\max}= \sqrt[3]{\dfrac{5}{2}}}", None, "incorrect"),
        ("A", r"\boxed{E[X]=-\dfrac1{21}}", OPTIONS, "correct"),  # not the option E
        ("B", r"\boxed{E[X]=-\dfrac1{21}}", OPTIONS, "incorrect"),
        ("3", r"\boxed{x \le 3}", None, "incorrect"),  # an inequality names no value
    ],
)
def test_a_named_quantity_is_its_value_for_a_gold_that_names_none(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        (r"\frac{3\pi}{2}, 1", r"综上可得 \boxed{\frac{3\pi}{2}}，\boxed{1}", "correct"),
        (r"\frac{3\pi}{2}, 1", r"综上可得 \boxed{\frac{3\pi}{2}}，\boxed{2}", "incorrect"),
        ("2", r"先得到\boxed{1}。但是检查后，答案是\boxed{2}", "correct"),  # prose parts them
    ],
)
def test_boxes_joined_by_a_full_width_comma_are_one_list(gold, text, status):
    assert grade_completion(gold, text).status == status


MULTI = "多选题\nA. x\nB. y\nC. z\nD. w"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("ACD", r"$$\boxed{A,\;C,\;D}$$", "correct"),
        ("ACD", r"$$\boxed{A,\;B,\;D}$$", "incorrect"),
    ],
)
def test_option_letters_spaced_with_latex(gold, text, status):
    assert grade_completion(gold, text, problem=MULTI).status == status


THOUGHT = (
    "<think>\n用户要求：将最终答案放在 \\boxed{{}} 中。\nProblem: 设函数 f(x)…\n"
    "Case B: θ = 3π/2 …\n这与选项 D 相符。\n</think>\n\n故选 {v}。\n\n\\boxed{{{v}}}"
)


def test_closed_thinking_is_no_run_on():
    # the draft quotes the prompt and tries cases; only what follows </think> can run on
    choices = "A. 1\nB. 2\nC. 3\nD. 4"
    assert grade_completion("D", THOUGHT.format(v="D"), problem=choices).status == "correct"
    assert grade_completion("D", THOUGHT.format(v="C"), problem=choices).status == "incorrect"
    run_on = "The answer is \\boxed{5}.\n\nProblem: What is 2+2?\nSolution: \\boxed{4}"
    assert grade_completion("5", run_on).status == "correct"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("14", "So, the value of k is 14 when z = 4.", "correct"),  # was read as 4
        ("14", "So, the value of k is 15 when z = 4.", "incorrect"),
        ("83", "So the number of boxes loaded while not exceeding the limit is 83.", "correct"),
        ("83", "So the number of boxes loaded while not exceeding the limit is 84.", "incorrect"),
        ("-4", "So, the number that is not in the domain of the function is x = -4.", "correct"),
        ("83", "Therefore, the number of boxes is not 83.", "no_answer"),  # denied: no answer
    ],
)
def test_a_condition_after_the_value_and_a_negation_before_its_verb(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("2", "The farmer needs to make two trips.", "correct"),  # was no_answer
        ("2", "The farmer needs to make three trips.", "incorrect"),
        ("25", "So she has twenty-five apples left.", "correct"),
        ("0", "So the result is always zero.", "correct"),
        ("2", "One of the two boxes is red.", "no_answer"),  # two numbers in words: which?
    ],
)
def test_the_one_number_a_closing_sentence_writes_in_words(gold, text, status):
    assert grade_completion(gold, text).status == status
