"""A repeating decimal with a bar or dots is the fraction it is, on the gold and the answer
alike; a rounded decimal is still no repeating one."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.repeating_decimal import repeating_to_fraction


@pytest.mark.parametrize(
    ("text", "fraction"),
    [
        ("0.\\overline{3}", "\\frac{1}{3}"),
        ("1.2\\overline{34}", "\\frac{611}{495}"),
        ("0.\\bar{6}", "\\frac{2}{3}"),
        ("0.\\dot{1}\\dot{2}", "\\frac{4}{33}"),
        ("2.\\dot 3", "\\frac{7}{3}"),
        ("-0.\\overline{142857}", "-\\frac{1}{7}"),
        ("0.\\overline{9}", "1"),
        (".\\overline{3}", "\\frac{1}{3}"),
        ("x = 0.1\\overline{6}", "x = \\frac{1}{6}"),
        ("3.5", "3.5"),
        ("\\overline{AB}", "\\overline{AB}"),  # a segment, not a decimal
    ],
)
def test_repeating_to_fraction(text, fraction):
    assert repeating_to_fraction(text) == fraction


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("\\frac{1}{3}", "0.\\overline{3}", "correct"),
        ("0.\\overline{3}", "\\frac{1}{3}", "correct"),
        ("\\frac{611}{495}", "1.2\\overline{34}", "correct"),
        ("\\frac{1}{3}", "0.\\overline{6}", "incorrect"),
        ("0.\\overline{3}", "0.333", "incorrect"),  # rounded is not repeating
        ("\\frac{1}{7}", "0.\\overline{142856}", "incorrect"),
    ],
)
def test_repeating_decimals_compare_as_fractions(gold, answer, status):
    assert grade_completion(gold, f"So $\\boxed{{{answer}}}$.").status == status
