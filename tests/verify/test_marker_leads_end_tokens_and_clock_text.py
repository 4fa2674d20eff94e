"""Round 15's classes, each with its wrong twin: the words between an answer marker and its
colon in other languages (the answer on the next line), a marker written as text inside
display math, dots as thousands separators, a model's own stated result after an
expression, thinking closed in other templates' spellings and end tokens after the last
sentence, and a time of day written whole as text."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.unfinished_thinking import cut_off_thinking

MARKER_LEADS = [
    "Calculons : 40 + 40 = {v}.\n\nLa réponse finale est donc :\n{v}",
    "Entonces 200 + 50 = {v}.\n\nLa respuesta final es:\n{v}",
    "Also 3 + 3 = {v}.\n\nDie Antwort ist also:\n{v}",
    "Also 3 + 3 = {v}.\n\nDie Antwort lautet:\n\n{v}",
    "৮০ + ৩ = {v}\n\nঅতএব, উত্তর হলো:\n\n{v}",
    "Quindi 5 + 7 = {v}.\n\nLa risposta finale è quindi:\n{v}\n\nVerifica: 5 + 8 = 13",
    "Donc 5 + 7 = {v}.\n\nRéponse finale :\n\n{v}",
]


@pytest.mark.parametrize("template", MARKER_LEADS)
def test_the_words_between_the_marker_and_its_colon_lead_to_the_answer(template):
    # the answer is the value after the colon (the next line), not the marker's words; the
    # reasoning above states the gold, so only the stated final decides
    right = grade_completion("80", template.format(v="80").replace("{v}", "80"))
    assert (right.status, right.answer) == ("correct", "80")
    stated_wrong = template.format(v="80").rsplit("80", 1)
    wrong = grade_completion("80", "81".join(stated_wrong))
    assert (wrong.status, wrong.answer) == ("incorrect", "81")


def test_a_verb_that_holds_the_german_word_for_answer_is_no_marker():
    verdict = grade_completion("12", "Er beantwortet 5 Fragen.\nEr antwortet 12 Mal.")
    assert "antwortet" not in (verdict.answer or "")


@pytest.mark.parametrize(
    "text",
    [
        r"Somit \[ \text{Antwort: } {v} \]",
        r"$$\text{Antwort: } {v}$$",
        r"\[\text{Final answer: } {v}\]",
    ],
)
def test_a_marker_written_as_text_inside_display_math_states_the_math_after_it(text):
    assert grade_completion("15", text.replace("{v}", "15")).status == "correct"
    wrong = grade_completion("15", text.replace("{v}", "16"))
    assert (wrong.status, wrong.answer) == ("incorrect", "16")


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("70000", "70.000", "correct"),  # German, Spanish …: a dot separates thousands
        ("1234567", "1.234.567", "correct"),
        ("7", "70.000", "incorrect"),
        ("71000", "70.000", "incorrect"),
        ("2", "2.000", "correct"),  # three decimals of two stay two
        # the answer's convention is German's whatever the gold's: real German completions
        # write "2.125" and "276.000 $" for the golds 2,125 and 276,000
        ("2,125", "2.125", "correct"),
        ("276,000", "276.000 $", "correct"),
        ("57500", "$57.500", "correct"),
        ("1,000", "1", "incorrect"),
        ("0,111", "0.111", "correct"),  # no thousands group starts with 0
    ],
)
def test_dots_as_thousands_separators_against_an_integer_gold(gold, answer, status):
    assert grade_completion(gold, f"Die Antwort lautet: {answer}").status == status


@pytest.mark.parametrize(("gold", "status"), [("40.54", "correct"), ("38.89", "incorrect")])
def test_the_value_a_model_says_its_expression_comes_to_is_its_answer(gold, status):
    # 35 / 90 * 100 is 38.89, but the model stated 40.54: its answer is what it stated
    text = "Therefore, the answer is 35 / (35 + 55) * 100, which equals 40.54%."
    verdict = grade_completion(gold, text)
    assert (verdict.status, verdict.answer) == (status, "40.54%")
    assert grade_completion("12", "So the answer is 3 * 4, which gives 13.").status == "incorrect"
    assert grade_completion("12", "So the answer is 3 * 4, which gives 12.").status == "correct"


SKY_T1 = (
    "<|begin_of_thought|>\n\nOkay, so 2 + 3. Wait, let me check. Hmm, 2 + 3 = 5. Wait, yes."
    "\n\n<|end_of_thought|>\n\n<|begin_of_solution|>\n\nThe sum is $\\boxed{5}$.\n\n"
    "<|end_of_solution|>"
)


def test_sky_t1_thinking_closed_in_its_own_spelling_and_an_end_token_is_answered():
    assert not cut_off_thinking(SKY_T1)
    assert grade_completion("5", SKY_T1).status == "correct"
    assert grade_completion("5", SKY_T1.replace("boxed{5}", "boxed{6}")).status == "incorrect"
    assert not cut_off_thinking("So it is \\boxed{5}.<|im_end|><|endoftext|>")


@pytest.mark.parametrize(
    "opened",
    ["<|begin_of_thought|>", "<thinking>", "◁think▷", "[THINK]", "<seed:think>", "<think>"],
)
def test_thinking_cut_in_any_template_spelling_states_no_answer(opened):
    cut = f"{opened}\nOkay, 2 + 3. Maybe \\boxed{{5}}. Wait, let me reconsider the"
    assert cut_off_thinking(cut)
    assert grade_completion("5", cut).status == "no_answer"
    # an end token after a sentence cut in the middle does not make it a finished answer
    assert grade_completion("5", cut + "<|endoftext|>").status == "no_answer"


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        (r"\text{4:30 p.m.}", r"4:30 \text{ p.m.}", "correct"),
        (r"\text{4:30 p.m.}", "16:30", "correct"),
        (r"\text{4:30 p.m.}", r"5:30 \text{ p.m.}", "incorrect"),
        (r"\text{4:30 p.m.}", "4:30 a.m.", "incorrect"),
        ("4:30 p.m.", r"\text{4:30 p.m.}", "correct"),
        ("4:30 p.m.", r"\text{4:30 a.m.}", "incorrect"),
    ],
)
def test_a_time_of_day_written_whole_as_text(gold, answer, status):
    assert grade_completion(gold, f"They meet at \\boxed{{{answer}}}.").status == status


ROD = "How long is the rod?\nChoices:\n(A) 20 cm\n(B) 40 cm\n(C) 50 cm\n(D) 60 cm\n(E) 80 cm"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("So the rod is 60 cm long. \\boxed{60}", "correct"),
        ("So the rod is \\boxed{60 \\text{ cm}}", "correct"),
        ("So the rod is 50 cm long. \\boxed{50}", "incorrect"),
    ],
)
def test_an_option_s_value_with_its_unit_aside_names_its_letter(text, status):
    assert grade_completion("D", text, problem=ROD).status == status


def test_a_value_two_options_share_in_different_units_names_no_letter():
    two = "Choices:\n(A) 60 cm\n(B) 60 m\n(C) 50 cm"
    assert grade_completion("B", "So \\boxed{60}", problem=two).status == "incorrect"
    assert grade_completion("A", "So \\boxed{60}", problem=two).status == "incorrect"


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("np.arcsin(10/13)", r"\arcsin\left(\frac{10}{13}\right)", "correct"),
        ("np.arcsin(10/13)", r"\arcsin\left(\frac{1}{1.3}\right)", "correct"),
        ("np.arcsin(10/13)", r"\arcsin\left(\frac{9}{13}\right)", "incorrect"),
        ("math.sqrt(2)/2", r"\frac{\sqrt{2}}{2}", "correct"),
        ("2*math.pi", r"2\pi", "correct"),
        ("2*math.pi", r"\pi", "incorrect"),
    ],
)
def test_a_gold_written_with_a_python_module_prefix(gold, answer, status):
    assert grade_completion(gold, f"So it is \\boxed{{{answer}}}.").status == status


@pytest.mark.parametrize(
    "closing",
    [
        "I think that's the answer.",
        "I think that's the correct answer.",
        "I think that's the final answer.",
        "I think I'm confident with this answer.",
        "That looks good.\n\nI think that's it.",
    ],
)
def test_a_verdict_on_the_answer_just_stated_states_none(closing):
    # Sky-T1's traces close so: the statement before it is the answer (was no_answer)
    text = "Therefore, the number of different combinations is indeed {v}.\n\n" + closing
    assert grade_completion("90", text.format(v=90)).status == "correct"
    assert grade_completion("90", text.format(v=91)).status == "incorrect"


def test_a_token_cut_as_the_decoder_stopped_is_no_unfinished_thought():
    thought = "<|begin_of_thought|>\nOkay. Wait, hmm. Alternatively, hmm.\n"
    done = thought + "So it is \\(-\\dfrac{35}{9}\\).\n\n\\[ \\boxed{-\\dfrac{35}{9}} \\] \n<"
    assert not cut_off_thinking(done)
    assert grade_completion(r"-\frac{35}{9}", done).status == "correct"
    assert cut_off_thinking(thought + "Maybe \\boxed{5}. Wait, let me reconsider the\n<|end")
    assert cut_off_thinking(thought + "So x < 5 and y <")


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("700", "700°C", "correct"),
        ("700", r"700^\circ C", "correct"),
        ("700", "710°C", "incorrect"),
        (r"700^\circ \text{C}", "700 °C", "correct"),
        (r"700^\circ \text{C}", "700 °F", "incorrect"),
        ("30^\\circ", "30°", "correct"),
        ("x^2", "x²", "correct"),
        ("x^2", "x³", "incorrect"),
        ("x^{12}", "x¹²", "correct"),
        ("0.006", r"6 \times 10^{-3} \text{ m/s²}", "correct"),  # was read as words
        ("0.006", r"7 \times 10^{-3} \text{ m/s²}", "incorrect"),
    ],
)
def test_temperatures_and_unicode_superscripts(gold, answer, status):
    assert grade_completion(gold, f"So it is \\boxed{{{answer}}}.").status == status


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("The quantity is 3 bushels.\n\n**Final answer for Subproblem 1:** 3 bushels", "correct"),
        ("The quantity is 3 bushels.\n\n**Final answer for Subproblem 1:** 4 bushels", "incorrect"),
        ("We get 4.\n\nFinal answer to part (a): 3", "correct"),
        ("We get 3.\n\nThe answer to the question: 4", "incorrect"),
    ],
)
def test_an_answer_label_that_names_what_it_answers(text, status):
    assert grade_completion("3", text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        (r"\frac{2}{\sqrt{\pi}}", r"\frac{2}{\sqrt{\pi}}$", "correct"),  # prompt ended in "$"
        (r"\frac{2}{\sqrt{\pi}}", r"\frac{2}{\sqrt{3}}$", "incorrect"),
        ("5", "So $x = 5$", "correct"),
    ],
)
def test_a_closing_dollar_that_pairs_with_none_is_debris(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        (
            r"\frac{1}{4-\omega^{2}}",
            r"A = \frac{1}{4 - \omega^2}, \quad \text{for } \omega^2 \neq 4",
            "correct",
        ),
        (
            r"\frac{1}{4-\omega^{2}}",
            r"\frac{1}{4 - \omega^2} \text{ for } \omega \neq 2",
            "correct",
        ),
        (
            r"\frac{1}{4-\omega^{2}}",
            r"\frac{1}{5 - \omega^2} \text{ for } \omega \neq 2",
            "incorrect",
        ),
        ("x^2", r"x^2 \text{ for } x = 3", "incorrect"),  # a value given, no condition
        ("SRMC=LRMC", r"\text{SRMC} = \text{LRMC}", "correct"),
        ("SRMC=LRMC", r"\text{SRMC} = \text{SRAC}", "incorrect"),
    ],
)
def test_a_condition_after_the_answer_and_names_written_in_text(gold, answer, status):
    assert grade_completion(gold, f"So \\boxed{{{answer}}}.").status == status
