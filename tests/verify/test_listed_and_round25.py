"""Round 25's classes from sources leash had not seen, each with a wrong twin.

- a final statement that lists several values in math spans (``The answer is $2$ and $3$.``,
  ``$1$, $2$, and $5$``): every value is the answer, judged as a list, so the first value
  alone is no longer accepted (a false accept) and a list gold is met (a false reject);
- an answer in the double square brackets a prompt asked for (``[[C]]``, ``[[UHMF]]``), also
  when prose follows it, against a gold written in the same wrapper or bare; never a nested
  list in code or a matrix's rows, nor a numbered citation (``… Wikipedia [[2]].``); a
  grid's cells (``S A V E 0,A 0 A 0 A``) compared cell by cell, not as products (0 = 0);
- a gold that is a range of numbers (``110-130``, ``from 260 to 280``, ``5-10%``) is judged by
  its ends: read as math, ``160-180`` and ``110-130`` were both -20 (a false accept);
- an option's label with the gold itself as its content (``(C) Tower of …, proportional to
  1/R``), whatever the gold's type, the label the question gives that content where it lists
  its options;
- an option's label of another script alone as the gold (Bengali ``ঘ``, Arabic ``ب``), and
  the option labels of the Brahmic scripts, Armenian and Georgian; Bengali's "the answer"
  with its classifier (``উত্তরটি হল (ঘ)``);
- a completion that is its sentence gold word for word (short-answer literature QA);
- a one-sentence answer whose subject is the answer and whose rest restates the question
  ("United States has the most forward position players."), against a text gold;
- a translation after the answer that lists the options on one line (``(A) … (B) …``) is no
  option chosen: the answer before it is read;
- an answer field in square brackets on its own line (``[Answer: 42]``, ``[Ответ: 2]``, a
  grading rubric's ``[Оценка: 2 балла]`` before its justification);
- read after the first wave's rules, in a second wave: an option letter that opens a long
  first line of explanation (``B: Roosevelt's speech emphasizes …``; ``A:`` only where option
  A's content follows, as it is also a few-shot answer's label), an agent's closing call
  (``Action: Answer("D")``, ``final_answer(42)``), and a numbered option with its content
  (``2: 16``, ``2번: …``) for a gold that is an option's number;
- "the answer is" before a description of the quantity still to find ("Step 3: The answer
  is the amount the farmer will earn.") states nothing: the value after it is read;
- a model's dictionary-like answer is read as a literal without the compiler's warnings
  reaching the terminal.
"""

from __future__ import annotations

import warnings

import pytest

