"""Answer extraction: each strategy, fall-back chains, per-benchmark/per-model config."""

from __future__ import annotations

import pytest

from sampler.errors import LeashError
from sampler.verify.answers.extraction import (
    AnswerSpan,
    ExtractionConfig,
    extract_answer,
    parse_assignment,
    parse_strategies,
)


def test_boxed_takes_the_last_box_and_collapses_whitespace():
    text = r"First \boxed{3} then, on reflection, \boxed{ \frac{1}{2}   }."
    assert extract_answer(text) == AnswerSpan(r"\frac{1}{2}")


def test_boxed_keeps_nested_braces_and_skips_an_unclosed_box():
    assert extract_answer(r"\boxed{\frac{a}{b}}") == AnswerSpan(r"\frac{a}{b}")
    assert extract_answer(r"answer \boxed{7} and then \boxed{\frac{1}{") == AnswerSpan("7")


@pytest.mark.parametrize("text", ["", "no box here, the answer is correct", r"\boxed{}", None])
def test_no_answer_is_none(text):
    assert extract_answer(text) is None


def test_an_answer_in_words_is_prose_never_math():
    # read by a boolean, choice or text gold; a math gold gets no_answer from it
    span = extract_answer("the answer is: hmm")
    assert span is not None and span.prose and span.rule == "statement (words)"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("blah\nAnswer: 42", AnswerSpan("42")),
        ("blah\n**Answer:** $\\frac{3}{4}$.", AnswerSpan(r"\frac{3}{4}")),
        ("Answer: 1\nthinking again\nFinal Answer: 2", AnswerSpan("2")),
        (
            "Final Answer: The final answer is $\\dfrac{9}{7}$. I hope it is correct.",
            AnswerSpan(r"\dfrac{9}{7}"),
        ),
        ("Answer: \\boxed{12}", AnswerSpan("12")),
        ("Answer: the number of ways is 12", AnswerSpan("12")),  # the value after "is"
    ],
)
def test_answer_line(text, expected):
    assert extract_answer(text, ("answer_line",)) == expected


def test_answer_tags_take_the_last_closed_tag():
    text = "<answer>3</answer> wait <answer> \\boxed{5} </answer> <answer>7"
    assert extract_answer(text, ("answer_tags",)) == AnswerSpan("5")
    assert extract_answer("<answer>x^2</answer>", ("answer_tags",)) == AnswerSpan("x^2")


def test_after_think_reads_only_past_the_last_think_end():
    text = r"<think>maybe \boxed{1}</think> The answer is \boxed{2}."
    assert extract_answer(text, ("after_think",)) == AnswerSpan("2")
    # no box after the thinking: the tail is free text for math-verify to search
    assert extract_answer("<think>hmm</think> It is 4.", ("after_think",)) == AnswerSpan(
        "It is 4.", True
    )
    # thinking never closed (truncated): no answer, even though a box appears inside
    assert extract_answer(r"<think>so \boxed{1}", ("after_think",)) is None


def test_strategies_are_tried_in_order():
    text = r"<answer>2</answer> \boxed{1}"
    assert extract_answer(text, ("answer_tags", "boxed")) == AnswerSpan("2")
    assert extract_answer(text, ("boxed", "answer_tags")) == AnswerSpan("1")
    # an answer pair after the last box is the final answer, as a statement after it is
    assert extract_answer(r"\boxed{1} <answer>2</answer>", ("boxed",)) == AnswerSpan("2")
    assert extract_answer(r"only \boxed{1}", ("answer_tags", "boxed")) == AnswerSpan("1")


def test_model_setting_beats_benchmark_setting_beats_default():
    config = ExtractionConfig(
        default=("boxed",),
        benchmarks={"aime24": ("answer_line",)},
        models={"r1": ("after_think", "boxed")},
    )
    assert config.strategies_for("math500", "base") == ("boxed",)
    assert config.strategies_for("aime24", "base") == ("answer_line",)
    assert config.strategies_for("aime24", "r1") == ("after_think", "boxed")


def test_config_round_trips_through_json():
    config = ExtractionConfig(
        default=("answer_tags", "boxed"), benchmarks={"b": ("answer_line",)}, models={}
    )
    assert ExtractionConfig.from_json(config.to_json()) == config


def test_unknown_strategy_is_a_clear_error():
    with pytest.raises(LeashError, match=r"unknown extraction strategy 'boxd'.*boxed"):
        parse_strategies("boxd")
    with pytest.raises(LeashError, match="expected NAME=STRATEGY"):
        parse_assignment("aime24", "benchmark")
    with pytest.raises(LeashError, match="default"):
        ExtractionConfig.from_json({"default": ["nope"]})
    assert parse_assignment("aime24=answer_line,boxed", "benchmark") == (
        "aime24",
        ("answer_line", "boxed"),
    )


