"""Answers that write astronomically large numbers are judged by their size, never evaluated.

``2^{2^{100}}`` makes sympy compute an integer of 3.8e29 digits in C (it held a worker until
the hard deadline, and a retry timed out again): the size rule of ``parse_depth`` gives such
an answer ``error`` with its estimated size at once; real answers (every gold of the
benchmark files, ``10^{100}``, ``2^{2012}``) are parsed as before.
"""

from __future__ import annotations

import time

import pytest

from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.math_verifier import judge
from sampler.verify.answers.parse_depth import MAX_DIGITS, too_deep, too_large
from sampler.verify.answers.verdict import prepare_span
from tests.support.verify_fixtures import benchmark_golds


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("2^{2^{100}}", "3.82e+29"),
        ("9^{9^{9}}", "3.7e+08"),
        ("10^{10^{6}}", "1e+06"),
        ("2^{1000000}", "3.01e+05"),
        ("100000!", "4.57e+05"),
        ("x + 3^{10^{400}}", "more than 1e300"),
    ],
)
def test_a_power_or_factorial_of_literals_past_the_limit_is_refused_with_its_size(text, digits):
    reason = too_large(text)
    assert reason is not None and digits in reason and f"{MAX_DIGITS:,}" in reason
    assert too_deep(text) == reason


@pytest.mark.parametrize(
    "text", ["10^{100}", "2^{2012}", "1000!", "x^{1000000}+1", "e^{100000}", "3.5^{10}", "2^10"]
)
def test_real_sized_numbers_and_symbolic_powers_pass(text):
    assert too_large(text) is None


def test_no_gold_of_the_benchmark_files_is_refused():
    golds = benchmark_golds()
    assert len(golds) > 1000
    assert [g for g in golds if too_large(g)] == []


def test_a_tower_answer_gets_error_at_once_instead_of_a_hung_worker():
    gold = gold_from_question("42", None)
    span = extract_answer("so the answer is $\\boxed{2^{2^{100}}}$")
    started = time.monotonic()
    verdict = judge(gold, prepare_span(span, gold))
    assert time.monotonic() - started < 5
    assert verdict.status == "error" and "digits" in (verdict.detail or "")
