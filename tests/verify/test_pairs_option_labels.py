"""Comparison by the gold's type (issue 32): an option label with its content.

An answer that gives an option's letter and its content (``(B) Thursday``) against a gold
that is the content (a text or a yes/no gold): the content decides, and where the problem
lists its options the letter must be the gold's option too. A gold that is a label and its
content (``C Cecile``) takes the bare letter. Checked through ``grade_completion`` (real
math-verify) both ways: the agreeing answers are accepted, the near misses stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.gold_types import labelled
from sampler.verify.answers.one_sample import grade_completion

DAYS = "Which day had the most visitors?\nOptions: (A) Monday (B) Thursday (C) Friday"
YES_NO = "Does Ann have enough money?\nOptions: (A) yes (B) no"
SHAPE = "Is the function linear or nonlinear?\nOptions: (A) linear (B) nonlinear"
TEAMS = "Which team has the most members?\nOptions: (A) chess club (B) rowing team"

ACCEPTED = [
    ("Thursday", "The answer is (B) Thursday.", DAYS),
    ("Thursday", "The answer is (B) Thursday.", None),
    ("Thursday", "So the answer is B. Thursday", DAYS),
    ("yes", "The answer is (A) yes.", YES_NO),
    ("no", "The answer is (B) no.", YES_NO),
    ("no", "The answer is (B) No.", None),
    ("nonlinear", "The answer is (B) nonlinear.", SHAPE),
    ("rowing team", "The answer is (B) rowing team.", TEAMS),
    # a gold that is a label and its content, and the bare letter (or both again)
    ("C Cecile", "C", None),
    ("C Cecile", r"\boxed{C}", None),
    ("C Cecile", "The answer is (C) Cecile.", None),
]

REJECTED = [
    # the letter is another option than the gold's, though the content is the gold
    ("Thursday", "The answer is (A) Thursday.", DAYS),
    ("yes", "The answer is (B) yes.", YES_NO),
    ("nonlinear", "The answer is (A) nonlinear.", SHAPE),
    # the gold's letter with other content, or another option altogether
    ("Thursday", "The answer is (B) Friday.", DAYS),
    ("Thursday", "The answer is (C) Friday.", None),
    ("yes", "The answer is (B) no.", YES_NO),
    ("no", "The answer is (A) yes.", None),
    ("nonlinear", "The answer is (B) linear.", SHAPE),
    ("rowing team", "The answer is (B) rowing club.", TEAMS),
    ("C Cecile", "D", None),
    ("C Cecile", r"\boxed{B}", None),
    ("C Cecile", "The answer is (C) Bob.", None),
    ("C Cecile", "The answer is (D) Cecile.", None),
    # "A" is a word: a title, not option A with its content
    ("A Tale of Two Cities", "A", None),
]


@pytest.mark.parametrize(("gold", "completion", "problem"), ACCEPTED)
def test_an_option_label_with_the_gold_content_is_correct(
    gold: str, completion: str, problem: str | None
) -> None:
    assert grade_completion(gold, completion, problem=problem).status == "correct"


@pytest.mark.parametrize(("gold", "completion", "problem"), REJECTED)
def test_an_option_label_that_disagrees_is_incorrect(
    gold: str, completion: str, problem: str | None
) -> None:
    assert grade_completion(gold, completion, problem=problem).status == "incorrect"


def test_labelled_reads_the_letter_and_its_content() -> None:
    assert labelled("(A) baseball team") == ("A", "baseball team")
    assert labelled("(b) no") == ("B", "no")
    assert labelled("C. Thursday") == ("C", "Thursday")
    assert labelled("baseball team") is None
    assert labelled("A team") is None