# -- the final answer: the last box, or the closing run of boxes (issue 12, item 1) ---------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"So \boxed{(2, 2)} \quad \text{and} \quad \boxed{(6, 2)}", "(2, 2), (6, 2)"),
        (r"The roots are \boxed{1}, \boxed{2}, \boxed{3}.", "1, 2, 3"),
        (r"\boxed{k = 45} \text{ and } \boxed{n = 2}", "k = 45, n = 2"),
        (r"\(x_1 = \boxed{2} \) and \( x_2 = \boxed{-3} \)", "2, -3"),
        (r"$x_{1}=\boxed{a}$, $x_{2}=\boxed{b}$", "a, b"),
        (r"\boxed{1};\ \boxed{2}\\ \boxed{3}", "1, 2, 3"),
        (r"\boxed{1} or \boxed{2}", "1, 2"),
    ],
)
def test_a_closing_run_of_boxes_is_one_list_answer(text, expected):
    assert extract_answer(text) == AnswerSpan(expected)


@pytest.mark.parametrize(
    "text",
    [
        r"First \boxed{5}, then more work gives \boxed{10}",
        r"We get \boxed{5}. Checking again, the answer is \boxed{10}.",
        r"\boxed{1} no no no no no \boxed{10}",
        r"\boxed{1} papers and \boxed{10}",
        # spacing alone is no connective: a model repeating or changing its answer
        r"\boxed{1} \boxed{10}",
        "\\boxed{1}\n\n$\\boxed{10}$",
    ],
)
def test_an_earlier_box_separated_by_prose_never_joins(text):
    assert extract_answer(text) == AnswerSpan("10")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\boxed{5}. Wait, I erred. The final answer is $7$. I hope it is correct.", "7"),
        (r"\boxed{5}. On reflection the final answer is \(\frac{1}{2}\).", r"\frac{1}{2}"),
        (r"\boxed{5}\nFinal answer is: 12.", "12"),
        # a statement that is prose states nothing: the box stays
        (r"\boxed{5}. I am sure the final answer is correct.", "5"),
        (r"The final answer is $\boxed{5}$.", "5"),
    ],
)
def test_a_final_answer_statement_after_the_last_box_wins(text, expected):
    assert extract_answer(text) == AnswerSpan(expected)


# -- linear time (issue 14, item 2) --------------------------------------------------------

_PATHOLOGICAL = {
    "boxed": lambda n: r"\boxed{x " * (n // 9),
    "answer_tags": lambda n: "<answer>x " * (n // 10),
    "answer_line": lambda n: "Answer: \\boxed{x " * (n // 17),
    "after_think": lambda n: "</think>" + r"\boxed{x " * (n // 9),
}


@pytest.mark.parametrize("strategy", sorted(_PATHOLOGICAL))
def test_extraction_is_linear_on_a_model_looping_until_its_length_limit(strategy):
    import time

    def seconds(n: int) -> float:
        text = _PATHOLOGICAL[strategy](n)
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            extract_answer(text, (strategy,))
            best = min(best, time.perf_counter() - started)
        return best

    small, large = seconds(72_000), seconds(288_000)
    # quadratic work would take 16x as long; linear about 4x (generous margin for noise)
    assert large < 10 * small + 0.05
    assert seconds(1_000_000) < 1.0  # was a minute for 72 KB


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (r"So \boxed{3}.", "box"),
        (r"\boxed{1}, \boxed{2}", "closing boxes"),
        (r"\boxed{5}. The final answer is $7$.", "statement after box"),
        ("Half.\n#### 5", "hashes"),
        ("Final answer: **73**", "answer line"),
        ("So the answer is $4$.", "statement"),
        ("Thus, Jean can fill **14** bags.", "bold conclusion"),
        ("```output\n5\n```", "tool output"),
        (r"\boxed{5}" + "\n\nProblem: What is 2+2? \\boxed{4}", "box (run-on cut)"),
    ],
)
def test_each_answer_names_the_rule_that_found_it(text, rule):
    span = extract_answer(text)
    assert span is not None and span.rule == rule


def test_named_strategies_name_their_rule():
    assert extract_answer("<answer>3</answer>", ("answer_tags",)).rule == "answer tag"
    assert extract_answer("<think>x</think> \\boxed{2}", ("after_think",)).rule == "after </think>"


def test_a_problem_restated_before_any_answer_cuts_nothing():
    text = "Problem: find x.\nWe get x = 3, so \\boxed{3}.\nQuestion: is it? \\boxed{9}"
    assert extract_answer(text) == AnswerSpan("3")
    assert extract_answer("Problem: find x.\nSolution: \\boxed{3}") == AnswerSpan("3")
