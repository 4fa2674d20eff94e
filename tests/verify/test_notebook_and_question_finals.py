"""Finals of notebook transcripts and of questions that decide what the answer is.

The classes: a notebook transcript without fences (MathCoder-style role turns joined) whose
code cell ends with an expression, a call or an operation rather than a bare name, so that
the kernel's echo (``{a: 2, b: 3}``, ``True``, ``(2, 3)``) was no answer or its last number;
a lowercase option letter as the gold of a question that lists ``(a) … (b) …`` (the DeepMind
mathematics dataset's format), which was compared as the symbol ``c``; a comparison
("0.3 is bigger than 2/7") answering "Which is bigger?", read as its last value; a list of
solutions that names its symbol each time (``x = 2 and x = 3``), read as its last value, a
false accept of a gold 3. Each positive case has its twin, which must stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.comparisons import LESS, MORE, asked_comparison, compared_value
from sampler.verify.answers.float_repr import without_float_noise
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.named_values import one_name_values
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.tool_transcript import is_echo

SYMPY = "Let's solve it with sympy.\nfrom sympy import *\n"


def _status(gold: str, completion: str, problem: str | None = None) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize(
    ("completion", "problem", "right", "wrong"),
    [
        (
            SYMPY
            + "a, b = symbols('a b')\nsolve([3*a + 2*b - 12, a - b + 1], [a, b])\n{a: 2, b: 3}",
            "Solve 3*a + 2*b = 12, a - b = -1 for a.",
            "2",
            "3",
        ),
        (SYMPY + "n = 52\nn % 13 == 0\nTrue", "Is 13 a factor of 52?", "True", "False"),
        (SYMPY + "a, b = 2, 3\na, b\n(2, 3)", None, "(2, 3)", "(2, 4)"),
        (SYMPY + "x = symbols('x')\nsimplify(sqrt(8))\n2*sqrt(2)", None, "2\\sqrt{2}", "\\sqrt{2}"),
        (SYMPY + "import math\nmath.gcd(12, 18)\n6", None, "6", "7"),
    ],
)
def test_a_notebook_echo_of_an_expression_is_the_answer(completion, problem, right, wrong):
    assert _status(right, completion, problem) == "correct"
    assert _status(wrong, completion, problem) == "incorrect"


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("result", True),
        ("sol[0]", True),
        ("print(x)", True),
        ("N(solve(eq, x)[0])", True),
        ("52 % 13 == 0", True),
        ("a, b", True),
        # printed values are output lines of their own, and prose and statements do not parse
        ("42", False),
        ("-3", False),
        ("(2, 3)", False),
        ("[1, 2]", False),
        ("The answer is", False),
        ("x = 3", False),
        ("", False),
        ("f(" * 300, False),
    ],
)
def test_what_a_notebook_cell_ends_with(line: str, echo: bool) -> None:
    assert is_echo(line) is echo


OPTIONS = "Which is the nearest to 0.1?  (a) 2  (b) -3  (c) 0.2"


@pytest.mark.parametrize(
    "final",
    [
        "The number nearest to 0.1 is 0.2.",
        "The number nearest to 0.1 is (c) 0.2.",
        "The answer is (c).",
        "So the answer is $\\boxed{c}$.",
    ],
)
def test_a_lowercase_option_gold_is_the_option(final: str) -> None:
    completion = "We compare the distances to 0.1.\n" + final
    assert _status("c", completion, OPTIONS) == "correct"
    assert _status("b", completion, OPTIONS) == "incorrect"


def test_a_lowercase_gold_without_options_stays_a_symbol() -> None:
    gold = gold_from_question("c", problem="Let a = 2 and b = 3. Which of a, b, c is zero?")
    assert gold is not None and gold.kind == "" and gold.latex == "c"
    assert gold_from_question("c", problem=OPTIONS).kind == "choice"  # type: ignore[union-attr]


BIGGER = "Which is bigger: 0.3 or 2/7?"


@pytest.mark.parametrize(
    "final",
    [
        "So 0.3 is bigger than 2/7.",
        "So, 2/7 is less than 0.3.",
        "Therefore, $0.3 > \\frac{2}{7}$.",
        "So 2/7 < 0.3.",
        "The answer is that 0.3 is greater than 2/7.",
        "The bigger number is 0.3.",
    ],
)
def test_a_comparison_answers_which_is_bigger(final: str) -> None:
    completion = "We write both as decimals: 2/7 is about 0.2857.\n" + final
    assert _status("0.3", completion, BIGGER) == "correct"
    assert _status("2/7", completion, BIGGER) == "incorrect"
    smaller = BIGGER.replace("bigger", "smaller")
    if "bigger number" not in final:
        assert _status("2/7", completion, smaller) == "correct"
        assert _status("0.3", completion, smaller) == "incorrect"


@pytest.mark.parametrize(
    ("problem", "asked"),
    [
        (BIGGER, MORE),
        ("Which is smaller, -1 or 3?", LESS),
        ("Which number is greater: 4/9 or 0.4?", MORE),
        ("How much bigger is 5 than 3?", None),
        ("Is 3 less than 2?", None),
        (None, None),
    ],
)
def test_what_a_comparison_question_asks(problem: str | None, asked: str | None) -> None:
    assert asked_comparison(problem) == asked


def test_a_statement_of_several_comparisons_picks_none() -> None:
    assert compared_value("0.3 > 0.2 and 0.2 > 0.1", MORE) is None
    assert compared_value("The answer is 0.3.", MORE) is None


QUADRATIC = "Solve x**2 - 5*x + 6 = 0 for x."


@pytest.mark.parametrize(
    "final", ["The solutions are x = 2 and x = 3.", "x = 2, x = 3", "So x = 2 or x = 3."]
)
def test_solutions_named_each_time_are_a_list(final: str) -> None:
    completion = "We factor: (x - 2)(x - 3) = 0.\n" + final
    assert _status("2, 3", completion, QUADRATIC) == "correct"
    assert _status("2, 4", completion, QUADRATIC) == "incorrect"
    assert _status("3", completion, QUADRATIC) == "incorrect"  # one of two roots is not both


def test_values_of_several_names_are_no_list_of_solutions() -> None:
    assert one_name_values("x = 2 and y = 3") == []
    assert one_name_values("x = 2 and x = 2") == []
    assert one_name_values("x = 2 and x = 3") == ["x = 2", "x = 3"]


@pytest.mark.parametrize(
    "final",
    ["Answer — 42", "Final answer - 42", "Final Answer – 42", "Answer -- 42", "My answer: 42"],
)
def test_an_answer_label_with_a_dash(final: str) -> None:
    completion = "We add the numbers 40 and 2.\n" + final
    assert _status("42", completion) == "correct"
    assert _status("41", completion) == "incorrect"


LARGEST = "Which of the following is the largest?\n(A) 0.3\n(B) 0.5\n(C) 0.1\n(D) 0.05"


@pytest.mark.parametrize(
    "final",
    [
        "Among the options, (B) is the largest.",
        "Option B is the largest.",
        "B is the most reasonable choice.",
        "My choice: B",
        "Final choice — B",
        "答案选B。",
        "答案应选择B",
    ],
)
def test_an_option_chosen_in_more_words(final: str) -> None:
    completion = "We compare the four values.\n" + final
    assert _status("B", completion, LARGEST) == "correct"
    assert _status("A", completion, LARGEST) == "incorrect"


def test_a_lowercase_letter_is_no_option_chosen() -> None:
    completion = "We compare a and b.\nSo a is the largest."
    assert grade_completion("A", completion, problem=LARGEST).rule != "closing option"


# least-to-most decomposition (sub-questions numbered under the problem's number), as
# zhentingqi/Math_LLM's saved outputs of Llama-2 chat models write it
DECOMPOSED = (
    "Question 5.1: How many players were there in total?\n"
    "Answer 5.1: 8 players were playing the game originally. Then 2 more players joined, so "
    "now there are 8 + 2 = 10 players.\n"
    "Question 5.2: Now we can answer the question: How many lives did they have total?\n"
    "Answer 5.2: 8 players had 6 lives each, so they had 8 * 6 = 48 lives. Then 2 more players"
    " joined, and they had 2 * 6 = 12 lives. So the total is 48 + 12 = 60 lives. The answer is"
    " 60 ."
)


def test_a_sub_question_continues_the_problem() -> None:
    assert _status("60", DECOMPOSED) == "correct"
    assert _status("10", DECOMPOSED) == "incorrect"
    # a new problem after an answer still ends the completion's own
    run_on = "So the answer is 10.\n\nQuestion 2: How many apples are left? The answer is 60."
    assert _status("10", run_on) == "correct"


@pytest.mark.parametrize(
    ("final", "right", "wrong"),
    [
        ("Answer 5.5: Emily spent 12 dollars.", "12", "13"),
        (
            "Answer 5.3: 27 / 9 = 3 pieces of clothing could go in each of the small loads.",
            "3",
            "27",
        ),
        ("Answer 5.2: 11 short sleeve shirts did Sam not wash.", "11", "12"),
        ("Answer 3: 49 / 7 = 7 folders.", "7", "49"),
        # the label's first sentence is a step when its line goes on to state the answer
        (
            "Answer 5.3: 2 boxes have 8 pieces. So Adam has 8 + 20 = 28. The answer is 28.",
            "28",
            "8",
        ),
    ],
)
def test_a_numbered_answer_label(final: str, right: str, wrong: str) -> None:
    completion = "Question 5.1: How many are there?\nAnswer 5.1: We count them.\n" + final
    assert _status(right, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


@pytest.mark.parametrize(
    ("printed", "right", "wrong"),
    [
        ("15.000000000000002", "15", "16"),
        ("803.0000000000001", "803", "802"),
        ("1.9999999999999998", "2", "1"),
        ("-2.0000000000000004", "-2", "2"),
        ("0.30000000000000004", "0.3", "0.4"),
    ],
)
def test_a_float_printed_with_its_rounding_error(printed: str, right: str, wrong: str) -> None:
    completion = "total = 15 * 1.1 / 1.1\nprint(total)\n" + printed
    assert _status(right, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


@pytest.mark.parametrize("stated", ["15.0000000222", "5.999999", "15.00001", "14.999"])
def test_digits_that_are_no_float_error_stay(stated: str) -> None:
    assert without_float_noise(stated) == stated
    assert _status(str(round(float(stated))), f"The answer is {stated}.") == "incorrect"


@pytest.mark.parametrize(
    ("completion", "right", "wrong"),
    [
        # a tuple a program printed, whole: not its last number
        ("We compute the angles.\nprint(angles)\n(30, 120, 30)", "30, 120, 30", "30"),
        ("We compute the angles.\nprint(angles)\n(30, 120, 30)", "(30, 120, 30)", "30, 120, 31"),
        # a remark after the value
        ("We divide.\nThe answer is 6, with 2 students left over.", "6", "2"),
        ("We divide.\nThe answer is 12, since each box holds 3.", "12", "3"),
        # dollars in prose are currency, not a math span across sentences
        ("Dan had $4 and bought 2 bars. $4 / 2 = $2. Each candy bar cost $2.", "2", "4"),
    ],
)
def test_program_outputs_remarks_and_dollars(completion: str, right: str, wrong: str) -> None:
    assert _status(right, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


# free-form answers to multiple-choice science questions (GPQA, MMLU-Pro) of chat models
SCIENCE = (
    "Which is product 4?\n\nA) (3-isopropylcyclohexyl)methanol\n"
    "B) 3-((benzyloxy)methyl)-1-butyl-5-isopropylcyclohexan-1-ol\n"
    "C) N'-(3-(hydroxymethyl)-5-isopropylcyclohexyl)-4-methylbenzenesulfonohydrazide\n"
    "D) Properties of a relation being symmetric and being un-symmetric are negative of each "
    "other in every case considered here"
)


@pytest.mark.parametrize(
    "final",
    [
        "### Conclusion\nThe structure of product 4 is:\n\n**A. (3-isopropylcyclohexyl)methanol**",
        "Therefore, the correct conclusion is:\n\n**A. (3-isopropylcyclohexyl)methanol**\n\n"
        "This is because the hydrogenation removes the benzyl group, which is not retained.",
        "The most likely product is **A. (3-isopropylcyclohexyl)methanol**. This suggests that "
        "the benzyl group is removed.",
        'The most likely product is "A. (3-isopropylcyclohexyl)methanol" because the benzyl '
        "group is not retained.",
        "The correct answer is **A**.\n\nReasoning: the benzyl ether is not retained.",
    ],
)
def test_an_option_chosen_in_bold_or_quotes_then_explained(final: str) -> None:
    completion = "We follow each step of the synthesis.\n" + final
    assert _status("A", completion, SCIENCE) == "correct"
    assert _status("B", completion, SCIENCE) == "incorrect"


def test_an_option_with_long_content() -> None:
    completion = (
        "We check each statement.\nThe correct answer is (D) Properties of a relation being "
        "symmetric and being un-symmetric are negative of each other in every case considered here."
    )
    assert _status("D", completion, SCIENCE) == "correct"
    assert _status("C", completion, SCIENCE) == "incorrect"


@pytest.mark.parametrize(
    ("final", "status"),
    [
        ("The value is 5 because 6 is not possible.", "correct"),
        ("So the answer is 5, since 6 is not prime.", "correct"),
        ("The value is not 5 because 6 is possible.", "no_answer"),  # the negation is the answer's
    ],
)
def test_a_reason_after_the_answer(final: str, status: str) -> None:
    assert _status("5", "We check the cases.\n" + final) == status


def test_an_explanation_inside_the_reasoning_cuts_nothing() -> None:
    completion = (
        "The resistance of g2 is 0% of control.\nThis suggests that G2 is a regulator.\n"
        "The resistance of g3 is 50% of control.\n\nSince none of the options perfectly match "
        "this interpretation, there might be an error in the provided options."
    )
    assert _status("A", completion, SCIENCE) == "no_answer"


ACIDS = (
    "Which acid is strongest?\nA) benzoic acid\nB) 4-chlorobenzoic acid\n"
    "C) 4-nitrobenzoic acid\nD) 4-methylbenzoic acid"
)


@pytest.mark.parametrize(
    "final",
    [
        "This matches option C.",
        "This corresponds to option (C).",
        "**Option C**: 4-nitrobenzoic acid",
        "The answer must therefore be C.",
        "Hence option C, 4-nitrobenzoic acid.",
        "The best choice is C — 4-nitrobenzoic acid.",
        "The strongest acid is 4-nitrobenzoic acid.",
        "Therefore, the strongest acid is option C.",
        "The strongest is **Option C: 4-nitrobenzoic acid**.",
        "The strongest acid is most likely C: 4-nitrobenzoic acid.\n\nThis compound has its "
        "nitro group para to the acid.",
    ],
)
def test_an_option_named_by_letter_or_by_content(final: str) -> None:
    completion = "We compare the substituents.\n" + final
    assert _status("C", completion, ACIDS) == "correct"
    assert _status("B", completion, ACIDS) == "incorrect"


def test_a_number_inside_a_name_is_no_answer() -> None:
    # "4-methylbenzoic acid" was read as 4, and a 4 in option C's "4-nitrobenzoic acid" as
    # math equal to it: a false accept of C
    completion = "We compare the substituents.\nThe strongest acid is 4-methylbenzoic acid."
    assert _status("C", completion, ACIDS) == "incorrect"
    assert _status("D", completion, ACIDS) == "correct"


def test_an_option_with_a_unit_is_math() -> None:
    energies = "What is the energy?\nA) 5 MeV.\nB) 2 MeV.\nC) 10 MeV.\nD) 20 MeV."
    completion = "We compute.\nThe closest value is:\n\\[ \\boxed{5 \\text{ MeV}} \\]"
    assert _status("A", completion, energies) == "correct"
    assert _status("B", completion, energies) == "incorrect"


LOADS = (
    "Luke had 59 pieces of clothing. He put 32 of them in one load and the rest into 9 equal "
    "loads. How many pieces of clothing could go in each of the small loads?"
)


@pytest.mark.parametrize(
    ("final", "status"),
    [
        # the question's own "could": a restatement of it around the count
        ("3 pieces of clothing could go in each of the small loads.", "correct"),
        ("27 / 9 = 3 pieces of clothing could go in each of the small loads.", "correct"),
        # a negation or words the question does not have: no restatement
        ("3 pieces of clothing could not go in each of the small loads.", "no_answer"),
        ("Maybe 3 pieces could go in each load.", "no_answer"),
    ],
)
def test_a_statement_that_restates_the_question_around_its_count(final: str, status: str) -> None:
    completion = "We divide what is left among the small loads.\n" + final
    assert _status("3", completion, LOADS) == status
    assert _status("4", completion, LOADS) == ("incorrect" if status == "correct" else status)
