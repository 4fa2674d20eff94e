"""Round 23's classes from sources leash had not seen, each with a wrong twin.

- option labels of other scripts: a Persian exam's ``ب) …`` gold answered ``**ب**`` or
  ``پاسخ: ب``, a Russian ``б)`` answered ``Ответ: б``;
- an option written out whole, label and content: MedMCQA's numbered options (``1. Nasal
  cavity and anterior cranial fossa`` for the gold 1) and a lettered option too long to be
  read as a bare label;
- the copulas of other languages as the anchor of a concluding sentence (Vietnamese ``là``,
  Indonesian ``adalah``, Russian ``равно``), a decimal comma after it (``0,25 s``), and a
  root sign before the last number (``√3 cm``, ``2√10 rad/s``);
- conclusion phrases with a modal ("We can therefore conclude that …", "This means that …");
- a last statement negated as the question is ("Dave did not wash 16 shirts." for "how
  many did he not wash?");
- a Japanese answer in words stated with its verb ending (``増加した`` for ``増加``);
- a one-character subscript with and without braces (``E_{1}`` and ``E_1``: math-verify
  cannot parse a subscripted ``E``);
- arithmetic on plain numbers ending in its result (``51484185 - 65752551 = **-14268366**``,
  ``14,000,000 + 448,000 = 14,448,000``), read as the result;
- delimiter size commands (``\\Bigl( … \\Bigr)``) and an asymptotic relation naming the
  value (``y(x) \\sim 3x + 2``);
- a loop that the token limit cut inside a copy of its last box (``\\boxed{12.5} …
  \\boxed{12``), which is no forced box;
- the triangle Japanese accounts write for a minus (``△15.92%``);
- a chat template's role word glued to the answer (``Answer: 94.0assistant: I'd be happy
  to help …``): the model's next turn, a run-on.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.foreign_options import as_latin_option, latin_label
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.restated_option import numbered_options, restated_option

PERSIAN_GOLD = "ب) سارا در جلسه دیروز نبوده است"
RUSSIAN_GOLD = "б) 12 см"
MEDMCQA = (
    "The cribriform plate connects\n\nAnswer Options:\n1: Nasal cavity and anterior cranial"
    " fossa\n2: Nasal cavity and orbit\n3: Nasal cavity and oral cavity\n4: Anterior cranial"
    " fossa and orbit"
)
LONG_OPTION_B = (
    "C4 plants fix CO2 in the mesophyll but carry out the Calvin cycle in the bundle sheath,"
    " while CAM plants fix CO2 and carry out the Calvin cycle in the mesophyll."
)
MMLU = (
    "Which statement is correct?\n\nAnswer Options:\nA: C4 plants fix CO2 at night.\n"
    f"B: {LONG_OPTION_B}\nC: CAM plants have no Calvin cycle.\nD: None of these."
)
DAVE = (
    "Dave had to wash 9 short sleeve shirts and 27 long sleeve shirts before school. If he had"
    " only washed 20 of them by the time school started, how many did he not wash?"
)
NOT_WASHED = "9 + 27 = 36\n36 - 20 = 16\nTherefore, Dave did not wash 16 shirts.</s>"
ORES_C = (
    "\\mathrm{ZnCO}_{3}, \\mathrm{CuCO}_{3} \\cdot \\mathrm{Cu}(\\mathrm{OH})_{2},"
    " \\mathrm{Fe}_{3} \\mathrm{O}_{4}"
)
ORES = (
    "Which are the ores?\n(A) $\\mathrm{ZnSO}_{4}, \\mathrm{Fe}_{2} \\mathrm{O}_{3}$\n"
    "(B) $\\mathrm{ZnSO}_{4}, \\mathrm{Fe}_{3} \\mathrm{O}_{4}$\n"
    f"(C) ${ORES_C}$\n(D) $\\mathrm{{ZnCO}}_{{3}}, \\mathrm{{Fe}}_{{2}} \\mathrm{{O}}_{{3}}$"
)
GLUED_ROLE = (
    "subtract(5829, 5735)\nAnswer: 94.0assistant: I'd be happy to help you with that! Can you"
    " please provide more context? For example, the answer is 5735."
)
LOOP_CUT_IN_BOX = (
    "</think> \\boxed{12.5} The final answer is \\boxed{12.5}. </boxed>\n\n"
    "The final answer is \\boxed{12.5}. </think> \\boxed{12.5} The final answer is \\boxed{12"
)


@pytest.mark.parametrize(
    ("gold", "completion", "problem", "expected"),
    [
        # option labels of other scripts (a Persian exam's الف ب پ ت, Russian а б в г)
        (PERSIAN_GOLD, "**ب**", None, "correct"),
        (PERSIAN_GOLD, "الف", None, "incorrect"),
        (PERSIAN_GOLD, "پاسخ: ب", None, "correct"),
        (PERSIAN_GOLD, "پاسخ: پ", None, "incorrect"),
        (PERSIAN_GOLD, PERSIAN_GOLD, None, "correct"),
        (PERSIAN_GOLD, "پ) هر کس کتاب را نخوانده است", None, "incorrect"),
        ("الف) آرش کارمند جدید نیست", "الف", None, "correct"),
        ("الف) آرش کارمند جدید نیست", "ت", None, "incorrect"),
        ("ب) مریم پزشک نیست", "ب\n\n**توضیح:** پس مریم نمی‌تواند پزشک باشد.", None, "correct"),
        ("ب) مریم پزشک نیست", "الف\n\n**توضیح:** پس مریم پزشک است.", None, "incorrect"),
        ("ب) یک", "# حل مسئله\n6 - 5 = **1 نفر**\n\n**ب**", None, "correct"),
        ("ب) یک", "# حل مسئله\n6 - 4 = **2 نفر**\n\n**پ**", None, "incorrect"),
        (RUSSIAN_GOLD, "Ответ: б", None, "correct"),
        (RUSSIAN_GOLD, "Ответ: в", None, "incorrect"),
        # an option written out whole: numbered (MedMCQA), or lettered with a long content
        ("1", "1. Nasal cavity and anterior cranial fossa", MEDMCQA, "correct"),
        ("2", "1. Nasal cavity and anterior cranial fossa", MEDMCQA, "incorrect"),
        ("3", "3: Nasal cavity and oral cavity", MEDMCQA, "correct"),
        ("4", "3: Nasal cavity and oral cavity", MEDMCQA, "incorrect"),
        ("B", f"B. {LONG_OPTION_B}", MMLU, "correct"),
        ("A", f"B. {LONG_OPTION_B}", MMLU, "incorrect"),
        # other languages' copulas anchor the concluding sentence's value
        ("\\sqrt{3}", "Vậy, li độ của vật tại t = 1 s là √3 cm", None, "correct"),
        ("1", "Vậy, li độ của vật tại t = 1 s là √3 cm", None, "incorrect"),
        ("12", "Jadi, jumlah apel untuk n = 3 adalah 12.", None, "correct"),
        ("3", "Jadi, jumlah apel untuk n = 3 adalah 12.", None, "incorrect"),
        ("7", "Следовательно, при x = 2 значение равно 7.", None, "correct"),
        ("2", "Следовательно, при x = 2 значение равно 7.", None, "incorrect"),
        ("0.25", "Vậy khoảng thời gian cần tìm là 0,25 s.", None, "correct"),
        ("25", "Vậy khoảng thời gian cần tìm là 0,25 s.", None, "incorrect"),
        # a root sign before the last number, with its coefficient
        ("2\\sqrt{10}", "ω^2 = 40 => ω = √40 = 2√10 rad/s", None, "correct"),
        ("10", "ω^2 = 40 => ω = √40 = 2√10 rad/s", None, "incorrect"),
        ("6\\pi\\sqrt{3}", "Tốc độ là độ lớn của vận tốc:\n|v| = 6π√3 cm/s", None, "correct"),
        ("3", "Tốc độ là độ lớn của vận tốc:\n|v| = 6π√3 cm/s", None, "incorrect"),
        # conclusion phrases with a modal or a pointer
        (
            "27",
            "81/3 = 27\nWe can conclude that Melissa scored 27 points in each game.",
            None,
            "correct",
        ),
        (
            "81",
            "81/3 = 27\nWe can conclude that Melissa scored 27 points in each game.",
            None,
            "incorrect",
        ),
        (
            "26",
            "57 - 31 = 26.\nWe can therefore conclude that Jason earned 26 dollars.",
            None,
            "correct",
        ),
        (
            "31",
            "57 - 31 = 26.\nWe can therefore conclude that Jason earned 26 dollars.",
            None,
            "incorrect",
        ),
        ("5", "We divide 70 by 14. This means that each package has 5 shirts.", None, "correct"),
        ("14", "We divide 70 by 14. This means that each package has 5 shirts.", None, "incorrect"),
        # a Japanese answer in words with its verb ending; a negative ending is another answer
        ("増加", "総資産は増加した。\n\nAnswer: 増加した", None, "correct"),
        ("増加", "総資産は減少した。\n\nAnswer: 減少した", None, "incorrect"),
        ("増加", "Answer: 増加しなかった", None, "incorrect"),
        ("改善", "営業利益率は改善しました。\n\nAnswer: 改善。", None, "correct"),
        ("改善", "営業利益率は悪化しました。\n\nAnswer: 悪化。", None, "incorrect"),
        # a one-character subscript with and without braces
        (
            "\\frac{1}{3} E_{1}+\\frac{2}{3} E_{2}",
            "So the energy is $\\boxed{\\frac{1}{3} E_1 + \\frac{2}{3} E_2}$.",
            None,
            "correct",
        ),
        (
            "\\frac{1}{3} E_{1}+\\frac{2}{3} E_{2}",
            "So the energy is $\\boxed{\\frac{2}{3} E_1 + \\frac{1}{3} E_2}$.",
            None,
            "incorrect",
        ),
        ("E_{1},E_{2}", "The levels are $\\boxed{E_1 \\text{ and } E_2}$.", None, "correct"),
        ("E_{1},E_{3}", "The levels are $\\boxed{E_1 \\text{ and } E_2}$.", None, "incorrect"),
        # a last statement negated as the question is: the negation is the question's
        ("16", NOT_WASHED, DAVE, "correct"),
        ("20", NOT_WASHED, DAVE, "incorrect"),
        (
            "7",
            "So Sam does not have 7 socks.",
            "Sam had 10 socks. How many does he have?",
            "no_answer",
        ),
        # the triangle of Japanese accounts is a minus sign before a number, not before letters
        ("-15.9%", "当期純利益率 = △15.92%\n\nAnswer: △15.9%", None, "correct"),
        ("15.9%", "当期純利益率 = △15.92%\n\nAnswer: △15.9%", None, "incorrect"),
        ("-85,267", "194,970 - 280,237 = △85,267\n\nAnswer: △85,267", None, "correct"),
        ("85,267", "194,970 - 280,237 = △85,267\n\nAnswer: △85,267", None, "incorrect"),
        ("30^\\circ", "In △ABC, the angle at A is 30°.", None, "correct"),
        # arithmetic on plain numbers ending in its result, bold or with thousands commas
        ("-14268366", "51484185 - 65752551 = **-14268366**", None, "correct"),
        ("-14268365", "51484185 - 65752551 = **-14268366**", None, "incorrect"),
        (
            "14448602",
            "So the answer is 14,000,000 + 448,000 + 600 + 2 = 14,448,602",
            None,
            "correct",
        ),
        (
            "14448601",
            "So the answer is 14,000,000 + 448,000 + 600 + 2 = 14,448,602",
            None,
            "incorrect",
        ),
        # delimiter size commands, and an asymptotic relation naming the value
        (
            "y(x) \\approx 3x + 2 \\exp\\left(-\\frac{x^3}{3\\epsilon}\\right)",
            "$$\\boxed{3\\,x + 2\\,\\exp\\!\\Bigl(-\\tfrac{x^{3}}{3\\,\\epsilon}\\Bigr)}$$",
            None,
            "correct",
        ),
        (
            "y(x) \\approx 3x + 2 \\exp\\left(-\\frac{x^3}{3\\epsilon}\\right)",
            "$$\\boxed{3\\,x + 2\\,\\exp\\!\\Bigl(-\\tfrac{x^{3}}{2\\,\\epsilon}\\Bigr)}$$",
            None,
            "incorrect",
        ),
        ("y = 3x+2", "So $\\boxed{y(x)\\sim 3x+2}$.", None, "correct"),
        ("y = 3x+2", "So $\\boxed{y(x)\\sim 3x+1}$.", None, "incorrect"),
        ("\\{1,2\\}", "So $\\boxed{\\bigl\\{1,2\\bigr\\}}$.", None, "correct"),
        ("\\{1,3\\}", "So $\\boxed{\\bigl\\{1,2\\bigr\\}}$.", None, "incorrect"),
        # a gold that is an option with a long content, the completion that option written out
        (f"(B) {LONG_OPTION_B}", f"(B) {LONG_OPTION_B}", MMLU, "correct"),
        (f"(B) {LONG_OPTION_B}", "(A) C4 plants fix CO2 at night.", MMLU, "incorrect"),
        # an option's content with braced subscripts, stated as the answer: still option C
        ("C", f"لذا، الخيار الصحيح هو (C) ${ORES_C}$.", ORES, "correct"),
        ("A", f"لذا، الخيار الصحيح هو (C) ${ORES_C}$.", ORES, "incorrect"),
        # a loop cut inside a copy of its last box; a harness's forced box still reads
        ("12.5", LOOP_CUT_IN_BOX, None, "correct"),
        ("12", LOOP_CUT_IN_BOX, None, "incorrect"),
        # a chat template's role word glued to the answer, the end-of-turn token decoded away
        ("94.0", GLUED_ROLE, None, "correct"),
        ("5735", GLUED_ROLE, None, "incorrect"),
        ("260", "240+20=\nTherefore, the answer is \\(\\boxed{260", None, "correct"),
        ("26", "240+20=\nTherefore, the answer is \\(\\boxed{260", None, "incorrect"),
    ],
)
def test_round_23_classes(gold: str, completion: str, problem: str | None, expected: str) -> None:
    assert grade_completion(gold, completion, problem=problem).status == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**ب**", ("B", "")),
        ("(б)", ("B", "")),
        ("الف", ("A", "")),
        ("پ) چیز دیگر", ("C", "چیز دیگر")),
        ("هـ) پنجم", ("E", "پنجم")),
        ("ウ", ("C", "")),
        # a word that starts with a label's letter is no label
        ("بله", None),
        ("پاسخ", None),
        ("アイ", None),
        ("B", None),
    ],
)
def test_a_label_of_another_script_is_read_only_where_it_stands_as_a_label(
    text: str, expected: tuple[str, str] | None
) -> None:
    assert as_latin_option(text) == expected


def test_a_label_shared_by_two_scripts_has_one_place():
    # ب is the second option in the Persian and in the Arabic sequence
    assert latin_label("ب") == "B"
    assert latin_label("ج") == "C"  # Arabic abjad order: أ ب ج د
    assert latin_label("x") is None


def test_numbered_options_are_the_last_run_from_one():
    options = numbered_options("Steps:\n1. read\n2. think\n\nOptions:\n1: red\n2: blue\n3: green")
    assert options == (("1", "red"), ("2", "blue"), ("3", "green"))
    assert numbered_options("1: only one") == ()
    assert numbered_options(None) == ()


def test_a_written_out_option_must_be_the_questions_option_word_for_word():
    options = numbered_options(MEDMCQA)
    assert restated_option("2: Nasal cavity and orbit.", (), options) == "2"
    # option 1's label with option 2's content: which is meant cannot be told
    assert restated_option("1: Nasal cavity and orbit", (), options) is None
    # a first line before reasons may be an option weighed, not chosen
    assert restated_option("2: Nasal cavity and orbit\nNo, it is 1.", (), options) is None
