"""Round 16, first part, from sources no earlier round read (Mr-Ben's step-by-step solutions,
MaScQA's materials-science answers, LLMDrift's prime checks): an option letter that a last
line labels in words of its own (``Solution: Choice_B``) or joins to its option word
(``Choice_B``, ``Choice\\_B``), "the solution is Choice D"; an answer in square brackets as a
prompt's template asks (``Answer: [44.9%]``, ``Answer: [A] Calendering``), a Python dict's
answer (``{'answer': [158]}``), the answer line's value as a list item on the next line; and
prefixed SI units compared as written when the option holds the value (``115 MPa``); each
with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

OPTIONS = "Which is the shortest distance?\nA. 4\nB. 8\nC. 2\nD. 16"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Step 6: Of the choices, 8 is the least.\nSolution: Choice_B", "correct"),
        ("Step 6: Of the choices, 4 is the least.\nSolution: Choice_A", "incorrect"),
        ("Step 6: It is 8.\nSolution: Choice\\_B", "correct"),  # escaped Markdown
        ("Step 6: It is 8.\nSolution: Choice_B - eight", "correct"),
        ("Step 6: It is 8.\nSolution: Choice_A (4)", "incorrect"),
        ("Step 9: It is 8.\nStep 10: Solution: Choice_B", "correct"),
        ("Step 7: Therefore, the solution is Choice_B.", "correct"),
        ("Step 7: Therefore, the correct solution is Choice_C: 2.", "incorrect"),
        ("It is 8.\nSelected option: (B)", "correct"),
        ("It is 8.\nFinal choice: D", "incorrect"),
        ("It is 8.\nAnswer: Choice_B", "correct"),  # was read as the letter C of "Choice"
        ("It is 8.\nAnswer: option_B", "correct"),
        ("It is 8.\nAnswer: option (B)", "correct"),
        ("It is 8.\nAnswer: Choice B (8)", "correct"),
        ("It is 8.\nAnswer: Choice C (2)", "incorrect"),
    ],
)
def test_an_option_labelled_on_the_last_line(text, status):
    assert grade_completion("B", text, problem=OPTIONS).status == status


@pytest.mark.parametrize(
    "text",
    [
        "Both fit.\nSolution: Choice_A or Choice_B",
        "Both fit.\nSolution: Choice_A/B/C",
        "Both fit.\nSolution: Choice_B, Choice_C",
        "Both fit.\nThe solution is B or C.",
        "Step 3: If the solution is B, we check it next.",
    ],
)
def test_a_label_offering_several_options_or_a_hypothesis_chooses_none(text):
    assert grade_completion("B", text, problem=OPTIONS).status != "correct"


TECHNIQUES = "Which technique?\n(A) Calendering (B) Casting (C) Rolling (D) Drawing"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("A", "So it is calendering.\n\nAnswer: [A] Calendering", "correct"),
        ("B", "So it is calendering.\n\nAnswer: [A] Calendering", "incorrect"),
        ("A", "So it is calendering.\n\nAnswer: [(A) Calendering]", "correct"),
        ("A", "So it is calendering.\n\nAnswer: [A) Calendering]", "correct"),
        ("C", "So it is calendering.\n\nAnswer: [A) Calendering]", "incorrect"),
        ("A", "So it is calendering.\n\n{'answer': [A]}", "correct"),
        ("A", "So it is calendering.\n\n{'answer': ['A']}", "correct"),
        ("A", "So it is calendering.\n\n{'answer': 'A'}", "correct"),
        ("D", "So it is calendering.\n\n{'answer': 'A'}", "incorrect"),
        ("A", "Calendering or casting.\n\n{'answer': [A, B]}", "no_answer"),
    ],
)
def test_bracketed_and_dict_answers_to_a_choice(gold, text, status):
    assert grade_completion(gold, text, problem=TECHNIQUES).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("158", "So Tf = 158.33°C.\n\n{'answer': [158]}", "correct"),
        ("158", "So Tf = 157.33°C.\n\n{'answer': [157]}", "incorrect"),
        ("44.9", "The closest is (A) 44.9%.\n\nAnswer: [44.9]", "correct"),
        ("44.9", "The closest is (A) 44.9%.\n\nAnswer: [49.4]", "incorrect"),
        ("53.1", "So E = 53.1 GPa.\n\nAnswer:\n- 53.1 GPa", "correct"),
        ("53.1", "So E = 51.3 GPa.\n\nAnswer:\n- 51.3 GPa", "incorrect"),
        ("[1,2]", "So the list is\n\nAnswer: [1, 2]", "correct"),  # a list stays a list
        ("[1,2]", "So the list is\n\nAnswer: [2, 1]", "incorrect"),
    ],
)
def test_bracketed_dict_and_list_item_values(gold, text, status):
    assert grade_completion(gold, text).status == status


STRENGTH = "Yield strength is approximately\n(A) 100 MPa (B) 115 MPa (C) 165 MPa (D) 215 MPa"
LENGTH = "How far?\n(A) 60 cm (B) 6 m (C) 600 mm (D) 0.6 km"
POTENTIAL = "The standard cell potential is:\n(A) -0.426V (B) 0.426V (C) 0.55V (D) 1.1 V"


@pytest.mark.parametrize(
    ("gold", "problem", "text", "status"),
    [
        ("B", STRENGTH, "Answer: [115 MPa]", "correct"),
        ("B", STRENGTH, "Answer: 115", "correct"),  # no unit: the option's value
        ("B", STRENGTH, "Answer: 115 kPa", "incorrect"),  # another unit: no option's value
        ("D", POTENTIAL, "Answer: [1.100 V]", "correct"),
        ("D", POTENTIAL, "Answer: 0.426 V", "incorrect"),
        ("A", LENGTH, "Answer: 60 cm", "correct"),
        ("A", LENGTH, "Answer: 60 mm", "incorrect"),  # was the option's 60, its unit dropped
        ("A", LENGTH, "Answer: 6 m", "incorrect"),  # option B
    ],
)
def test_an_option_value_is_matched_with_its_unit(gold, problem, text, status):
    assert grade_completion(gold, "We compute it.\n\n" + text, problem=problem).status == status


BIRDS = (
    "Which bird is second from the left?\nOptions:\n(A) The blue jay is the second from the left"
    "\n(B) The owl is the second from the left\n(C) The robin is the second from the left"
)


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        ("A", "FINAL_ANSWER: (A) The blue jay is the second from the left", BIRDS, "correct"),
        ("B", "FINAL_ANSWER: (A) The blue jay is the second from the left", BIRDS, "incorrect"),
        ("125", "So he pays 125.\nFINAL_ANSWER: $125", None, "correct"),  # was no_answer
        ("126", "So he pays 125.\nFINAL_ANSWER: $125", None, "incorrect"),
        ("16", "So it takes 16 hours.\nfinal-answer: 16 hours", None, "correct"),
    ],
)
def test_an_answer_label_written_as_an_identifier(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


CEO = "Did the CEO intentionally harm the environment?\nOptions:\n- Yes\n- No"


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        ("A", "Rocks shelter fish.\n\nFinal answer: Answer: A", None, "correct"),  # no_answer
        ("B", "Rocks shelter fish.\n\nFinal answer: Answer: A", None, "incorrect"),
        ("80", "600 - 520 = 80\n\n**Final answer: Answer: 80**", None, "correct"),
        ("Yes", "He knew it.\n\n**Answer: Yes**", CEO, "correct"),  # was no_answer
        ("No", "He knew it.\n\n**Answer: Yes**", CEO, "incorrect"),
        ("Yes", "He knew it.\n\n**Final Answer:**  \n**Yes**", CEO, "correct"),
        ("Yes", "He knew it.\n\n**Answer: Yes**\n\nA typical person would say he knew it.", CEO,
         "correct"),  # the answer heads its reasons
        ("Yes", "He knew it.\n\nAnswer: Let me think about it again.\n\nHe did.", CEO,
         "no_answer"),
    ],
)  # fmt: skip
def test_an_answer_label_repeated_in_bold_or_heading_its_reasons(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("E", "So M = 960.</think>\n<ans>E</ans>", "correct"),  # the prompt's <ans> tag
        ("D", "So M = 960.</think>\n<ans>E</ans>", "incorrect"),
        ("7", "Answer: The chef bought 2 + 2 = 4 grapes.\nHe had 3, so he has 4 + 3 = 7 grapes.\n"
              "ans = 7", "correct"),  # the "Answer:" line above was read (4)
        ("4", "Answer: The chef bought 2 + 2 = 4 grapes.\nHe had 3, so he has 4 + 3 = 7 grapes.\n"
              "ans = 7", "incorrect"),
        ("2 hours and 45 minutes", "The options are listed.\nAnswer: 2 hours and 45 minutes",
         "correct"),  # a quantity in two units, whole (it was its last number, 45)
        ("2 hours and 15 minutes", "The options are listed.\nAnswer: 2 hours and 45 minutes",
         "incorrect"),
    ],
)  # fmt: skip
def test_the_ans_tag_ans_equals_and_a_quantity_in_two_units(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("B", "It fits a thermoplastic.\n\nTherefore, Teflon belongs to the category:\n\n[B]",
         "correct"),  # was no_answer
        ("C", "It fits a thermoplastic.\n\nTherefore, Teflon belongs to the category:\n\n[B]",
         "incorrect"),
        ("D", "So the correct solvent environment is:\n\n[D] Benzene", "correct"),
        ("BD", "So, the correct relationships are:\n\n[B, D]", "correct"),
        ("B", "So, the correct relationships are:\n\n[B, D]", "incorrect"),  # two chosen
        ("A", "The options are:\n\n[A] x\n[B] y", "no_answer"),  # a listing, no choice
        ("D", "Therefore, the incorrect statement is: \n\n- (D) Burger's vector is parallel to "
              "the dislocation line.", "correct"),
        ("C", "Therefore, the incorrect statement is: \n\n- (D) Burger's vector is parallel to "
              "the dislocation line.", "incorrect"),
        ("A", "Therefore, option (A) is the correct sequence of steelmaking operations.",
         "correct"),  # what it is the right one of, after "correct"
        ("B", "Therefore, option (A) is the correct sequence of steelmaking operations.",
         "incorrect"),
    ],
)  # fmt: skip
def test_option_letters_in_brackets_after_a_lead_in(gold, text, status):
    assert grade_completion(gold, text, problem=OPTIONS).status == status
