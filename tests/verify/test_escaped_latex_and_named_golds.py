"""Round 21's classes from sources leash had not seen, each with a wrong twin.

- LaTeX with every backslash doubled, as a model writes it inside a JSON string
  (``{"answer": "\\\\boxed{1.04\\\\text{ mm}}"}``) or a harness stores a ``repr``;
- a gold that names its value (``\\gamma(0) = 2``, ``P(1.5) \\approx 0.8036``,
  ``E[\\bar{X}] = 0.5``): math-verify compared such equations wrongly both ways (``f(2) = 6``
  was right for ``f(2) = 5``, the bare value ``2`` wrong for ``\\gamma(0) = 2``);
- a gold percent with a closing period (``80\\%.``), which kept its percent from being read;
- an option letter followed by a comma and its content in quotes ('… is (B), "start
  running." This implies …');
- the answer to a "Could …?" question restated with "could not" (a No, not a hedge);
- a check inside long reasoning ("… = 104,976. That's correct.") with a conclusion after
  it: the check is no afterword to cut the conclusion with.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.escaped_text import (
    has_doubled_backslashes,
    with_real_newlines,
    with_single_backslashes,
)
from sampler.verify.answers.named_golds import named_pair, named_value
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("1.04 \\text{ mm}", '{"answer": "\\\\boxed{1.04\\\\text{ mm}}"}', "correct"),
        ("1.04 \\text{ mm}", '{"answer": "\\\\boxed{1.04\\\\text{ cm}}"}', "incorrect"),
        ("\\frac{1}{2}", '```json\n{"answer": "\\\\boxed{\\\\frac{1}{2}}"}\n```', "correct"),
        ("\\frac{1}{2}", '```json\n{"answer": "\\\\boxed{\\\\frac{1}{3}}"}\n```', "incorrect"),
        ("17.04", '{\n  "answer": "\\\\boxed{17.04\\\\text{ kg/m}^2}"\n}', "correct"),
        ("0", "Therefore, there are $\\\\boxed{0}$ happy numbers.", "correct"),
        ("1", "Therefore, there are $\\\\boxed{0}$ happy numbers.", "incorrect"),
        ("\\sqrt{2}", '{"reasoning": "…\\nso", "answer": "\\\\(\\\\sqrt{2}\\\\)"}', "correct"),
        ("\\sqrt{3}", '{"reasoning": "…\\nso", "answer": "\\\\(\\\\sqrt{2}\\\\)"}', "incorrect"),
    ],
)
def test_latex_with_doubled_backslashes_is_read_as_latex(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion).status == expected


def test_only_text_doubled_throughout_is_halved() -> None:
    assert has_doubled_backslashes('{"answer": "\\\\frac{1}{2}"}')
    assert with_single_backslashes('{"a": "\\\\frac{1}{2}\\n"}') == '{"a": "\\frac{1}{2}\\n"}'
    # a LaTeX line break before a command, with single-backslash commands elsewhere: as written
    matrix = "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}, so \\sqrt{5}"
    assert not has_doubled_backslashes(matrix)
    assert with_single_backslashes(matrix) == matrix
    assert not has_doubled_backslashes("x = 1 \\\\ y = 2")  # line breaks alone, no command
    # a matrix gold with its row breaks still verifies against itself boxed
    gold = "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"
    assert grade_completion(gold, f"\\boxed{{{gold}}}").status == "correct"


NAMED = [
    ("\\gamma = 0.45", "0.45", "correct"),
    ("\\gamma = 0.45", "\\gamma = 0.45", "correct"),
    ("\\gamma = 0.45", "0.46", "incorrect"),
    ("\\gamma(0) = 2.", "2", "correct"),
    ("\\gamma(0) = 2.", "\\gamma(0) = 2", "correct"),
    ("\\gamma(0) = 2.", "\\gamma(0) = 1", "incorrect"),
    ("\\gamma(0) = 2.", "\\gamma(1) = 2", "incorrect"),
    ("P(1.5) \\approx 0.8036.", "0.8036", "correct"),
    ("P(1.5) \\approx 0.8036.", "P(1.5) \\approx 0.8036", "correct"),
    ("P(1.5) \\approx 0.8036.", "P(1.5) \\approx 0.9066", "incorrect"),
    ("E[\\bar{X}] = 0.5", "\\mathbb{E}[\\bar{X}] = 0.5", "correct"),
    ("E[\\bar{X}] = 0.5", "0.6", "incorrect"),
    ("E[S] = 27.5", "E[S] = \\frac{5 \\cdot 11}{2} = \\frac{55}{2} = 27.5", "correct"),
    ("E[S] = 27.5", "E[S] = \\frac{5 \\cdot 11}{2} = 28", "incorrect"),
    ("f(2) = 5", "f(2) = 6", "incorrect"),
    ("f(2) = 5", "5", "correct"),
    ("\\Gamma(2)=3", "\\Gamma(2) = 4", "incorrect"),
    ("\\hat{\\gamma}(1) = 0.04", "0.04", "correct"),
    ("\\hat{\\gamma}(1) = 0.04", "0.05", "incorrect"),
    ("P(A|B) = 0.3", "P(A|B) = 0.4", "incorrect"),
    ("\\det(M) = 3", "\\det(M) = 4", "incorrect"),
    ("x = 5", "y = 5", "incorrect"),
    ("x = 5", "5", "correct"),
    ("y = 2x + 1", "y = 1 + 2x", "correct"),
    ("y = 2x + 1", "y = 2x + 2", "incorrect"),
    ("f(x) = x^2", "x^2", "correct"),
    ("f(x) = x^2", "f(x) = x^2 + 1", "incorrect"),
    ("h \\approx 1.409 \\text{ years}", "h = \\frac{5}{100^{0.275}} \\approx 1.409", "correct"),
    ("h \\approx 1.409 \\text{ years}", "h = \\frac{5}{100^{0.275}} \\approx 1.41", "incorrect"),
    # a list of named values is compared as a list, not by its last value
    ("c_0 = -1,\\ c_1 = -1,\\ c_2 = 0.", "c_0 = -4,\\ c_1 = -4,\\ c_2 = 0", "incorrect"),
    ("c_0 = -1,\\ c_1 = -1,\\ c_2 = 0.", "c_0 = -1,\\ c_1 = -1,\\ c_2 = 0", "correct"),
    (
        "\\gamma(0) \\approx 2.7778,\\ \\gamma(1) \\approx 2.2222",
        "\\gamma(0) = 2.7778",
        "incorrect",
    ),
]


@pytest.mark.parametrize(("gold", "answer", "expected"), NAMED)
def test_a_gold_that_names_its_value_is_judged_by_the_value(
    gold: str, answer: str, expected: str
) -> None:
    assert grade_completion(gold, f"\\boxed{{{answer}}}").status == expected


def test_named_value_reads_names_and_constants_only() -> None:
    assert named_value("\\gamma(0) = \\frac{1}{1-0.8^2} = 2.7778") == ("\\gamma(0)", "2.7778")
    # names compare without braces and fonts, brackets as parentheses
    assert named_value("E[\\bar{X}] = 0.5") == ("E(\\barX)", "0.5")
    assert named_value("\\mathbb{E}[\\bar{X}] = 0.5") == ("E(\\barX)", "0.5")
    assert named_value("y = 2x + 1") is None  # no constant
    assert named_value("2x + 1 = 5") is None  # no name
    assert named_value("a = 1, b = 2") is None  # a list
    assert named_pair("\\gamma(0) = 2", "\\gamma(1) = 2") == ("", "")
    assert named_pair("f(x) = x^2", "x^2") is None


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [("80\\%.", "0.8", "correct"), ("81\\%.", "0.8", "incorrect"), ("(1, 2).", "(1,2)", "correct")],
)
def test_a_gold_keeps_its_value_before_a_closing_period(
    gold: str, answer: str, expected: str
) -> None:
    assert grade_completion(gold, f"\\boxed{{{answer}}}").status == expected


CHOSEN = (
    "When buying a used car, one hopes that it will run smoothly. Therefore, the most "
    'appropriate answer is (B), "start running." This implies that the car will function '
    "properly and be able to move under its own power."
)


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("(B)", CHOSEN, "correct"),
        ("(E)", CHOSEN, "incorrect"),
        ("B", "The answer is (B): start running.", "correct"),
        ("B", "So the answer is (A), (B) and (D).", "incorrect"),  # several options
        ("B", "The answer is (B), or maybe (C).", "incorrect"),  # a hedge
    ],
)
def test_an_option_letter_then_its_content_is_the_letter(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion).status == expected


COULD = "Could a student at the University of Houston see a caracal on campus?"


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        (
            "no",
            "Caracals are not found in the United States.\n* Thus, a student at the University"
            " of Houston could not see a caracal on campus.",
            "correct",
        ),
        (
            "yes",
            "Thus, a student at the University of Houston couldn't see a caracal on campus.",
            "incorrect",
        ),
        # "could" with no negation stays a hedge; "could not be determined" says nothing
        ("yes", "Thus, a student at the University of Houston could see a caracal.", "no_answer"),
        (
            "no",
            "Whether a student could see a caracal on campus could not be determined.",
            "no_answer",
        ),
    ],
)
def test_could_not_answers_a_could_question(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion, problem=COULD).status == expected


LONG_CHECK = (
    "So \\(R = 540\\). Therefore, the maximum value is 540.\n\nWait, let me double-check that."
    " 324 squared: (300 + 24)^2 = 104,976. That's correct.\n\n432 squared: 186,624. That's "
    "correct.\n\nTherefore, the maximum real part is {value}.\n\nBut let me just make sure that"
    " I didn't make any miscalculations earlier."
)


def test_a_check_with_a_conclusion_after_it_is_no_afterword() -> None:
    # thinking that never concluded: the check's 104,976 is no answer (it was, cut there)
    assert grade_completion("104976", LONG_CHECK.format(value=540)).status == "no_answer"
    assert grade_completion("540", LONG_CHECK.format(value=540)).status == "no_answer"
    # a check that ends the completion is still an afterword
    assert grade_completion("5", "The sum is $5$.\n\nLet me verify: 2 + 3 = 5.").status == "correct"
    assert (
        grade_completion("6", "The sum is $5$.\n\nLet me verify: 2 + 3 = 5.").status == "incorrect"
    )


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        # an answer that names its value against a gold that names nothing: decorated names
        ("0.1", "\\hat{H}_{0}(t;\\hat{B}) = 0.1", "correct"),
        ("0.1", "\\hat{H}_{0}(t;\\hat{B}) = 0.2", "incorrect"),
        ("0.18956", "\\sigma^2_{\\sqrt{\\beta_1}} = 0.189560", "correct"),
        ("0.18956", "\\sigma^2_{\\sqrt{\\beta_1}} = 0.19", "incorrect"),
        # a gold with a remark on how it was stated, in parentheses: its value
        ("0.18956 \\text{ (approximately)}", "0.189560", "correct"),
        ("0.18956 \\text{ (approximately)}", "0.19", "incorrect"),
        ("25 (rounded to the nearest whole number)", "25", "correct"),
        ("25 (rounded to the nearest whole number)", "24", "incorrect"),
    ],
)
def test_decorated_names_and_remarks_on_golds(gold: str, answer: str, expected: str) -> None:
    assert grade_completion(gold, f"\\boxed{{{answer}}}").status == expected


FORCED = (
    "<think>Okay, Seattle has 20 sheep, Charleston 4*20=80, Toulouse 2*80=160. Adding them up: "
    "160+80=240, then 240+20=\nTherefore, the answer is \\(\\boxed{{{value}"
)


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        # a harness forced the answer after the thinking and stopped at the closing brace
        ("260", FORCED.format(value="260"), "correct"),
        ("260", FORCED.format(value="240"), "incorrect"),
        # thinking cut by the limit inside a box with no answer's lead-in: cut, not forced
        ("26", "<think>Okay, so Wait, adding them up gives 240+20=\\(\\boxed{26", "no_answer"),
        ("10", FORCED.format(value="10e + 5b"), "no_answer"),  # no whole number in it
        ("260", "The answer is \\boxed{260} sheep.", "correct"),  # a closed box as ever
    ],
)
def test_a_forced_answer_box_cut_at_its_brace(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion).status == expected


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("3", "The lactate rises.\\n\\nAnswer: 3. Increased plasmatic lactate.", "correct"),
        ("2", "The lactate rises.\\n\\nAnswer: 3. Increased plasmatic lactate.", "incorrect"),
        # a LaTeX command that starts with n is no line break
        ("\\nu", "The frequency is \\(\\nu\\).\\nAnswer: $\\nu$", "correct"),
    ],
)
def test_line_breaks_written_as_backslash_n(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion).status == expected


def test_written_line_breaks_are_read_only_without_real_ones() -> None:
    assert with_real_newlines("a\\n\\nAnswer: 3") == "a\n\nAnswer: 3"
    assert with_real_newlines("line one\nthen \\n stays") == "line one\nthen \\n stays"
    assert with_real_newlines("$\\nu = 3$ and $x \\neq 2$") == "$\\nu = 3$ and $x \\neq 2$"


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        # a verdict on a claim, then its reasons (TabFact)
        ("true", "Based on the table, the claim is true. Brian Finch's rank is 7.", "correct"),
        ("false", "Based on the table, the claim is true. Brian Finch's rank is 7.", "incorrect"),
        (
            "false",
            "The earliest date is 2007-11-10. Therefore, the claim that volleyball is the sport"
            " with the earliest date is false.",
            "correct",
        ),
        ("false", "Hence the statement is not correct, as the table shows 3 wins.", "correct"),
        # "if the claim is true" is no verdict; "not possible to verify" is none either
        ("true", "We check if the claim is true. It is not possible to verify it.", "no_answer"),
    ],
)
def test_a_verdict_on_the_claim_answers_a_boolean_gold(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion).status == expected


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("1920", "The total is $1,\\!920.", "correct"),  # MATH's thousands comma and thin space
        ("1", "The total is $1,\\!920.", "incorrect"),
        ("1920", "So he pays \\$1,\\!920 in total.", "correct"),
    ],
)
def test_a_thousands_comma_with_a_thin_space(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion).status == expected


RYAN = (
    "Ryan plants 2 flowers a day in his garden. After 15 days, how many flowers does he have"
    " if 5 did not grow?"
)


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("25", "Therefore, after 15 days, Ryan has 25 flowers in his garden.", "correct"),
        ("15", "Therefore, after 15 days, Ryan has 25 flowers in his garden.", "incorrect"),
    ],
)
def test_a_number_the_question_gave_is_not_the_answer(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion, problem=RYAN).status == expected


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        (
            "B",
            "It is positive news.\nTherefore, the final answer is: ANSWER: B  \nConfidence: 85%",
            "correct",
        ),
        (
            "C",
            "It is positive news.\nTherefore, the final answer is: ANSWER: B  \nConfidence: 85%",
            "incorrect",
        ),
    ],
)
def test_an_answer_label_repeated_inside_the_statement(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion).status == expected


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("১১.৩২", "11.32", "correct"),
        ("১১.৩২", "11.34", "incorrect"),
        ("২৫,০০০", "25000", "correct"),
    ],
)
def test_a_gold_in_another_scripts_digits(gold: str, answer: str, expected: str) -> None:
    # BenNumEval's Bengali golds had parsed to nothing: every answer was an error
    assert grade_completion(gold, f"The answer is {answer}.").status == expected


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        # a last line that closes with a unit written with a slash: the unit stays
        ("60 km/h", "Speed = Distance / Time\nSpeed = 60 km / 1 hour\nSpeed = 60 km/h", "correct"),
        ("60 km/h", "We divide the distance by the time.\nSpeed = 60 m/s", "incorrect"),
        # a completion that opens with its value alone, then its reasons
        ("10 minutes", "10 minutes. Boiling two eggs together doesn't change the time.", "correct"),
        (
            "9 minutes",
            "10 minutes. Boiling two eggs together doesn't change the time.",
            "incorrect",
        ),
    ],
)
def test_slash_units_and_an_opening_value(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion).status == expected