from sampler.verify.answers.double_brackets import unwrapped_double_brackets
from sampler.verify.answers.keyed_answer import keyed_answer
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("2, 3", "The roots are x=2 and x=3. The answer is $2$ and $3$.", "correct"),
        ("2", "The roots are x=2 and x=3. The answer is $2$ and $3$.", "incorrect"),
        ("\\{1, 2, 5\\}", "Therefore, the final answer is $1$, $2$, and $5$.", "correct"),
        ("5", "Therefore, the final answer is $1$, $2$, and $5$.", "incorrect"),
        ("5, 7", "The answer is \\(5\\) and \\(7\\), respectively.", "correct"),
        ("5", "The answer is \\(5\\) and \\(7\\), respectively.", "incorrect"),
        # one value, then prose that goes on: the value
        ("5", "So $x = 5$ and $y = 7$. The answer is $5$.", "correct"),
        ("5", "The answer is $5$ and it is positive.", "correct"),
        ("4", "The answer is $5$ and it is positive.", "incorrect"),
    ],
)
def test_a_statement_listing_values_states_them_all(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        (
            "[[C]]",
            "According to the story, **[[C]]** The Fall of Wall Maria changed it all.",
            "correct",
        ),
        (
            "[[B]]",
            "According to the story, **[[C]]** The Fall of Wall Maria changed it all.",
            "incorrect",
        ),
        ("[[UHMF]]", "Decrypting each block gives UHMF.\n\n[[UHMF]]", "correct"),
        ("[[UHMF]]", "Decrypting each block gives UHMA.\n\n[[UHMA]]", "incorrect"),
        ("[[9 10 9 8 10]]", "The scores are as follows.\n[[9 10 9 8 10]]", "correct"),
        ("[[9 10 9 8 10]]", "The scores are as follows.\n[[9 10 9 8 11]]", "incorrect"),
        ("C", "So the option is [[C]].", "correct"),
        ("24", "Rating: [[24]]", "correct"),
        ("25", "Rating: [[24]]", "incorrect"),
        # numbered citations are no answer ("… is **Bravo** [[1]][[2]]")
        ("Bravo", "The last word is **Bravo** [[1]][[2]].\n\nThe answer is Bravo.", "correct"),
        ("2", "The test was **Castle Bravo** [[1]], as its report says [[2]].", "incorrect"),
        ("56000", "56,081 according to Wikipedia [[2]]. Rounded, it is **56,000**", "correct"),
        # a grid's cells are compared cell by cell: read as math each row was a product, 0
        ("[[S A V E 0,A 0 A 0 A,D 0 0 0 0]]", "[[S A V E 0, A 0 A 0 A, D 0 0 0 0]]", "correct"),
        ("[[S A V E 0,A 0 A 0 A,D 0 0 0 0]]", "[[S A V E 0, A 0 A 0 S, X 0 0 0 0]]", "incorrect"),
        ("S A V E 0,A 0 A 0 A", "The grid is s a v e 0; a 0 a 0 a.", "correct"),
        # a nested list in code or a matrix is no wrapper: the statement after it is read
        ("5", "```python\nm = np.array([[1, 2]])\n```\nThe answer is 5.", "correct"),
        ("1, 2", "```python\nprint([[1, 2]])\n```\n", "no_answer"),
    ],
)
def test_an_answer_in_the_double_brackets_a_prompt_asked_for(
    gold: str, completion: str, status: str
):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("gold", "unwrapped"),
    [("[[UHMF]]", "UHMF"), (" [[ A ]] ", "A"), ("[[1, 2], [3, 4]]", None), ("[1, 2]", None)],
)
def test_a_gold_in_double_brackets_is_what_they_wrap(gold: str, unwrapped: str | None):
    assert unwrapped_double_brackets(gold) == unwrapped


