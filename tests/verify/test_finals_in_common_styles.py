"""Final answers in styles chat models write that leash used to find no answer in.

Each class was found by probing common answer styles against the verifier: closing marks
(emoji, check marks, QED), an answer named first ("25 is the answer."), a value with a
remark or in quotes, a computation in display math or an ``aligned`` environment that ends
the completion, an equal restatement ("0.75, or $\\frac34$ as a fraction"), and choice
letters written alone, after a conclusion word, as "option B" or in lowercase. Each
positive case has its off-by-one twin, which must stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.end_tokens import with_output_fences
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.sign_off import without_sign_off

WORK = "Let me think. First we have 3 apples and 7 more, then 10 pairs and 4 left over.\n\n"
APPLES = "How many apples does she have?"

VALUE_ENDINGS = [
    "**Final answer:** {v} ✅",
    "She has {v} apples. 🍎",
    "Therefore {v}. QED",
    "The answer is {v}. $\\blacksquare$",
    "Answer: {v} ✅\n\nI hope this helps! 😊",
    "{v} is the answer.",
    "So, ${v}$ is the answer.",
    "{v} apples would be the answer.",
    "Answer: {v} (rounded to the nearest whole number)",
    'Answer: "{v}"',
    "Answer: `{v}`",
    "$$\\begin{{aligned}} t &= 10 + 15 \\\\ &= {v} \\end{{aligned}}$$",
    "\\[\n\\begin{{align*}}\nt &= 10 + 15 \\\\\n&= {v}\n\\end{{align*}}\n\\]",
    "\\[ 10 + 15 = {v} \\]",
    "\\[ \\text{{Apples}} = 10 + 15 = {v} \\]",
]


@pytest.mark.parametrize("ending", VALUE_ENDINGS)
def test_a_stated_value_is_found_and_judged(ending: str) -> None:
    right = grade_completion("25", WORK + ending.format(v=25), problem=APPLES)
    wrong = grade_completion("25", WORK + ending.format(v=26), problem=APPLES)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


@pytest.mark.parametrize(
    "ending",
    [
        "Here is the answer.",
        "The number of apples is the answer.",
        "Let's verify:\n\\[ 25 - 15 = 10 \\]",
        "\\[ x^2 - 5x + 6 = 0 \\]",
        "\\[ 2x + 3 = 13 \\]",
        "Answer: 25 (or 26 if we count the core)",
    ],
)
def test_what_states_no_value_stays_no_answer(ending: str) -> None:
    """A pointer to an answer, a check, an equation to solve, a hedge in a remark."""
    graded = grade_completion("10", WORK + ending, problem=APPLES)
    assert graded.status == "no_answer", graded


def test_closing_marks_go_but_what_is_not_a_mark_stays() -> None:
    assert without_sign_off("x = 25 ✔️") == "x = 25"
    assert without_sign_off("A: 25 👍🏽") == "A: 25"
    assert without_sign_off("so 25.  \\(\\blacksquare\\)") == "so 25."
    for kept in ("$3+\\square$", "Answer: ○", "25 QEDx", "Answer ⟶ 25", "✅"):
        assert without_sign_off(kept) == kept


@pytest.mark.parametrize(
    ("ending", "gold", "status"),
    [
        ("The answer is 0.75, or $\\frac{3}{4}$ as a fraction.", "\\frac34", "correct"),
        ("The answer is 0.75, or $\\frac{2}{3}$ as a fraction.", "\\frac34", "incorrect"),
        ("So the probability is $\\frac{1}{2}$, or 50%.", "\\frac12", "correct"),
        ("The answer is $3$ or $-3$.", "3", "incorrect"),
        ("The answer is 25, or 26 if we count the core.", "25", "incorrect"),
    ],
)
def test_an_equal_restatement_is_one_value_and_a_hedge_is_wrong(
    ending: str, gold: str, status: str
) -> None:
    assert grade_completion(gold, WORK + ending, problem="What is it?").status == status


CHOICE_PROBLEM = "Which is largest?\n(A) 2\n(B) 5\n(C) 3\n(D) 1"
CHOICE_WORK = "Comparing the options, 5 is bigger than 3, 2 and 1.\n\n"


@pytest.mark.parametrize(
    "ending",
    [
        "**B**",
        "B",
        "Hence, (B).",
        "5 is the largest. So B.",
        "The correct answer is option B.",
        "The answer is option (B).",
        "I would choose B.",
        "Correct answer: B",
        "Answer choice: B",
        "My answer is B.",
        "Answer: [B]",
        "the answer is b",
        "Option B is the answer.",
    ],
)
def test_a_choice_letter_is_found_however_it_is_written(ending: str) -> None:
    right = grade_completion("B", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    wrong = grade_completion("C", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


@pytest.mark.parametrize(
    "ending", ["This answer is correct.", "My answer is correct.", "Our answer is consistent."]
)
def test_a_verdict_on_an_answer_states_none(ending: str) -> None:
    graded = grade_completion("B", CHOICE_WORK + ending, problem=CHOICE_PROBLEM)
    assert graded.status == "no_answer", graded


@pytest.mark.parametrize(
    ("ending", "gold", "status"),
    [
        # a scale word multiplies ("1 million" was read as 1, a wrong reading)
        ("The answer is 1 million.", "1000000", "correct"),
        ("The answer is 2 million.", "1000000", "incorrect"),
        ("The answer is 1 million.", "1", "incorrect"),
        # a mixed number is its sum, not a product
        ("The answer is 3 1/2", "\\frac{7}{2}", "correct"),
        ("The answer is 3 1/3", "\\frac{7}{2}", "incorrect"),
        # a ratio or a time of day in a closing sentence is one value
        ("The ratio of boys to girls is 12:5.", "12:5", "correct"),
        ("The ratio of boys to girls is 12:5.", "12", "incorrect"),
        ("The time is 3:30 PM.", "3:30", "correct"),
        ("The time is 4:30 PM.", "3:30", "incorrect"),
    ],
)
def test_numbers_written_with_words_or_colons_are_one_value(
    ending: str, gold: str, status: str
) -> None:
    assert grade_completion(gold, WORK + ending, problem="What is it?").status == status


@pytest.mark.parametrize(
    ("work", "ending"),
    [
        ("তার কাছে 3টি আপেল আছে এবং সে 22টি পায়।", "সুতরাং, তার কাছে {v}টি আপেল আছে।"),
        ("3 + 22 = 25", "答え：{v}個"),
        ("3 + 22 = 25", "Ответ: {v} яблок"),
        ("У неё 3 яблока, она получает 22.", "Таким образом, у неё {v} яблок."),
        ("Ana maapulo 3 na anapokea 22.", "Kwa hiyo, ana maapulo {v}."),
    ],
)
def test_a_closing_sentence_in_another_language_states_its_number(work: str, ending: str) -> None:
    """A number with a counter or a noun in another script, a danda closing the sentence."""
    right = grade_completion("25", work + "\n\n" + ending.format(v=25), problem=APPLES)
    wrong = grade_completion("25", work + "\n\n" + ending.format(v=26), problem=APPLES)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


MATHCODER_HEAD = (
    "<|text|>Let's solve with sympy.<|endofblock|><|code|>```python\nfrom sympy import *\n"
    "x = symbols('x')\nprint(solve(x**2 - 2, x))\n```<|endofblock|>"
)


@pytest.mark.parametrize(
    ("ending", "gold", "twin"),
    [
        ("<|execution|>sqrt(2)/2<|endofblock|><|endofmessage|>", "\\frac{\\sqrt2}{2}", "\\sqrt2"),
        ("<|execution|>x**2 + 1<|endofblock|><|endofmessage|>", "x^2+1", "x^2-1"),
        (
            "<|execution|>12<|endofblock|><|text|>12 apples are left.<|endofblock|>"
            "<|endofmessage|>",
            "12",
            "13",
        ),
        (
            "<|execution|>0.7071<|endofblock|><|text|>The value is $\\frac{\\sqrt{2}}{2}$, which is"
            " approximately 0.707.<|endofblock|><|endofmessage|>",
            "\\frac{\\sqrt2}{2}",
            "0.707",
        ),
    ],
)
def test_a_mathcoder_transcript_is_read_like_a_tool_transcript(
    ending: str, gold: str, twin: str
) -> None:
    """An output block that ends the transcript is its result; a closing sentence that
    starts with its number, or restates its value approximately, states that value."""
    right = grade_completion(gold, MATHCODER_HEAD + ending, problem="What is it?")
    wrong = grade_completion(twin, MATHCODER_HEAD + ending, problem="What is it?")
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


def test_an_unclosed_output_block_is_read_to_the_next_one() -> None:
    """A transcript cut off inside an output block, or with one never closed, loses nothing
    else: the blocks are rewritten in one linear scan."""
    text = "<|execution|>1<|execution|>2<|endofblock|>tail"
    assert with_output_fences(text) == "\n```output\n1\n```\n\n```output\n2\n```\ntail"
    assert with_output_fences("<|execution|>" * 20_000).count("```output") == 20_000


@pytest.mark.parametrize(
    ("ending", "gold"),
    [
        # mined (TheoremQA): the approximation is the value, not a restatement of 0.1
        ("Therefore, the capacity of a 0.1 unit area film is approximately 4.64 bits.", "4.64"),
        ("The probability is $\\frac{1}{3}$ (about 0.333).", "\\frac13"),
        ("So x is $\\sqrt{2}$ ≈ 1.414.", "\\sqrt2"),
        ("It takes about 5 minutes.", "5"),
    ],
)
def test_an_approximation_restates_only_a_value_it_follows(ending: str, gold: str) -> None:
    assert grade_completion(gold, WORK + ending, problem="What is it?").status == "correct"


@pytest.mark.parametrize(
    ("ending", "gold", "twin"),
    [
        ("The answer is 12.\n\nWould you like me to explain any step in more detail?", "12", "13"),
        (
            "So the nail is **2 inches** long.\n\nDo you want to measure it in centimeters?",
            "2",
            "3",
        ),
        ("BF = 16/4 = **4**\n\nTherefore, the value of BF is **(B).**", "B", "A"),
        ("**Thus she has 12 apples.**", "12", "13"),
    ],
)
def test_a_courtesy_question_or_bold_around_the_period_hides_nothing(
    ending: str, gold: str, twin: str
) -> None:
    problem = "How long? (A) 3 (B) 4"
    right = grade_completion(gold, WORK + ending, problem=problem)
    wrong = grade_completion(twin, WORK + ending, problem=problem)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)


TOOL_RUN = "```python\nprint(answer())\n```\n```output\n{out}\n```\n"


@pytest.mark.parametrize(
    ("out", "gold", "twin"),
    [
        ("Yes", "Yes", "No"),
        ("No", "No", "Yes"),
        ("odd", "odd", "even"),
        ("(A) Yes", "Yes", "No"),
        ("True", "True", "False"),
    ],
)
def test_a_tool_output_in_words_is_read_by_the_gold(out: str, gold: str, twin: str) -> None:
    """Mined (MathVista's program-of-thought outputs): a closing output of words was no
    answer (79 ``Yes``, 94 choice words in one file); ``No`` was read only as the math N*o."""
    problem = "Is the bar taller? Choices: (A) Yes (B) No"
    text = TOOL_RUN.format(out=out)
    right = grade_completion(gold, text, problem=problem)
    wrong = grade_completion(twin, text, problem=problem)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)
    mathcoder = f"<|code|>print(answer())<|endofblock|><|execution|>{out}<|endofblock|>"
    assert grade_completion(gold, mathcoder, problem=problem).status == "correct"


@pytest.mark.parametrize(
    ("closing", "gold"),
    [
        # mined (ToRA's GSM8K outputs): a closing sentence that opens with its count
        ("Four containers were imported on the second day.", "4"),
        ("5 cars drove through the traffic jam in the first 15 minutes.", "5"),
        ("Three trucks will be needed to transport 80 flagstones.", "3"),
        ("Two people accept the position.", "2"),
        ("20 guests did not get a second hotdog.", "20"),
    ],
)
def test_a_closing_sentence_that_opens_with_its_count_states_it(closing: str, gold: str) -> None:
    text = TOOL_RUN.format(out=gold) + closing
    assert grade_completion(gold, text).status == "correct"
    assert grade_completion(str(int(gold) + 1), text).status == "incorrect"


@pytest.mark.parametrize(
    ("closing", "gold", "status"),
    [
        ("2 apples plus 5 apples make 7 apples.", "7", "correct"),  # a sum: its result
        ("One of the boxes holds 5 pens.", "5", "correct"),  # "one of": no count
        ("3 is not the answer.", "3", "no_answer"),
    ],
)
def test_an_opening_number_that_is_no_count_is_not_read(
    closing: str, gold: str, status: str
) -> None:
    assert grade_completion(gold, TOOL_RUN.format(out=5) + closing).status == status


def test_the_answer_on_the_line_after_the_answer_is() -> None:
    problem = "Is the bar taller? Choices: (A) Yes (B) No"
    text = WORK + "The answer is:\nA) Yes"
    assert grade_completion("Yes", text, problem=problem).status == "correct"
    assert grade_completion("No", text, problem=problem).status == "incorrect"


@pytest.mark.parametrize(
    "closing",
    [
        "Therefore, there are {v} potential maskers in Fig. Q1a.",  # mined (MathVista, Bard)
        "So the total is {v} vs. 10 before.",
        "Thus the count is {v} (cf. Eq. 3).",
    ],
)
def test_an_abbreviation_ends_no_sentence(closing: str) -> None:
    right = grade_completion("12", WORK + closing.format(v=12), problem=APPLES)
    wrong = grade_completion("12", WORK + closing.format(v=13), problem=APPLES)
    assert (right.status, wrong.status) == ("correct", "incorrect"), (right, wrong)
