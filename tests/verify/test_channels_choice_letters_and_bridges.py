"""Round 18, from sources no earlier round read (Gemma 4's thinking traces on MMLU-Pro and
GPQA, GPQA-Diamond answers of eight API models, ENEM's Portuguese answers): thinking closed
by Gemma's ``<channel|>`` or gpt-oss's final channel; what a last statement says of a
choice gold (a bare letter after its copula, the letter that labels a stated value); a
marker joined to its answer by a connective, an article or the word for the option, in the
markers' languages; a closing yes that confirms a check; Logic-RL's JSON answers to zebra
puzzles; ThaiExam's ``{"correct_answer_key":"c"}``; TempReason's dates (``May, 1747``);
DRAW-1K's two unknowns stated in one sentence; BIG-Bench Hard's Boolean expressions and
formal fallacies answered in a last statement; ReAct's FEVER labels closed by the
environment's observation. Each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

THOUGHT = (
    "<|channel>thought\n*   Accuracy is closeness to the true value.\n"
    "Question: which of these is precise? Answer: C is precise.\n\n"
    '    Therefore, "neither precise nor accurate" (F) is the most likely answer.'
)


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        # Gemma 4: the answer after <channel|>; the thinking's "Question:" is no run-on
        ("F", THOUGHT + "<channel|>F", "correct"),
        ("C", THOUGHT + "<channel|>F", "incorrect"),
        ("E", THOUGHT + "<channel|>The correct answer is E.", "correct"),
        ("A", "<|channel>thought\nConclusion: (i), (ii), and (iii) are true.\n"
              "This corresponds to option A.<channel|>A. (i), (ii), and (iii) only", "correct"),
        # gpt-oss's harmony format: the final channel answers
        ("42", "<|channel|>analysis<|message|>6*7 = 42? Maybe 41. Let me try 43."
               "<|end|><|start|>assistant<|channel|>final<|message|>42<|return|>", "correct"),
        ("41", "<|channel|>analysis<|message|>6*7 = 42? Maybe 41. Let me try 43."
               "<|end|><|start|>assistant<|channel|>final<|message|>42<|return|>", "incorrect"),
        # thinking that never closed and was cut mid-sentence states nothing
        ("42", "<|channel>thought\nWait, 6*7 = 42. Hmm, let me check. Wait, maybe the bags "
               "hold", "no_answer"),
        ("42", "<|channel|>analysis<|message|>Wait, 6*7 = 42. Hmm, let me check. Wait, maybe "
               "the bags hold", "no_answer"),
    ],
)  # fmt: skip
def test_thinking_closed_by_another_template_s_tag(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("C", "The IR peak rules out B.\n\nThus, the major product is C.", "correct"),
        ("D", "The IR peak rules out B.\n\nThus, the major product is C.", "incorrect"),
        ("A", "So.\n\n**Therefore, the incorrect statement is A.** \n", "correct"),
        ("C", "Hmm.\n\nThus, the answer is not C.", "no_answer"),
        ("C", "Weighing them.\n\nTherefore, the most reasonable suggestion for the compound "
              "is C. 4-chlorobenzoic acid.", "correct"),
        ("D", "Weighing them.\n\n**Therefore, the final product is D. "
              "1-(sec-butyl)-4-methylbenzene.** \n", "correct"),
        ("B", "Heterogeneous groups decide better.\n\nThis confirms that B is the most likely "
              "correct answer.", "correct"),
        ("B", "Heterogeneous groups decide better.\n\nThis shows that B is not the correct "
              "answer.", "no_answer"),
        ("D", "The ligand is expressed, making option D the most likely explanation for the "
              "lack of signal.", "correct"),
        ("A", "Hmm.\n\n**Therefore, the most likely chemical formula for the unknown compound "
              "is C6H10O2 (Option A).**", "correct"),
        ("B", "Hmm.\n\n**Therefore, the most likely chemical formula for the unknown compound "
              "is C6H10O2 (Option A).**", "incorrect"),
        ("A", "Hmm.\n\nThe formula is not C6H10O2 (Option A).", "no_answer"),
        ("B", "So 9.51e-7 m.\n\n**This is closest to option B: 2.08 * 10⁻⁶ m.** \n\n"
              "**Important Note:** The provided options are not very close to the calculated "
              "value. \n", "correct"),
        ("B", "So 7.2 atoms.\n\nThe closest answer choice to 7.2 atoms is **17 atoms (Option "
              "B).**  \n\n**Important Note:** This solution assumes the simplest formulas. \n",
         "correct"),
        # a capital letter is an option only against a choice gold: here it is a point
        ("12", "The angle bisectors meet.\n\nThus the point is C.", "no_answer"),
    ],
)  # fmt: skip
def test_a_choice_gold_reads_the_letter_a_last_statement_ends_with(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("C", "Rpl/Rstar should be approximately **0.32 (Option C)** to produce the same "
              "amplitude signal. \n", "correct"),
        ("B", "Rpl/Rstar should be approximately **0.32 (Option C)** to produce the same "
              "amplitude signal. \n", "incorrect"),
        ("0.32", "Rpl/Rstar should be approximately **0.32 (Option C)** to produce the same "
                 "amplitude signal. \n", "correct"),
        ("C", "So x = 2e-7 M.\n\nThe closest answer to this is option C: 6.3x10^-7 M.",
         "correct"),
        ("C", "So d/3 = 6.33e-7 m.\n\nThe closest answer to our minimum resolution is "
              "**C. 2.08 * 1e-6 m**. \n", "correct"),
        ("A", "HI reduces the acid.\n\n**Therefore, the final product is "
              "1-(sec-butyl)-4-methylbenzene (Option A).** \n", "correct"),
        # several letters, or the value not the labelled one: no letter
        ("C", "So 0.32 is option C, but option D is 0.4, so the answer is 0.4.", "incorrect"),
        ("B", "Let me look at the options one more time.\n    0.5 (C), 1.4 (B), 1.",
         "incorrect"),
    ],
)  # fmt: skip
def test_a_choice_gold_reads_the_letter_that_labels_the_stated_value(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("B", "La bonne réponse est donc (B).", "correct"),
        ("C", "La bonne réponse est donc (B).", "incorrect"),
        ("B", "Die richtige Antwort ist also B.", "correct"),
        ("B", "La respuesta correcta es, por lo tanto, la B.", "correct"),
        ("B", "Por lo tanto, la opción correcta es la B.", "correct"),
        ("B", "Quindi la risposta corretta è la B.", "correct"),
        ("B", "A resposta correta é a letra B.", "correct"),
        ("B", "Portanto, a alternativa correta é a letra B.", "correct"),
        ("A", "Portanto, a alternativa correta é a letra B.", "incorrect"),
        ("B", "Por lo tanto, la opción correcta no es la B.", "no_answer"),
        ("42", "Also gibt es 42 Äpfel.\n\nDie Antwort ist also 42.", "correct"),
        # a value in parentheses is no option's letter: read whole
        ("105", "réponse est (35 + 70 = 105).", "correct"),
    ],
)  # fmt: skip
def test_a_marker_joined_to_its_answer_by_connective_article_or_option_word(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("42", "So she has 42 apples left. Let me double-check: 6*7=42. Yes.", "correct"),
        ("41", "So she has 42 apples left. Let me double-check: 6*7=42. Yes.", "incorrect"),
        ("42", "Therefore, the total is 42.\n\nIs that right? Yes.", "correct"),
        ("B", "So the answer is B.\n\nDoes that match the passage? Yes.", "correct"),
        ("C", "So the answer is B.\n\nDoes that match the passage? Yes.", "incorrect"),
        # a yes/no question's gold still reads the yes
        ("Yes", "Is 91 composite? 91 = 7 * 13. Yes.", "correct"),
        ("No", "Is 91 composite? 91 = 7 * 13. Yes.", "incorrect"),
    ],
)  # fmt: skip
def test_a_closing_yes_confirms_the_answer_before_it_for_a_gold_that_is_no_boolean(
    gold, text, status
):
    assert grade_completion(gold, text).status == status


ZEBRA = '{"Hobby": ["fishing", "puzzles"], "Sport": ["soccer", "cricket"]}'


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ('{\n    "Sport": ["Soccer", "Cricket"],\n    "Hobby": ["Fishing", "Puzzles"]\n}',
         "correct"),
        ('{"Sport": ["Cricket", "Soccer"], "Hobby": ["Fishing", "Puzzles"]}', "incorrect"),
        ('{"Sport": ["Soccer", "Cricket"]}', "incorrect"),
    ],
)  # fmt: skip
def test_a_json_object_is_the_gold_s_in_any_field_order_and_case(answer, status):
    text = "Position 1 plays soccer.</think><answer> " + answer + " </answer>"
    assert grade_completion(ZEBRA, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("c", 'The area is 48.\n\n```json\n{"correct_answer_key":"c"}\n```', "correct"),
        ("e", 'The area is 48.\n\n```json\n{"correct_answer_key":"c"}\n```', "incorrect"),
        ("B", '{"selected_option": "B"}', "correct"),
        ("B", '{"final_choice": "B"}', "correct"),
        # a list of the options is no answer
        ("B", 'Done.\n{"options": ["A", "B"], "reasoning": "x"}', "no_answer"),
    ],
)  # fmt: skip
def test_a_json_answer_field_in_the_spellings_prompts_ask_for(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("May, 1747", "So, the time 4 years and 12 months after May 1742 is May 1747.",
         "correct"),
        ("May, 1748", "So, the time 4 years and 12 months after May 1742 is May 1747.",
         "incorrect"),
        ("Sep, 1876", "September, 1876.", "correct"),
        ("Jan, 1780", "The answer is January 1780.", "correct"),
        ("Feb, 1780", "The answer is January 1780.", "incorrect"),
        ("08/30/1909", "The date is one day later, which can be written in MM/DD/YYYY format "
                       "as 08/30/1909.", "correct"),
        ("08/31/1909", "The date is one day later, which can be written in MM/DD/YYYY format "
                       "as 08/30/1909.", "incorrect"),
        # a year gold reads the year of the date a rule read a part of
        ("1909", "He was born on May 3, 1909.", "correct"),
        ("1910", "He was born on May 3, 1909.", "incorrect"),
        ("3", "He was born on May 3, 1909.", "correct"),
    ],
)  # fmt: skip
def test_a_date_gold_reads_the_last_date_of_the_last_statement(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("8.0, 16.0", "Therefore, Evan is 8 years old, and Cody is 16 years old.", "correct"),
        ("8.0, 17.0", "Therefore, Evan is 8 years old, and Cody is 16 years old.", "incorrect"),
        ("35.0, 0.18", "Therefore, the daily fee for renting a U-Haul truck is $35, and the "
                       "mileage charge is $0.18 per mile.", "correct"),
        ("-2, 3", "So the roots are x = -2 and x = 3.", "correct"),
        ("2, 3", "So the roots are x = -2 and x = 3.", "incorrect"),
        # three values for two: no list
        ("8.0, 16.0", "Therefore, Evan is 8 years old, Cody is 16 years old and Ann is 3 "
                      "years old.", "incorrect"),
    ],
)  # fmt: skip
def test_a_gold_of_several_numbers_reads_the_values_the_last_sentence_states(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("42", "2. Multiply: 6 * 7 = 42.\n3. **Answer:** **42**", "correct"),
        ("41", "2. Multiply: 6 * 7 = 42.\n3. **Answer:** **42**", "incorrect"),
        ("42", "Steps.\n4) Final answer: 42", "correct"),
    ],
)  # fmt: skip
def test_an_answer_label_that_heads_an_item_of_a_numbered_list(gold, text, status):
    assert grade_completion(gold, text).status == status


BOOLEAN = "Evaluate the result of a random Boolean expression.\n\nQ: not ( True ) and ( True ) is"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("False", 'Step.\n\nTherefore, the result of the expression "not ( True ) and ( True )" '
                  "is False.", "correct"),
        ("True", 'Step.\n\nTherefore, the result of the expression "not ( True ) and ( True )" '
                 "is False.", "incorrect"),
        ("True", "Steps.\n\nSo, the final result is: `True`", "correct"),
        ("True", "Therefore, the final result is: True", "correct"),
        ("False", "Therefore, the final result is: True", "incorrect"),
        ("False", "Thus it simplifies to **0**, which is **False**.</think>\n\nThe result of "
                  "the Boolean expression is **False**.", "correct"),
        ("False", "So the claim is not true.", "correct"),
    ],
)  # fmt: skip
def test_a_boolean_gold_reads_a_statement_that_calls_its_subject_true_or_false(gold, text, status):
    assert grade_completion(gold, text, problem=BOOLEAN).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("invalid", "Step.\n\n**Answer**:  \nThe argument is **invalid**.", "correct"),
        ("valid", "Step.\n\n**Answer**:  \nThe argument is **invalid**.", "incorrect"),
        ("NOT ENOUGH INFO", "Thought 6: I cannot find anything related to Jackpot.\nAction 6: "
                            "Finish[NOT ENOUGH INFO]\nObservation 6: Episode finished, reward "
                            "= 1\n", "correct"),
        ("SUPPORTS", "Thought 6: I cannot find anything related to Jackpot.\nAction 6: "
                     "Finish[NOT ENOUGH INFO]\nObservation 6: Episode finished, reward = 0\n",
         "incorrect"),
        # a phrase that opens with "not" in lower case is still no answer in words
        ("5", "Answer: not 5", "no_answer"),
    ],
)  # fmt: skip
def test_labels_in_words_a_classification_gold_names(gold, text, status):
    assert grade_completion(gold, text).status == status


SPORTS = 'Is the following sentence plausible? "Mario Gomez scored a reverse layup."'


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("no", 'Considering these points, the sentence "Mario Gomez scored a reverse layup" is '
               "not plausible because it uses a basketball term for a soccer player.", "correct"),
        ("yes", 'Considering these points, the sentence "Mario Gomez scored a reverse layup" is '
                "not plausible because it uses a basketball term for a soccer player.",
         "incorrect"),
        ("no", "Without evidence that Gomez played basketball, the sentence is implausible.",
         "correct"),
        ("yes", 'Thus the sentence "Mario Gomez scored a reverse layup" is plausible.', "correct"),
        ("no", 'Thus the sentence "Mario Gomez scored a reverse layup" is plausible.',
         "incorrect"),
    ],
)  # fmt: skip
def test_a_yes_no_statement_about_a_quoted_sentence_or_with_a_negating_prefix(gold, text, status):
    assert grade_completion(gold, text, problem=SPORTS).status == status
