"""Round 26's classes from sources leash had not seen, each with a wrong twin.

- GSM8K's calculator notes (``32 - 30 = <<32-30=2>>2 ounces left over.``), which models
  trained on GSM8K write: the note repeats the computation and is removed before the answer
  is read; a completion cut off at its last note ends in the note's result; a bit shift or
  a heredoc is no note;
- GSM8K's ``#### X`` after the last line's text, whatever ends that text (``… =
  $45.00 #### 45``, ``Step 4: #### 2.8``), not only after a sentence's end;
- the prompt's answer template echoed unfilled at the end (``Final Answer: 6 [final numeric
  answer]``, ``#### [final numeric answer]`` on a line of its own): the placeholder, and a
  marker that holds nothing else, are removed;
- a closing verdict on the answer just given that states none ("I believe this should be
  the correct solution.") is a sign-off;
- read after the first wave's rules, in a second wave: a pairwise judge's pick among the
  alternatives the question names (gold ``Output (b)``; "Therefore, Output (b) is better."),
  never a statement that only describes one or disfavours it; a judge's preference label
  (``[[B>>A]]``, ``A<B``) against a gold that gives the direction (``B>A``); an option letter
  written five times as MMLU-Pro's prompt asks (``BBBBB``); a copula with only a preposition
  after it ("… the abstract is from") states nothing;
- read after the second wave's rules, in a third: a judge's closing scores for the named
  alternatives (``Score of Assistant 1: 8`` / ``Score of Assistant 2: 9``) and a tie gold
  among them; a gold that is a label or its negation (``error`` / ``no_error``) read from
  what the conclusion says of the word ("… contains no error."); problems that name
  alternatives in odd ways ("Assistants", "Assistant 1's") never break a verdict.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.calculator_notes import without_calculator_notes
from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.one_sample import grade_completion

_AGE = "Step 13: Sam is 6 years old now.\n\nFinal Answer: 6 [final numeric answer]"
_DOWNLOADS = "So the program has 474 downloads in all.\n\n#### [final numeric answer]"
_BELIEF = "So the farmer makes 2 trips. I believe this should be the correct solution."
_CALCULATION = (
    "Giant cubes use 3 * 4 = <<3*4=12>>12 ounces, medium ones 7 * 2 = <<7*2=14>>14 ounces.\n"
    "Peter has 32 ounces, so we get 32 - 26 = <<32-26=6>>6 ounces left over."
)


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("6", _CALCULATION, "correct"),
        ("26", _CALCULATION, "incorrect"),
        # cut off after the note's first digit, or inside the note: the note's result
        ("64800", "She earns $259,200 - $194,400 = $<<259200-194400=64800>>6", "correct"),
        ("6", "She earns $259,200 - $194,400 = $<<259200-194400=64800>>6", "incorrect"),
        ("190", "The farm has 170 sheep, for a total of 20+170 = <<20+170=190", "correct"),
        ("170", "The farm has 170 sheep, for a total of 20+170 = <<20+170=190", "incorrect"),
        # cut before the note's "=": nothing stated there
        ("30", "The zoo has 20 sheep and 10 more, so they have 20+10 = <<20+1", "no_answer"),
    ],
)
def test_gsm8k_calculator_notes_are_read_through(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("so 32 - 30 = <<32-30=2>>2 ounces", "so 32 - 30 = 2 ounces"),
        ("it costs $<<10+0.5=10.50>>10.50 per hour.", "it costs $10.50 per hour."),
        # not notes: a bit shift, a heredoc, a stray "<" before a closing tag
        ("y = x << 2\nz = y >> 1", "y = x << 2\nz = y >> 1"),
        ("cat <<EOF\nx=1\nEOF", "cat <<EOF\nx=1\nEOF"),
        ("The answer is <answer> 15<</answer>", "The answer is <answer> 15<</answer>"),
    ],
)
def test_what_is_a_calculator_note(text: str, expected: str):
    assert without_calculator_notes(text) == expected


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("45", "Each pair costs $180.00 / (4*2) = $<<180/(4*2)=45.00>>45.00 #### 45", "correct"),
        ("180", "Each pair costs $180.00 / (4*2) = $<<180/(4*2)=45.00>>45.00 #### 45", "incorrect"),
        ("2.8", "Step 3: He drives 1.4 + 1.4 = 2.8 hours.\nStep 4: #### 2.8", "correct"),
        ("1.4", "Step 3: He drives 1.4 + 1.4 = 2.8 hours.\nStep 4: #### 2.8", "incorrect"),
        # what the mark closes is the answer, not the text before it
        ("8535", "He makes $33.68 + $35.74 = $85.35.\\ #### 8535", "correct"),
        ("85.35", "He makes $33.68 + $35.74 = $85.35.\\ #### 8535", "incorrect"),
    ],
)
def test_hashes_after_the_last_lines_text(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        (
            "6",
            "Step 13: Sam is 6 years old now.\n\nFinal Answer: 6 [final numeric answer]",
            "correct",
        ),
        (
            "13",
            "Step 13: Sam is 6 years old now.\n\nFinal Answer: 6 [final numeric answer]",
            "incorrect",
        ),
        ("2", "The farmer needs to make 2 trips.\n\n[final numeric answer]", "correct"),
        (
            "474",
            "So the program has 474 downloads in all.\n\n#### [final numeric answer]",
            "correct",
        ),
        (
            "366",
            "So the program has 474 downloads in all.\n\n#### [final numeric answer]",
            "incorrect",
        ),
        ("750", "The final price of the desk is $750.\n\nAnswer: [your answer here]", "correct"),
        # a template with nothing before it states nothing
        ("15", "Add up all the costs.\n\nThe answer is: [final numeric answer]", "no_answer"),
        # a bracketed list is an answer, not a placeholder
        ("[3, 5]", "The answer is [3, 5]", "correct"),
    ],
)
def test_an_unfilled_answer_template_at_the_end(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        (
            "2",
            "So the farmer makes 2 trips. I believe this should be the correct solution.",
            "correct",
        ),
        (
            "3",
            "So the farmer makes 2 trips. I believe this should be the correct solution.",
            "incorrect",
        ),
        ("4", "So x = 4.\nI'm confident that this is the right answer.", "correct"),
        # a belief that states the value is the answer
        ("5", "After all that, I believe it is 5.", "correct"),
        ("7", "I believe this is correct: 7", "correct"),
    ],
)
def test_a_closing_verdict_on_the_answer_states_none(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


_JUDGE_PROMPT = (
    "# Instruction:\nName two countries that use the Euro.\n\n# Output (a):\nThere are 20.\n\n"
    "# Output (b):\nGermany and Greece.\n\n# Which is better, Output (a) or Output (b)?"
)


@pytest.mark.parametrize(
    ("completion", "picked"),
    [
        ("Output (a) gives a count. Therefore, Output (b) is better.", "Output (b)"),
        ("Output (b) is better.\n\nExplanation:\nOutput (a) provides more detail.", "Output (b)"),
        ("Output (a) is better than Output (b).", "Output (a)"),
        ("Output (b) is better as it doesn't pad the answer.", "Output (b)"),
        ("Output (a) is better.\n\nOutput (b) is not as good because it is short.", "Output (a)"),
        ("Based on this, I prefer Output (b).", "Output (b)"),
        ("**Output (b)**", "Output (b)"),
        # a description, a denial, a dispreference, a judge that contradicts itself: no pick
        ("Output (a) provides more detail.", None),
        ("Therefore, Output (a) is not better.", None),
        ("Output (b) is worse than Output (a).", None),
        ("Output (a) is better.\n\nTherefore, Output (b) is better.", None),
    ],
)
def test_a_judges_pick_among_the_alternatives_the_question_names(
    completion: str, picked: str | None
):
    for gold in ("Output (a)", "Output (b)"):
        status = grade_completion(gold, completion, problem=_JUDGE_PROMPT).status
        assert (status == "correct") == (gold == picked), (gold, status)


def test_alternatives_come_from_the_question_and_a_number_with_a_word_is_none():
    assert gold_from_question("Output (b)", problem=_JUDGE_PROMPT).alternatives == (
        "Output (a)",
        "Output (b)",
    )
    assert gold_from_question("Output (b)").alternatives == ()
    assert (
        gold_from_question("Response B", problem="Response A: hi. Response B: yo.").kind == "text"
    )
    assert gold_from_question("approximately 5").kind != "text"


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("B>A", "My final verdict is: [[B>>A]]", "correct"),
        ("B>A", "My final verdict is: [[A>>B]]", "incorrect"),
        ("B>A", "My final verdict is: [[A<B]]", "correct"),
        ("B>A", "My final verdict is tie: [[A=B]]", "incorrect"),
        ("A=B", "My final verdict is tie: [[B=A]]", "correct"),
        # a gold that states the strength wants it
        ("B>>A", "My final verdict is: [[B>A]]", "incorrect"),
        ("B>>A", "My final verdict is: [[B>>A]]", "correct"),
        # not between two labels: math, as before
        ("5>3", "5>>3", "incorrect"),
    ],
)
def test_a_judges_preference_label_against_the_golds_direction(
    gold: str, completion: str, status: str
):
    assert grade_completion(gold, completion).status == status


_FIVE_TIMES = (
    "Which? (A) x (B) y (C) z\nOnce you have your answer, please duplicate that letter five "
    "times in a single string. For example, if the answer is K, then write KKKKK."
)


@pytest.mark.parametrize(
    ("completion", "letter"),
    [
        ("The argument favours the public setting:\n**BBBBB**", "B"),
        ("Long reasoning here.\n\nBBBBB", "B"),
        ("Therefore, the answer is (J).\n\nThe answer string is: JJJJJ.", "J"),
        ("So the answer is (B).\n\nBBBBB", "B"),
        # a word, a sequence, a run too long to be the format: no letter
        ("The sequence is GATTACA", None),
        ("The tail is CCCCCCCCC", None),
    ],
)
def test_an_option_letter_written_five_times(completion: str, letter: str | None):
    span = extract_answer(completion)
    assert (span.text if span is not None and len(span.text) == 1 else None) == letter
    if letter is not None:
        assert grade_completion(letter, completion, problem=_FIVE_TIMES).status == "correct"
        assert grade_completion("A", completion, problem=_FIVE_TIMES).status == "incorrect"


def test_a_copula_with_only_a_preposition_after_it_states_nothing():
    completion = "Please enter the number of the paragraph you think the abstract is from"
    assert grade_completion("Paragraph 3", completion).status == "no_answer"
    assert grade_completion("Paris", "I think the capital of France is Paris").status == "correct"


_PAIRWISE = (
    "[Question]\nHow do I sleep better?\n\n[The Start of Assistant 1's Answer]\nRead.\n"
    "[The Start of Assistant 2's Answer]\nKeep a schedule.\n\nWe would like feedback from "
    "Assistants. Output the scores for Assistant 1 and 2."
)


@pytest.mark.parametrize(
    ("completion", "picked"),
    [
        (
            "Evidence: the second is better grounded.\n\n"
            "Score of Assistant 1: 8\nScore of Assistant 2: 9",
            "Assistant 2",
        ),
        ("Score of the Assistant 1: 9\nScore of the Assistant 2: 7", "Assistant 1"),
        ("Assistant 1: 7/10\nAssistant 2: 8/10", "Assistant 2"),
        ("Score of the Assistant 1: 9\nScore of the Assistant 2: 9", "tie"),
        ("Both responses are equally good.", "tie"),
        ("Assistant 2 is better.", "Assistant 2"),
        # the scores and the statement disagree: no pick
        (
            "Assistant 1 is better than Assistant 2.\n\n"
            "Score of Assistant 1: 6\nScore of Assistant 2: 9",
            None,
        ),
        # a score for one alternative only
        ("Score of Assistant 1: 8", None),
    ],
)
def test_a_judges_scores_and_a_tie_pick_among_the_alternatives(completion: str, picked: str | None):
    for gold in ("Assistant 1", "Assistant 2", "tie"):
        status = grade_completion(gold, completion, problem=_PAIRWISE).status
        assert (status == "correct") == (gold == picked), (gold, status)


def test_a_tie_golds_alternatives_are_the_names_the_problem_labels():
    assert gold_from_question("tie", problem=_PAIRWISE).alternatives == (
        "Assistant 1",
        "Assistant 2",
        "tie",
    )
    assert gold_from_question("tie", problem="Is it a tie or not?").alternatives == ()


@pytest.mark.parametrize(
    ("completion", "said"),
    [
        ("1. The steps hold.\n\nTherefore, the model response contains an error.", "error"),
        ("Therefore, the model response contains errors.", "error"),
        ("Conclusion: Therefore, the model response contains no error. It is valid.", "no_error"),
        ("Based on the above checks, the model response does not contain any errors.", "no_error"),
        ("The response is error-free.", "no_error"),
        # says both, or neither: no label
        ("There are no errors. But the response has an error.", None),
        ("The answer is 5.", None),
    ],
)
def test_a_label_or_its_negation_read_from_the_conclusion(completion: str, said: str | None):
    for gold in ("error", "no_error"):
        status = grade_completion(gold, completion).status
        assert (status == "correct") == (gold == said), (gold, status)


@pytest.mark.parametrize(
    ("gold", "problem"),
    [
        ("Assistant 1", "Assistants answer. Assistant 1's answer: x. Assistant 2's answer: y."),
        ("Response B", "Responses: Response A's text; Response B's text; Responses end."),
        ("tie", "Assistants 1 and 2 and Assistant's notes"),
        ("Output (a)", "Output (a) Output (b) Outputs"),
    ],
)
def test_odd_names_in_the_problem_never_break_a_verdict(gold: str, problem: str):
    for completion in ("Assistant 1 is better.", "Response B is better.", "It is a tie.", "x"):
        assert grade_completion(gold, completion, problem=problem).status in (
            "correct",
            "incorrect",
            "no_answer",
        )
