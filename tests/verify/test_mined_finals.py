"""Final-answer classes found by mining saved completions of sources leash was not tuned on
(Abel's GSM8K and MathGPT outputs, Plan-and-Solve's CommonsenseQA and last-letters files,
MathVista's chat-model responses): each class with the near misses it must not fire on.

Inputs are written the way those sources write them; the mined completions themselves stay
out of the repository.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.golds import answer_choice
from sampler.verify.answers.one_sample import grade_completion


def _graded(gold: str, completion: str, problem: str | None = None) -> tuple[str, str | None]:
    graded = grade_completion(gold, completion, problem=problem)
    return graded.status, graded.rule


# -- a ``#### X`` closing the last line after a sentence (Abel) --------------------------


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        (
            "6. [Final solution] Thus, Janet makes $18 every day at the market. #### 18",
            "18",
            "correct",
        ),
        (
            "6. [Final solution] Thus, Janet makes $18 every day at the market. #### 18 ",
            "17",
            "incorrect",
        ),
        (
            "The option corresponding to 4 is B.\nSo our selection is option B. #### B ",
            "B",
            "correct",
        ),
        ("So our selection is option B. #### B", "C", "incorrect"),
        ("Thus, the price is $1,200. #### 1,200", "1200", "correct"),
    ],
)
def test_a_closing_inline_hash_mark_states_the_answer(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion) == (status, "hashes")


@pytest.mark.parametrize(
    "completion",
    [
        "Thus, Janet makes money. ####",  # the mark and nothing after it
        "First we add the eggs #### then we sell them",  # no sentence ends before the mark
        "Thus she makes $18. #### 18\nNow let us check the second part of the question again",
    ],
)
def test_a_hash_mark_that_closes_nothing_states_no_hash_answer(completion: str) -> None:
    assert grade_completion("18", completion).rule != "hashes"


# -- a bare option letter is the letter, whatever its option holds ------------------------

_PRIMES = (
    "Which of the following prime factorizations below is correct?\n"
    "A. $97=1\\times97$\nB. $85=5\\times17$\nC. $64=2\\times32$\nD. $52=1\\times2\\times2\\times13$"
)


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("So our selection is option B. #### B", "B", "correct"),
        ("So our selection is option B. #### B", "D", "incorrect"),
        ("The answer is B.", "B", "correct"),
        ("\\boxed{B}", "B", "correct"),
        ("\\boxed{A}", "B", "incorrect"),
    ],
)
def test_a_bare_letter_against_a_choice_gold_is_that_letter(
    completion: str, gold: str, status: str
) -> None:
    # the option's content (an equation) is no value to compare: the letter decides
    assert _graded(gold, completion, problem=_PRIMES)[0] == status


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("B", "B"),
        (" B ", "B"),
        ("(B)", "B"),
        ("B.", "B"),
        ("B C", None),
        ("A dog", None),
        ("Bx", None),
    ],
)
def test_answer_choice_reads_a_bare_letter(text: str, letter: str | None) -> None:
    assert answer_choice(text) == letter


# -- a last ``Answer:`` line with an option and its content, or a few words ----------------

_PLACES = "Where was the man? Answer Choices: (A) sea (B) forest (C) annoyance (D) bed (E) backpack"


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("The man is lost among trees.\n\nAnswer: C - Annoyance", "C", "correct"),
        ("The man is lost among trees.\n\nAnswer: E) Backpack", "E", "correct"),
        ("The man is lost among trees.\n\nAnswer: E) Backpack", "B", "incorrect"),
        ("The man is lost among trees.\n\nAnswer: B – forest", "B", "correct"),
    ],
)
def test_an_answer_line_with_a_letter_and_its_content(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion, problem=_PLACES) == (status, "answer line (words)")


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("Step 2: Concatenate the last letters.\n\nAnswer: oydz", "oydz", "correct"),
        ("Step 2: Concatenate the last letters.\n\nAnswer: oyd", "oydz", "incorrect"),
        ("Is the coin still heads up?\n\nAnswer: yes", "yes", "correct"),
        ("The capital is the largest city.\n\nAnswer: Paris.", "Paris", "correct"),
    ],
)
def test_a_last_answer_line_of_a_few_words_is_the_answer(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion) == (status, "answer line (words)")


@pytest.mark.parametrize(
    "completion",
    [
        "Answer: oydz\nBut wait, the last word ends in another letter",  # more follows
        "Answer: Let me think",  # a step
        "Answer: see below",
        "Answer: I think",
        "Answer: not sure",  # a hedge
        "Answer: none of these words can be read as one answer here at all",  # long prose
    ],
)
def test_an_answer_line_that_is_a_step_or_prose_states_no_words(completion: str) -> None:
    assert _graded("oydz", completion) == ("no_answer", None)


# -- two option labels joined by "and": both chosen (Plan-and-Solve's CommonsenseQA) --------

_COAST = "Where? Answer Choices: (A) sea (B) forest (C) pond (D) tide pool (E) intertidal zone"


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        (
            "Therefore, the correct answer is (D) tide pool and (E) intertidal zone.",
            "D",
            "incorrect",
        ),
        (
            "Therefore, the correct answer is (D) tide pool and (E) intertidal zone.",
            "DE",
            "correct",
        ),
        ("Therefore, the correct answer is (D) tide pool, (E) intertidal zone.", "E", "incorrect"),
        # near misses: one option chosen, the other named as rejected or as a reason
        ("Therefore, the correct answer is (D) tide pool. (E) is too wide.", "D", "correct"),
        ("The answer is (D) tide pool, not (E).", "D", "correct"),
        ("The answer is (D) tide pool and sand.", "D", "correct"),
    ],
)
def test_option_labels_joined_by_and_are_all_chosen(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion, problem=_COAST)[0] == status


# -- a courtesy question after the answer (MathVista's Bard responses) --------------------


@pytest.mark.parametrize(
    "completion",
    [
        "The ruler is marked in inches. Therefore, the nail is about 3 inches long.\n\n"
        "Is there anything else I can help you with?",
        "The values are 58, 59 and 63. There are 3 bars below 40.\n\n"
        "Do you want to try other questions about the image?",
        "There are 3 bars below 40.\n\nDo you have other questions for me?",
        # an offer of more help ("Do you want to …?", "Would you like me to …?") closes too
        "There are 3 bars.\n\nDo you want to measure the length of the nail in centimeters?",
        "There are 3 bars.\n\nWould you like me to explain how I counted them?",
    ],
)
def test_a_courtesy_question_after_the_answer_is_no_part_of_it(completion: str) -> None:
    assert grade_completion("3", completion).status == "correct"


@pytest.mark.parametrize(
    "completion",
    [
        "There are 3 bars. Is there anything else in the image?",  # a question about the task
    ],
)
def test_a_question_about_the_task_is_no_courtesy(completion: str) -> None:
    assert grade_completion("3", completion).status == "no_answer"


# -- a letter for a gold that is the option's content (MathVista's multiple choice) --------

_ANGLES = "If A = 40.0, then the degree of B is ()\nChoices:\n(A) 80°\n(B) 60°\n(C) 50°\n(D) 40°"
_ROOTS = "Which is it?\nChoices:\n(A) ½\n(B) √2\n(C) 3"


@pytest.mark.parametrize(
    ("completion", "gold", "problem", "status"),
    [
        ("Therefore, the degree of angle B is 50°.\n\nThe answer is C.", "50°", _ANGLES, "correct"),
        ("所以答案是C。", "50°", _ANGLES, "correct"),
        ("\\boxed{C}", "50", _ANGLES, "correct"),
        ("The answer is B.", "\\sqrt{2}", _ROOTS, "correct"),
        ("The answer is A.", "\\frac{1}{2}", _ROOTS, "correct"),
        # near misses: another option's letter
        (
            "Therefore, the degree of angle B is 50°.\n\nThe answer is D.",
            "50°",
            _ANGLES,
            "incorrect",
        ),
        ("The answer is B.", "\\frac{1}{2}", _ROOTS, "incorrect"),
    ],
)
def test_a_letter_is_its_option_content_in_the_form_answers_are_compared(
    completion: str, gold: str, problem: str, status: str
) -> None:
    assert _graded(gold, completion, problem=problem)[0] == status


# -- an option named by its letter and its content, in either order (MathVista) -----------

_MONITOR = (
    "Which number on the monitor is higher?\nChoices:\n(A) top\n(B) bottom\n(C) left\n(D) right"
)
_DARKER = "Is Black greater than Deep Sky Blue?\nChoices:\n(A) yes\n(B) no"
_MONTHS = (
    "In which period is the number maximum?\nChoices:\n"
    "(A) Jul '21\n(B) Jun '21\n(C) Mar '21\n(D) May '21"
)


@pytest.mark.parametrize(
    ("completion", "gold", "problem", "status"),
    [
        ("Therefore, the answer is B (bottom).", "bottom", _MONITOR, "correct"),
        ("The answer is B (no).", "no", _DARKER, "correct"),
        ("So the answer is (B), No.", "no", _DARKER, "correct"),
        ("Therefore, the correct option is (D) May '21.", "May '21", _MONTHS, "correct"),
        # near misses: another option, or a letter and a content that disagree
        ("Therefore, the answer is A (top).", "bottom", _MONITOR, "incorrect"),
        ("Therefore, the answer is B (top).", "bottom", _MONITOR, "incorrect"),
        ("The answer is A (yes).", "no", _DARKER, "incorrect"),
        ("So the answer is (A), Yes.", "no", _DARKER, "incorrect"),
        ("Therefore, the correct option is (B) Jun '21.", "May '21", _MONTHS, "incorrect"),
        ("Therefore, the correct option is (D) Jun '21.", "May '21", _MONTHS, "incorrect"),
    ],
)
def test_an_option_with_its_content_in_either_order(
    completion: str, gold: str, problem: str, status: str
) -> None:
    assert _graded(gold, completion, problem=problem)[0] == status


# -- an option on its own last line after an answer lead-in; "the answer is no, …" -------

_REACH = "Can the boy reach the highest book?\nChoices:\n(A) Yes\n(B) No"


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ("He cannot reach high enough.\n\nTherefore, the correct answer is:\n\nB", "No", "correct"),
        (
            "He cannot reach high enough.\n\nTherefore, the correct answer is:\n\nA",
            "No",
            "incorrect",
        ),
        ("The counts are equal, so the answer is:\n\nB (No)", "No", "correct"),
        ("The counts are equal, so the answer is:\n\nA (Yes)", "No", "incorrect"),
        ("The correct option would be:\n\n(B)", "No", "correct"),
    ],
)
def test_an_option_line_after_an_answer_lead_in(completion: str, gold: str, status: str) -> None:
    graded = grade_completion(gold, completion, problem=_REACH)
    assert graded.status == status
    assert (graded.rule or "").startswith("closing option")


@pytest.mark.parametrize(
    "completion",
    [
        "Let us label the points as follows:\n\nA",  # a lead-in to a step, not the answer
        "The points are:\n\nA",
        "Let us label the answer as follows:\n\nA",
    ],
)
def test_a_letter_line_after_another_lead_in_is_no_option(completion: str) -> None:
    assert _graded("No", completion, problem=_REACH) == ("no_answer", None)


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        (
            "So the answer is no, there are not fewer yellow motorbikes in front of the small brown"
            " dirtbike than big yellow dirtbikes.",
            "No",
            "correct",
        ),
        (
            "So the answer is yes, the function is continuous on the whole of its domain here.",
            "No",
            "incorrect",
        ),
    ],
)
def test_the_answer_is_yes_or_no_then_its_restatement(
    completion: str, gold: str, status: str
) -> None:
    assert _graded(gold, completion) == (status, "statement (words)")


@pytest.mark.parametrize(
    "completion",
    [
        "If the answer is no, we stop and try the other case.",
        "The answer is not yes, it is more complicated than a simple word in a long sentence.",
    ],
)
def test_a_yes_or_no_in_a_hypothesis_or_negated_states_nothing(completion: str) -> None:
    assert _graded("No", completion)[0] == "no_answer"


@pytest.mark.parametrize(
    ("completion", "gold", "status", "rule"),
    [
        (
            "Grasshoppers feed on plants.\n\nThe correct option letter is A.",
            "A",
            "correct",
            "answer marker",
        ),
        (
            "Grasshoppers feed on plants.\n\nThe correct option letter is A.",
            "B",
            "incorrect",
            "answer marker",
        ),
        ("I see no such evidence. Therefore, I would choose:\nB", "B", "correct", "closing option"),
        (
            "I see no such evidence. Therefore, I would choose:\nB",
            "A",
            "incorrect",
            "closing option",
        ),
    ],
)
def test_the_option_letter_named_or_chosen(
    completion: str, gold: str, status: str, rule: str
) -> None:
    assert _graded(gold, completion) == (status, rule)


@pytest.mark.parametrize(
    "completion",
    ["If the correct option letter is A, then we stop.", "We choose:\nB"],
)
def test_an_option_letter_in_a_hypothesis_or_a_step_is_no_choice(completion: str) -> None:
    assert _graded("A", completion) == ("no_answer", None)


# -- a step's label states no value (Plan-and-Solve's plans) -------------------------------


@pytest.mark.parametrize(
    "completion",
    [
        "Step 2: Take the last letter of each word.\n\nThe last letters are: s, a.\n\n"
        "Step 3: Concatenate the last letters.",
        "Step 3: Concatenate the last letters.",
        "We add them.\n\nStep 3: Concatenate the last letters.",
        "Step 4: Lynette flips the coin. So, the coin is now tails up.",
        "We add them. **Step 3:** Write the total down.",
    ],
)
def test_a_step_label_is_no_value(completion: str) -> None:
    assert grade_completion("3", completion).status == "no_answer"


@pytest.mark.parametrize(
    "completion",
    [
        "Step 3: 2 + 1 = 3",
        "We add them. Step 3: the total is 3.",
        "**Step 3:** The total is 3.",
        "So there are 3 steps.",
    ],
)
def test_a_value_after_a_step_label_is_still_read(completion: str) -> None:
    assert grade_completion("3", completion).status == "correct"


# -- one word after "is:"/"are:" closing the completion (Plan-and-Solve's last letters) ----


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        (
            "Step 3: Concatenate the last letters.\n\nThe concatenated last letters are: saas.",
            "saas",
            "correct",
        ),
        (
            'Step 3: Concatenate them.\n\nThe concatenated last letters are: "saas"',
            "saas",
            "correct",
        ),
        (
            "Step 3: Concatenate them.\n\nThe concatenated last letters are: saas.",
            "sasa",
            "incorrect",
        ),
    ],
)
def test_one_word_after_a_copula_and_a_colon(completion: str, gold: str, status: str) -> None:
    assert _graded(gold, completion) == (status, "closing statement (words)")


@pytest.mark.parametrize(
    "completion",
    [
        "We take the letters.\n\nIf the letters are: saas, we stop.",  # a hypothesis
        "We take the letters.\n\nThe result is not: saas.",  # negated
        "We take the letters.\n\nIs the result: saas?",  # a question
        "We take the letters.\n\nThe next steps are: concatenate.",  # a plan
        "We take the letters.\n\nThe letters are: s, a, a, s.",  # several values
    ],
)
def test_a_word_after_a_colon_in_a_hypothesis_question_or_plan_is_no_answer(
    completion: str,
) -> None:
    assert _graded("saas", completion) == ("no_answer", None)


@pytest.mark.parametrize(
    ("completion", "gold", "status"),
    [
        ('Step 3: Concatenate.\n\nThe concatenated last letters are "yajc".', "yajc", "correct"),
        (
            'Step 3: Concatenate.\n\nThe concatenated letters of each word are "aase."',
            "aase",
            "correct",
        ),
        ('Step 3: Concatenate.\n\nThe concatenated last letters are "nai".', "naoi", "incorrect"),
    ],
)
def test_one_quoted_word_after_a_copula(completion: str, gold: str, status: str) -> None:
    assert _graded(gold, completion) == (status, "closing statement (words)")


@pytest.mark.parametrize(
    "completion",
    ["We add.\n\nThe word is done.", 'We add.\n\nThe name is "Bob" and more of them.'],
)
def test_an_unquoted_word_or_a_quote_within_a_sentence_is_no_answer(completion: str) -> None:
    assert _graded("done", completion) == ("no_answer", None)


@pytest.mark.parametrize(("gold", "status"), [("A", "correct"), ("B", "incorrect")])
def test_an_answer_line_letter_then_its_content_in_parentheses(gold: str, status: str) -> None:
    assert _graded(gold, "It rains from them.\n\nAnswer: A (Cloud)", problem=_PLACES) == (
        status,
        "answer line (words)",
    )
