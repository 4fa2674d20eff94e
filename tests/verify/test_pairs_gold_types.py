"""Comparison by what the gold is (issue 32): plain notation, rounded golds, letters, stray
backslashes.

Each rule is checked both ways on real-looking pairs through ``grade_completion`` (real
math-verify): the equal forms are accepted, and the near misses (another function, a
different end, a value that rounds otherwise, a coarser answer) stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.gold_types import stated_precision
from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.plain_notation import plain_to_latex


def status(gold: str, answer: str) -> str:
    return grade_completion(gold, answer).status


# -- plain and Python notation, on either side -------------------------------------------

PLAIN_EQUAL = [
    # sympy-dialect golds (UGMathBench) against LaTeX answers
    ("7*sin(pi*x/5)+1", r"7 \sin(\frac{\pi}{5}x) + 1"),
    ("ln(a)*a^x", r"a^x \ln a"),
    ("x^0*e^(-8*x)*cos(9*x)", r"e^{-8x} \cos(9x)"),
    ("3*cos(sqrt(980/7)*t)", r"3\cos(2\sqrt{35}t)"),
    ("8*[2*cos(t)]^2", r"32 \cos^2 t"),
    ("2**100", "2^{100}"),
    ("(-infinity,5)", r"(-\infty, 5)"),
    # plain answers in a box against LaTeX golds
    (r"\frac{\pi}{2}", "pi/2"),
    ("e^{16}", "exp(16)"),
    (r"\frac{1}{\sqrt{\pi}}", "1/sqrt(pi)"),
    ("1/2", "sin(pi/6)"),
    ("1", "tan(pi/4)"),
]

PLAIN_NEAR_MISSES = [
    ("13*pi*R^2", r"14 \pi R^{2}"),
    ("cos(x)", r"\sin(x)"),
    ("5*[1+sqrt(2)]", r"10\sqrt{2}"),
    ("(-infinity,5)", r"(-\infty, 5]"),
    (r"\frac{\pi}{2}", "pi/3"),
    (r"\frac{1}{\sqrt{2}}", "1/sqrt(pi)"),
    ("e^{17}", "exp(16)"),
    ("ln(a)*a^x", r"a^x \log_{2} a"),
]


@pytest.mark.parametrize(("gold", "answer"), PLAIN_EQUAL)
def test_plain_notation_is_read_as_math(gold: str, answer: str) -> None:
    assert status(gold, answer) == "correct"


@pytest.mark.parametrize(("gold", "answer"), PLAIN_NEAR_MISSES)
def test_plain_notation_near_misses_stay_wrong(gold: str, answer: str) -> None:
    assert status(gold, answer) == "incorrect"


def test_plain_notation_rewrite_leaves_latex_words_and_lists_alone() -> None:
    assert plain_to_latex(r"\sin(\pi x)") == r"\sin(\pi x)"
    assert plain_to_latex("pizza") == "pizza"
    assert plain_to_latex("[2,5)") == "[2,5)"
    assert plain_to_latex("x^2+1") == "x^2+1"
    assert plain_to_latex("sqrt(2)*pi") == r"\sqrt{2}*\pi"
    assert plain_to_latex("x**6") == "x^{6}"


# -- a gold stated rounded: an answer whose value rounds to it ----------------------------

ROUNDED_EQUAL = [
    ("3.1416", r"\pi"),
    ("3.6667", r"\frac{11}{3}"),
    ("0.3333", r"\frac{1}{3}"),
    ("1.4142", r"\sqrt{2}"),
    ("-2.718", "-e^{1}"),
    ("3.67", "3.6749"),
    ("1.09951162778E+12", "4^20"),  # sieval's UGMathBench test
    ("1.0995E+12", "1099511627776"),
    ("2.2892", "2.28915"),
]

ROUNDED_NEAR_MISSES = [
    ("3.6668", r"\frac{11}{3}"),  # rounds to 3.6667
    ("33.3", r"\frac{100}{3}"),  # three digits: 33.3 may be exact (the Qwen grader's case)
    ("1.4143", r"\sqrt{2}"),
    ("2.718", "-e^{1}"),  # the sign
    ("3.67", "3.675"),  # rounds half up to 3.68
    ("3.67", "3.7"),  # coarser than the gold
    ("2.2892", "2.3"),
    ("1.97423402868049", "1.97"),
    ("3.1416", "3.1415"),
    ("0.3333", r"\frac{1}{4}"),
    ("0.5", r"\frac{6}{11}"),  # one stated digit: 0.5 may be exactly a half
    ("1.09951162778E+12", r"4^{20}+10^{9}"),
    ("1.0995E+12", "1099611627776"),
]


@pytest.mark.parametrize(("gold", "answer"), ROUNDED_EQUAL)
def test_an_answer_that_rounds_to_a_rounded_gold_is_right(gold: str, answer: str) -> None:
    assert status(gold, answer) == "correct"


@pytest.mark.parametrize(("gold", "answer"), ROUNDED_NEAR_MISSES)
def test_an_answer_that_rounds_otherwise_stays_wrong(gold: str, answer: str) -> None:
    assert status(gold, answer) == "incorrect"


def test_stated_precision_reads_plain_and_scientific_golds() -> None:
    assert stated_precision("3.1416") is not None and stated_precision("3.1416")[1] == -4
    value, last = stated_precision(r"1.0995\times10^{12}")
    assert (float(value), last) == (1.0995e12, 8)
    assert stated_precision("0.5") is None  # too few digits to be read as rounded
    assert stated_precision("33.3") is None
    assert stated_precision("x+1.5") is None


# -- a choice letter is a letter, not a symbol in a formula --------------------------------


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("E", r"\mathrm{E}", "correct"),
        ("A", r"\textbf{A}", "correct"),
        ("C", "(C) 15", "correct"),
        ("C", "C. 15", "correct"),
        ("E", r"\mathrm{E}*2", "incorrect"),  # NeMo-Skills' test: a product, no letter
        ("A", "A^2", "incorrect"),
    ],
)
def test_a_letter_followed_by_an_operator_is_no_choice(
    gold: str, answer: str, expected: str
) -> None:
    assert status(gold, answer) == expected


# -- a stray backslash at the end ---------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("185", "185\\", "correct"),
        ("185\\", "185", "correct"),
        ("185\\", "185\\", "correct"),
        ("185\\", "186", "incorrect"),
        ("185", "186\\", "incorrect"),
    ],
)
def test_a_stray_trailing_backslash_is_dropped(gold: str, answer: str, expected: str) -> None:
    assert status(gold, answer) == expected