def test_a_models_python_prints_no_compiler_warning():
    code = "Code:\n```python\nx = 1if 2 else 3\nprint(x)\n```\n```output\n1\n```\nSo it is 0x1for."
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert keyed_answer("{1: 1if 2 else 3}") is None
        grade_completion("1", code)
        grade_completion("1", "The printed value is {'a': 1if 2 else 3}")
    assert not caught


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("110-130", "The correct answer is (B) 110-130.", "correct"),
        ("110-130", "The correct answer is (B) 160-180.", "incorrect"),
        ("110–130", "The answer is 110 to 130.", "correct"),
        ("from 260 to 280", "The correct answer is (B) from 260 to 280.", "correct"),
        ("from 260 to 280", "The correct answer is (B) from 240 to 260.", "incorrect"),
        ("110-130", "The answer is -20.", "incorrect"),
        ("5-10%", "The answer is 5-10%.", "correct"),
        # no range: a subtraction stays one (the low end must be below the high one)
        ("130-110", "The answer is 20.", "correct"),
        ("2 and 3", "The answer is $2$ and $3$.", "correct"),
    ],
)
def test_a_range_gold_is_judged_by_its_ends(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


_OPTIONS = "Which is it?\n(A) 62.01%\n(B) 50%\n(C) Tower of masses, proportional to 1/R\n(D) none"


@pytest.mark.parametrize(
    ("gold", "completion", "problem", "status"),
    [
        (
            "Tower of masses, proportional to 1/R",
            "The answer is (C) Tower of masses, proportional to 1/R.",
            None,
            "correct",
        ),
        (
            "Tower of masses, proportional to 1/R",
            "The answer is (C) Tower of masses, proportional to 1/Q.",
            None,
            "incorrect",
        ),
        (
            "Tower of masses, proportional to 1/R",
            "The answer is (C) Tower of masses, proportional to 1/R.",
            _OPTIONS,
            "correct",
        ),
        # the question lists the gold under another label: the label is wrong
        (
            "Tower of masses, proportional to 1/R",
            "The answer is (D) Tower of masses, proportional to 1/R.",
            _OPTIONS,
            "incorrect",
        ),
        ("62.01%", "The correct answer is (A) 62.01%", None, "correct"),
        ("62.01%", "The correct answer is (B) 50%", None, "incorrect"),
    ],
)
def test_an_option_label_with_the_gold_as_its_content(
    gold: str, completion: str, problem: str | None, status: str
):
    assert grade_completion(gold, completion, problem=problem).status == status


_BENGALI = "### প্রশ্ন: i^{7} + i^{8} এর মান কত?\n### বিকল্প:\nক) -1\nখ) 1\nগ) - i\nঘ) 0"


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("ঘ", "সমাধান করে পাই 0। তাই উত্তরটি হল (ঘ)।", "correct"),
        ("গ", "সমাধান করে পাই 0। তাই উত্তরটি হল (ঘ)।", "incorrect"),
        ("ঘ", "সঠিক উত্তর হল ঘ) 0", "correct"),
        ("খ", "সঠিক উত্তর হল ঘ) 0", "incorrect"),
        ("ب", "الإجابة الصحيحة هي (ب).", "correct"),
        ("ج", "الإجابة الصحيحة هي (ب).", "incorrect"),
        ("ક", "સાચો જવાબ: (ક)", "correct"),
        # a Greek letter alone is a symbol, not an option
        ("α", "The angle is $\\boxed{\\alpha}$.", "correct"),
        ("α", "The angle is $\\boxed{\\beta}$.", "incorrect"),
    ],
)
def test_an_option_label_of_another_script_as_the_gold(gold: str, completion: str, status: str):
    problem = _BENGALI if gold in "কখগঘ" else None
    assert grade_completion(gold, completion, problem=problem).status == status


