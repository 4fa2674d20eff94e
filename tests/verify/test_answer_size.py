"""Answers that would take the parser or sympy too long are refused by their structure, first.

Profiling harness-shaped completions (``bench/verify_speed.py --real --profile``) found the
shapes that ran past verify's deadline: long expanded polynomials and lists (many tokens,
many powers), fractions nested in fractions, powers of sums, binomials of large literals,
numbers written out to thousands of digits. Each is refused before any parse, with status
``error`` and a reason naming its rule; an ordinary answer of each kind still verifies, and
no gold of the benchmark files is refused.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder
from sampler.verify.answers import math_verifier
from sampler.verify.answers.answer_size import (
    MAX_EXPANDED_TERMS,
    MAX_FRACTION_DEPTH,
    MAX_POWERS,
    MAX_TOKENS,
    expanded_terms,
    fraction_depth,
    token_count,
)
from sampler.verify.answers.extraction import extract_answer
from sampler.verify.answers.golds import gold_from_question
from sampler.verify.answers.math_verifier import judge
from sampler.verify.answers.parse_depth import too_deep
from sampler.verify.answers.verdict import prepare_span
from tests.support.folder_builders import write_folder
from tests.support.verify_fixtures import benchmark_golds


def _poly(n: int) -> str:
    return " + ".join(f"{math.comb(n, i)}x^{{{n - i}}}" for i in range(n - 1)) + f" + {n}x + 1"


SLOW = {
    # shape -> (answer, words of its reason)
    "expanded polynomial": (_poly(40), "writes 39 powers"),
    "long expression": (" + ".join(f"\\frac{{{i}}}{{{i + 1}}}" for i in range(60)), "tokens long"),
    "many powers": (" + ".join(f"x^{{{i}}}" for i in range(2, 30)), "powers"),
    "tool-output list": ("[" + ", ".join(str(7919 * i) for i in range(200)) + "]", "tokens long"),
    "nested fraction": ("\\frac{5}{4+" * 12 + "1" + "}" * 12, "nests fractions or roots 12"),
    "nested root": ("\\sqrt{2+" * 10 + "2" + "}" * 10, "nests fractions or roots 10"),
    "power of a sum": ("(x+1)^{1000}", "raises a sum to a power of 1,001 terms"),
    "power of a trinomial": ("(x+y+1)^{20}", "231 terms"),
    "towered power of a sum": ("\\left(1+\\frac{1}{n}\\right)^{2^{40}}", "more than a billion"),
    "large binomial": ("\\binom{100000}{50000}", "binomial"),
    "long decimal": ("0." + "3" * 5000, "writes out a number of 5,001 digits"),
}


@pytest.mark.parametrize("shape", list(SLOW))
def test_a_slow_shape_is_refused_before_the_parser_with_its_reason(shape, monkeypatch):
    answer, words = SLOW[shape]
    gold = gold_from_question("43", None)
    span = prepare_span(extract_answer(f"So the answer is $\\boxed{{{answer}}}$."), gold)

    def no_parse(*args, **kwargs):
        raise AssertionError("the parser was reached")

    monkeypatch.setattr(math_verifier, "parse", no_parse)
    math_verifier.clear_caches()
    verdict = judge(gold, span)
    assert verdict.status == "error"
    assert verdict.detail is not None and verdict.detail.startswith("answer ")
    assert words in verdict.detail, verdict.detail


ORDINARY = [
    # (gold, answer) pairs near each bound: correct, and none refused
    (
        "x^8 + x^7 + x^6 + x^5 + x^4 + x^3 + x^2 + x + 1",
        "1 + x + x^2 + x^3 + x^4 + x^5 + x^6 + x^7 + x^8",
    ),
    ("\\frac{2}{3}", "\\frac{1}{1+\\frac{1}{2}}"),
    ("\\frac{\\sqrt{2+\\sqrt{2}}}{2}", "\\frac{\\sqrt{2+\\sqrt{2}}}{2}"),
    ("x^2+2x+1", "(x+1)^2"),
    ("\\frac{1}{2^{100}}", "\\left(\\frac{1}{2}\\right)^{100}"),
    ("252", "\\binom{10}{5}"),
    (
        "(1,2,3),(1,3,2),(2,1,3),(2,3,1),(3,1,2),(3,2,1)",
        "(1,2,3),(1,3,2),(2,1,3),(2,3,1),(3,1,2),(3,2,1)",
    ),
    ("1" + "0" * 80, "10^{80}"),
]


@pytest.mark.parametrize(("gold_text", "answer"), ORDINARY)
def test_an_ordinary_answer_near_a_bound_still_verifies(gold_text, answer):
    assert too_deep(answer) is None and too_deep(gold_text) is None
    gold = gold_from_question(gold_text, None)
    span = prepare_span(extract_answer(f"So the answer is $\\boxed{{{answer}}}$."), gold)
    assert judge(gold, span).status == "correct"


def test_the_measures_count_what_they_say():
    assert token_count("\\frac{12}{x}") == 7  # \frac { 12 } { x }
    assert token_count("\\text{the total, as computed above} + 1") == 3
    assert fraction_depth("\\frac{1}{2} + \\frac{1}{3}") == 1
    assert fraction_depth("\\frac12 + \\sqrt{3}") == 1
    assert fraction_depth("\\frac{\\frac{1}{2}}{3}") == 2
    assert fraction_depth("\\sqrt[3]{\\frac{1}{2}}") == 2
    assert fraction_depth("1+\\frac{1}{" * 9 + "x" + "}" * 9) == 9
    assert expanded_terms("(x-1)^2") == 3
    assert expanded_terms("(x+y+1)^{20}") == 231
    assert expanded_terms("(-1)^{1000} + \\left(\\frac{3}{4}\\right)^{100}") == 0
    assert math.isinf(expanded_terms("(x+1)^{10^{12}}"))


def test_no_gold_of_the_benchmark_files_is_refused_by_any_bound():
    golds = benchmark_golds()
    assert len(golds) > 1000
    assert [g for g in golds if too_deep(g)] == []
    # the bounds leave room above the largest real gold
    assert max(token_count(g) for g in golds) * 1.5 < MAX_TOKENS
    assert max(g.count("^") for g in golds) * 2 < MAX_POWERS
    assert max(fraction_depth(g) for g in golds) * 2 < MAX_FRACTION_DEPTH
    assert max(expanded_terms(g) for g in golds) * 2 < MAX_EXPANDED_TERMS


def test_leash_verify_gives_the_slow_shapes_error_with_the_reason_and_no_timeout(tmp_path: Path):
    answers = [SLOW[s][0] for s in ("expanded polynomial", "nested fraction", "power of a sum")]
    answers.append("43")
    rows = [
        {
            "benchmark": "m",
            "question_id": "1",
            "model": "base",
            "sample": i,
            "text": f"Let's think.\n\nSo the answer is $\\boxed{{{a}}}$.",
        }
        for i, a in enumerate(answers)
    ]
    questions = [{"benchmark": "m", "question_id": "1", "problem": "p", "gold": "43"}]
    root = write_folder(tmp_path / "r", questions, [rows], models=["base"])
    result = CliRunner().invoke(
        cli, ["verify", str(root), "--no-progress", "-j", "1", "--deadline", "3"]
    )
    assert result.exit_code == 0, result.output
    table = ResultsFolder.open(root).samples(columns=["sample", "status", "verdict_detail"])
    columns = [table[c].to_pylist() for c in ("sample", "status", "verdict_detail")]
    got = sorted(zip(*columns, strict=True))
    assert [status for _, status, _ in got] == ["error", "error", "error", "correct"]
    reasons = [detail for _, _, detail in got[:3]]
    assert "powers" in reasons[0] and "nests fractions" in reasons[1]
    assert "raises a sum to a power" in reasons[2]
