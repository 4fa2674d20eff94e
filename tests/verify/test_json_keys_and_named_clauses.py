"""JSON answer keys written loosely, an answer named inside a "that"-clause, and a clause
after the stated answer.

From chat models' multiple-choice outputs in JSON (RoLM's CommonsenseQA and QASC prompts
with `" ANSWER"` keys; Claude 3 Haiku's broken JSON) and confidence-annotated answers:

- `{" EXPLANATION": "…", " ANSWER": "E"}` (spaces inside the key's quotes), `ANSWER":"H"}`
  (the opening quote lost), `"Answer": C,` (the letter unquoted), `"Answer": "A` (cut before
  its closing quote) gave no answer;
- "I am 100% confident that option C is the correct answer." read the whole clause;
- "the correct answer is B) a neutron, and 5% confident that it could be C) …", "… is
  neutron, which is neutral." read the clause after the answer as part of it; a description
  before ", which is $x=11$" keeps its clause.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

PARTICLE = "Which particle is neutral?\n(A) proton (B) neutron (C) electron (D) positron"


def _status(gold: str, completion: str, problem: str | None = PARTICLE) -> str:
    return grade_completion(gold, completion, problem=problem).status


@pytest.mark.parametrize(
    "completion",
    [
        '{" EXPLANATION": "Neutrons carry no charge.", " ANSWER": "B"}',
        '```json\n{" Explanation": "No charge at all.", " Answer": "B"}```',
        'Neutrons carry no charge.\n\nANSWER":"B"}',
        'Neutrons carry no charge.\n"Answer": B,\n"A": 0.1,\n"B": 0.8\n}',
        'It must be the neutron, since it has no charge.",\n"Answer": "B',
    ],
)
def test_a_loosely_written_json_answer_key_is_the_answer(completion):
    assert _status("B", completion) == "correct"
    assert _status("C", completion) == "incorrect"


@pytest.mark.parametrize(
    "completion",
    [
        "Neutrons have no charge. I am 100% confident that option B is the correct answer.",
        "It is clear that (B) is the correct answer.",
        "I think that the answer is B.",
        "I am 90% confident that the correct answer is B) a neutron, and 5% confident that it "
        "could be either C) an electron or D) a positron.",
        "The correct answer is neutron, which is the particle with no charge.",
    ],
)
def test_an_answer_named_in_a_clause_or_followed_by_one(completion):
    assert _status("B", completion) == "correct"
    assert _status("C", completion) == "incorrect"


def test_a_verdict_on_an_answer_names_none():
    assert _status("B", "This answer is correct.") == "no_answer"


def test_a_description_before_which_is_keeps_its_value():
    completion = (
        "Cross-multiplying gives the answer is the solution to the equation, which is $x=11$."
    )
    assert _status("11", completion, None) == "correct"
