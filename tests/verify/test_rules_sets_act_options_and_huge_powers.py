"""A function's rule under another label, a set by its elements' form, the ACT's option letters,
and a power too large to evaluate against a plain number gold.

The classes, from evaluation dumps on GAOKAO 2023 (English) and OlympiadBench (PRIME-RL/PRIME's
Qwen2.5-Math-style outputs):

- the gold ``f(x) = -\\frac{2}{5}x + 13`` and the answer ``y = -\\frac{2}{5}x + 13`` (or the
  other way round) were compared as equations with different left sides;
- the set ``\\{3k \\mid k \\in \\mathbb{Z}\\}`` was not the gold ``\\{x \\mid x = 3k, k \\in
  \\mathbb{Z}\\}``;
- the ACT's second option set, ``(F) (G) (H) (J) (K)`` (no I), was not read as options: the
  gold ``K`` and the answer ``(K) …`` or the option's content were wrong;
- ``\\boxed{10^{370000}}`` for the gold 13 was an ``error`` (too large to evaluate) where it is
  plainly ``incorrect``;
- the twins: another rule, another set, another option and a sum with a huge power (which is
  not judged unevaluated) keep their verdicts.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.gold_types import options_from_problem
from sampler.verify.answers.one_sample import grade_completion


def _status(gold: str, text: str, problem: str | None = None) -> str:
    return grade_completion(gold, text, problem=problem).status


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("f(x)=-\\frac25x+13", "y = -\\frac{2}{5}x + 13"),
        ("y=2x+1", "f(x) = 2x + 1"),
        ("f(x)=2x+1", "g(x) = 2x + 1"),
        ("f(x)=2x+1.", "y = 2x + 1"),
    ],
)
def test_a_rule_under_another_label_is_the_same_rule(gold, answer):
    assert _status(gold, f"So the function is $\\boxed{{{answer}}}$.") == "correct"


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("f(x)=2x+1", "y = 2x + 2"),
        ("y=2", "x = 2"),  # another variable, not a label
        ("f(x)=2x+1", "f(x) = 2x - 1"),
    ],
)
def test_another_rule_stays_wrong(gold, answer):
    assert _status(gold, f"So the function is $\\boxed{{{answer}}}$.") == "incorrect"


SET_GOLD = "\\{x|x=3k,k\\in\\mathbb{Z}\\}"


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("\\{3k \\mid k \\in \\mathbb{Z}\\}", "correct"),
        ("\\{y \\mid y = 3k, k \\in \\mathbb{Z}\\}", "correct"),
        ("\\{3k+1 \\mid k \\in \\mathbb{Z}\\}", "incorrect"),
        ("\\{3k \\mid k \\in \\mathbb{N}\\}", "incorrect"),
    ],
)
def test_a_set_by_its_elements_form(answer, status):
    assert _status(SET_GOLD, f"The set is $\\boxed{{{answer}}}$.") == status


ACT = "Which value is the largest? (F) $2$ (G) $3$ (H) $4$ (J) $5$ (K) $6$"


def test_the_act_second_option_set_is_read():
    assert [letter for letter, _ in options_from_problem(ACT)] == ["F", "G", "H", "J", "K"]
    assert options_from_problem("Pick one: (G) 3 (H) 4") == ()  # not from A or F


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("K", "\\boxed{(K) 6}", "correct"),
        ("K", "\\boxed{6}", "correct"),
        ("K", "The answer is (K).", "correct"),
        ("J", "\\boxed{5}", "correct"),
        ("K", "\\boxed{(J) 5}", "incorrect"),
        ("K", "\\boxed{5}", "incorrect"),
        ("J", "\\boxed{(H) 4}", "incorrect"),
    ],
)
def test_act_option_letters_and_contents(gold, answer, status):
    assert _status(gold, answer, ACT) == status


@pytest.mark.parametrize("answer", ["10^{370000}", "2^{100000}", "100000!"])
def test_a_huge_power_is_not_a_small_number(answer):
    graded = grade_completion("13", f"So the answer is $\\boxed{{{answer}}}$.")
    assert graded.status == "incorrect"
    assert graded.answer == answer


@pytest.mark.parametrize(("gold", "answer"), [("7", "2^{100000}+1"), ("x+1", "2^{100000}")])
def test_a_huge_power_in_a_sum_or_for_a_formula_is_still_not_evaluated(gold, answer):
    assert _status(gold, f"So the answer is $\\boxed{{{answer}}}$.") == "error"