_SENTENCE = "Proton exchange membrane fuel cells are more efficient than combustion engines."


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        (_SENTENCE, _SENTENCE, "correct"),
        (
            _SENTENCE,
            "  proton exchange membrane fuel cells are more efficient than combustion engines",
            "correct",
        ),
        (
            _SENTENCE,
            "Combustion engines are more efficient than proton exchange membrane fuel cells.",
            "no_answer",
        ),
        (
            "It was obtained from pcDNA-DEST47 (#13316; Addgene).",
            "It was obtained from pcDNA-DEST47 (#13316; Addgene).",
            "correct",
        ),
        (
            "It was obtained from pcDNA-DEST47 (#13316; Addgene).",
            "It was obtained from pcDNA-DEST47 (#13317; Addgene).",
            "incorrect",
        ),
    ],
)
def test_a_completion_that_is_its_sentence_gold(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


@pytest.mark.parametrize(
    ("gold", "completion", "problem", "status"),
    [
        (
            "United States",
            "United States has the most forward position players.",
            "which nationality has the most forward position players?",
            "correct",
        ),
        (
            "Canada",
            "United States has the most forward position players.",
            "which nationality has the most forward position players?",
            "incorrect",
        ),
        (
            "Clint Dempsey",
            "Clint Dempsey scored more goals than Eric Wynalda.",
            "who scored more goals: clint dempsey or eric wynalda?",
            "correct",
        ),
        (
            "Eric Wynalda",
            "Clint Dempsey scored more goals than Eric Wynalda.",
            "who scored more goals: clint dempsey or eric wynalda?",
            "incorrect",
        ),
        # the rest says more than the question asks: no subject is read
        (
            "United States",
            "United States has the most players of all the teams in Europe.",
            "which nationality has the most forward position players?",
            "no_answer",
        ),
    ],
)
def test_a_subject_before_the_restated_question(
    gold: str, completion: str, problem: str, status: str
):
    assert grade_completion(gold, completion, problem=problem).status == status


_TRANSLATED = (
    "Jim wanted Sandy's old bed. Hence the answer is, {answer}. \n\nTranslation: \n"
    "Sentence1: Sandy had bought a new bed. \n"
    "(A) Sandy threw away her bed. (B) Sandy sold Jim her old bed."
)


@pytest.mark.parametrize(("answer", "status"), [("B", "correct"), ("A", "incorrect")])
def test_options_listed_on_one_line_after_the_answer_choose_nothing(answer: str, status: str):
    assert grade_completion("B", _TRANSLATED.format(answer=answer)).status == status


_GRADED = (
    "### Анализ решения\nРешение верное.\n\n### Итоговая оценка\n[Оценка: {score} балла]\n\n"
    "### Обоснование оценки\nОбоснованно получен верный ответ."
)


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("2", _GRADED.format(score=2), "correct"),
        ("1", _GRADED.format(score=2), "incorrect"),
        ("42", "The working is above.\n\n[Answer: 42]", "correct"),
        ("41", "The working is above.\n\n[Answer: 42]", "incorrect"),
        ("2", "Итак.\n\n[Ответ: 2]", "correct"),
        ("7", "Analysis of the answer.\n\n**[Score: 7 points]**", "correct"),
        # a bracketed note after the answer is no answer field
        ("5", "The answer is 5.\n[Note: this assumes x > 0]", "correct"),
    ],
)
def test_an_answer_field_in_square_brackets(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


_AP_OPTIONS = (
    "In his statement Truman had the goal of\n(A) restraining communist military power\n"
    "(B) creating alliances with recently decolonized nations\n(C) reestablishing isolationism"
)
_LONG = (
    " by committing to support free peoples resisting subjugation, primarily through economic"
    " and financial aid, which aligns with the broader strategy of the early Cold War period."
)


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("A", "A: Truman's goal was restraining communist military power" + _LONG, "correct"),
        ("B", "A: Truman's goal was restraining communist military power" + _LONG, "incorrect"),
        ("B", "B: Truman's goal was creating alliances with new nations" + _LONG, "correct"),
        ("C", "B: Truman's goal was creating alliances with new nations" + _LONG, "incorrect"),
        # "A:" as a few-shot answer's label, option A's content nowhere: no letter
        ("A", "A: Let us think about what the speech says" + _LONG, "no_answer"),
    ],
)
def test_an_option_letter_before_a_long_explanation(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion, problem=_AP_OPTIONS).status == status


@pytest.mark.parametrize(
    ("gold", "completion", "status"),
    [
        ("D", 'Thought:\n  Squaring both sides: $$k+2=81$$\n\nAction: Answer("D")', "correct"),
        ("C", 'Thought:\n  Squaring both sides: $$k+2=81$$\n\nAction: Answer("D")', "incorrect"),
        ("42", "Code:\n```py\nfinal_answer(42)\n```", "correct"),
        ("41", "Code:\n```py\nfinal_answer(42)\n```", "incorrect"),
        ("2", "So the answer is 2: 16", "correct"),
        ("3", "So the answer is 2: 16", "incorrect"),
        ("2", "2번: 정치 신인이 토론회에 초청받지 못한다면 a의 입장은 약화되겠군.", "correct"),
        ("4", "2번: 정치 신인이 토론회에 초청받지 못한다면 a의 입장은 약화되겠군.", "incorrect"),
        # a ratio is no option with its content
        ("2", "The ratio is 2:16.", "incorrect"),
    ],
)
def test_an_agents_closing_call_and_a_numbered_option(gold: str, completion: str, status: str):
    assert grade_completion(gold, completion).status == status


_PLAN = (
    "Step 2: Multiply the trays by the price.\nStep 3: The answer is the amount the farmer will"
    " earn.\n30 x 2.5 = {value}\nThe farmer will earn ${value}.\nStep 3: The answer is the amount"
    " the farmer will earn.\nThe farmer will earn ${value}."
)


@pytest.mark.parametrize(("value", "status"), [("75", "correct"), ("76", "incorrect")])
def test_the_answer_is_a_description_of_what_to_find(value: str, status: str):
    assert grade_completion("75", _PLAN.format(value=value)).status == status
