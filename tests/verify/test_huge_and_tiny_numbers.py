"""Numbers beyond a float's range: equal as written, or compared at 30 digits.

From frontier models' Omni-MATH answers (powers and binomials of thousands of digits, and
probabilities such as ``\\binom{2017}{340}/2^{2017}``):

- an answer too large to evaluate (``2013^{4025}``: 13,000 digits) written as the gold is
  written, up to spacing, sizes and the product's sign, is correct (it was ``error``);
- two numbers beyond a float (``4^{2017} - 2 \\cdot 3^{2017} + 2^{2017}``, or ``3/2^{1100}``,
  0.0 as a float) are compared at 30 digits, at the working precision their cancellation
  needs: ``3/2^{1100}`` is not ``1/2^{1100}`` (math-verify's rounding called them equal: a
  false accept), and ``2^{2011}(\\sqrt{1+2^{-2009}}-1)`` is ``2^{1006}\\sqrt{2^{2010}+2}-2^{2011}``.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


def _status(gold: str, answer: str) -> str:
    return grade_completion(gold, f"So the answer is $\\boxed{{{answer}}}$.").status


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("2013^{4025}", "2013^{4025}"),
        ("4^{2017}-2\\cdot3^{2017}+2^{2017}", "4^{2017} - 2 \\cdot 3^{2017} + 2^{2017}"),
        ("\\binom{4020}{1005}^{2}", "\\dbinom{4020}{1005}^2"),
        ("\\frac{1}{2^{1100}}", "\\frac{1}{2^{1100}}"),
        ("2^{1006}\\sqrt{2^{2010}+2}-2^{2011}", "2^{2011}(\\sqrt{1+2^{-2009}}-1)"),
    ],
)
def test_equal_numbers_beyond_a_float_are_equal(gold, answer):
    assert _status(gold, answer) == "correct"


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("4^{2017}-2\\cdot3^{2017}+2^{2017}", "4^{2017} - 2 \\cdot 3^{2017} + 2^{2016}"),
        ("\\frac{1}{2^{1100}}", "\\frac{3}{2^{1100}}"),
        ("10^{-400}", "10^{-401}"),
        ("3^{2007}", "3^{2008}"),
        ("\\frac{340}{2^{2017}}", "\\frac{\\binom{2017}{340}}{2^{2017}}"),
    ],
)
def test_different_numbers_beyond_a_float_differ(gold, answer):
    assert _status(gold, answer) == "incorrect"


def test_a_huge_answer_written_otherwise_is_still_not_evaluated():
    assert _status("2013^{4025}", "2013^{4026}") == "error"
