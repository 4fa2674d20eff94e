"""Round 15, third part, from new sources (ToRA-format GPT-4 transcripts, MathSensei, PRM800K,
Omni-MATH, multilingual MGSM): a tool output followed by the task's instructions restated, a
harness that boxed a program's error, an expression in a symbol read as its number, an option
letter closed by a bracket, a result verb before the answer, a capitalised count noun, dots
grouping thousands before or after a currency sign, other scripts' digits with separators,
Japanese 回答 and a bracketed "[num]", a count that opens a stated answer in words."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

ECHO = (
    "```python\nprint({v})\n```\n```output\n{v}\n```\n"
    "Let's start by solving a math problem following the guidelines provided. We will write a "
    "Python function that solves it and present the final result in LaTeX using a `\\boxed{{}}`."
)
ASK = (
    "```python\nprint('{v}')\n```\n```output\n{v}\n```\nIt appears there was a repetition in the "
    "explanation for the last example. Let's proceed with a new math problem. Please provide me "
    "with the math problem you would like to solve."
)


@pytest.mark.parametrize(("template", "gold", "wrong"), [(ECHO, "52", "53"), (ASK, "even", "odd")])
def test_a_tool_output_then_the_task_restated_states_the_output(template, gold, wrong):
    # the closing paragraph restates the system prompt or asks for a problem: no answer of its
    # own, and the output above it is the result (it was no_answer)
    assert grade_completion(gold, template.format(v=gold)).status == "correct"
    assert grade_completion(gold, template.format(v=wrong)).status == "incorrect"


def test_a_program_error_a_harness_boxed_is_no_answer():
    text = "```output\n\\boxed{KeyError: z}\n```\n\nReach max function call limit."
    assert grade_completion("5", text).status == "no_answer"
    assert grade_completion("5", "```output\n\\boxed{5}\n```").status == "correct"


def test_an_expression_in_a_symbol_is_not_its_number():
    text = "- From Wolfram alpha we get the answer as 78-x.\n- the answer is #### 78-x."
    assert grade_completion("78", text).status == "incorrect"  # was a false accept
    assert grade_completion("78", "- the answer is #### 78 apples.").status == "correct"


AQUA = "Options:\nA)120\nB)230\nC)240\nD)250\nE)1200"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("E", "Hence the answer is E).", "correct"),
        ("D", "Hence the answer is E).", "incorrect"),
        ("B", "It is not in the options. The closest option is B)230.", "correct"),
        ("C", "It is not in the options. The closest option is B)230.", "incorrect"),
    ],
)
def test_option_letters_closed_by_a_bracket(gold, text, status):
    assert grade_completion(gold, text, problem=AQUA).status == status


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("So, $ab+5b+2a+10$ factors to $(a+5)(b+2)$.", "correct"),  # was the whole sentence
        ("So, $ab+5b+2a+10$ factors to $(a+5)(b+3)$.", "incorrect"),
        ("So, $ab+5b+2a+10$ simplifies to $(a+5)(b+2)$.", "correct"),
    ],
)
def test_a_result_verb_before_the_answer(text, status):
    assert grade_completion("(a+5)(b+2)", text).status == status


@pytest.mark.parametrize(
    ("answer", "status"), [("6 Trinkets", "correct"), ("7 Trinkets", "incorrect")]
)
def test_a_capitalised_count_noun(answer, status):
    assert grade_completion("6", f"So he has \\boxed{{{answer}}}").status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("57500", "Gewinn = $57.500\n\nAntwort: $57.500", "correct"),
        ("57.5", "Antwort: $57.500", "correct"),
        ("57501", "Antwort: $57.500", "incorrect"),
        ("25000", "### চূড়ান্ত উত্তর\n\n$$\n\\boxed{২৫,০০০}\n$$", "correct"),
        ("243", "$$\n\\boxed{২৪৩.০০}\n$$", "correct"),
        ("244", "$$\n\\boxed{২৪৩.০০}\n$$", "incorrect"),
        ("25", "So \\boxed{٢٥}.", "correct"),
        ("21", "したがって、答えは以下の通りです。\n\n回答：21", "correct"),
        ("22", "したがって、答えは以下の通りです。\n\n回答：21", "incorrect"),
        ("27000", "$27,000を支払いました。\n\n回答：[27000]", "correct"),
        ("21", "回答：21個のアーモンドは2週間後に収穫可能ではありませんでした。", "correct"),
        ("22", "回答：21個のアーモンドは2週間後に収穫可能ではありませんでした。", "incorrect"),
    ],
)
def test_numbers_as_other_languages_write_them(gold, text, status):
    assert grade_completion(gold, text).status == status


SIMPLIFY = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$"


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        # the question's expression written back: equal in value, but not worked out (a false
        # accept before, on PRM800K's GPT-4 samples)
        (r"-\sqrt{3}", r"So it stays $\tan 100^\circ + 4 \sin 100^\circ$.", SIMPLIFY, "incorrect"),
        (r"-\sqrt{3}", r"So the value is $-\sqrt{3}$.", SIMPLIFY, "correct"),
        (
            r"\frac{5}{6}",
            r"So \boxed{\frac{1}{2}+\frac{1}{3}}",
            r"Compute $\frac{1}{2}+\frac{1}{3}$.",
            "incorrect",
        ),
        # a question that asks no working out may be answered with one of its expressions
        ("1024", r"So \boxed{2^{10}}", r"Which is larger, $2^{10}$ or $10^3$?", "correct"),
    ],
)
def test_the_question_s_own_expression_restated_is_no_answer(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        (r"\dfrac{33}{100}", "33 of 100 do.\nSo the probability is \\frac{33}{100}.", "correct"),
        (r"\dfrac{33}{100}", "33 of 100 do.\nSo the probability is \\frac{34}{100}.", "incorrect"),
        (r"2\sqrt{3}", "So the length is 2\\sqrt{3}.", "correct"),
        (r"2\sqrt{3}", "So the length is 3\\sqrt{3}.", "incorrect"),
    ],
)
def test_a_fraction_or_root_in_latex_without_delimiters_in_prose_is_one_value(gold, text, status):
    # it was read as its first number ("33")
    assert grade_completion(gold, text).status == status
