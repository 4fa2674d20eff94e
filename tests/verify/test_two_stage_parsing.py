"""Two-stage LaTeX parsing gives exactly what math-verify's own LL parse gives."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sympy import srepr

from sampler.benchmarks.presets import PRESETS, load_benchmark_file
from sampler.verify.answers import math_verifier
from sampler.verify.answers import two_stage_parsing as two_stage
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.golds import Gold, gold_from_question
from sampler.verify.workers.worker import WARM_UP
from tests.support.verify_fixtures import BENCHMARKS_DIR
from tests.verify.test_answer_verdict import CASES

#: Inputs that SLL prediction cannot parse and LL can (found on MATH-style answers): they
#: take the fallback path.
NEEDS_LL = (
    r"x^2 + 3x - 4",
    r"2 n^{2}-2 n+1",
    r"\frac{1}{4-\omega^{2}}",
    r"\dfrac{1}{6-\omega^{2}}",
)
#: Inputs with syntax errors, which both ways must reject alike.
BROKEN = (r"\frac{1}{", r"(((", r"1 +", r"\sqrt", r"x = = 2", r"\begin{pmatrix} 1 & 2")


def _clear() -> None:
    from math_verify import parser

    math_verifier.clear_caches()
    parser.parse_latex_cached.cache_clear()
    parser.parse_expr_cached.cache_clear()


def _shape(value: Any) -> Any:
    return value if isinstance(value, str) else srepr(value)


def _parses(latex: str) -> tuple:
    """math-verify's parse of ``latex`` as an answer and as a gold (or what each raised)."""
    out = []
    for parse in (
        lambda: math_verifier.parse_answer(AnswerSpan(latex)),
        lambda: math_verifier._parse_gold(latex),
    ):
        try:
            out.append(tuple(_shape(p) for p in parse()))
        except Exception as exc:  # compared as the type raised
            out.append(("raised", type(exc).__name__))
    return tuple(out)


@pytest.fixture
def both_ways() -> Iterator[Callable[[Callable[[], Any]], tuple[Any, Any]]]:
    """Run a function with latex2sympy's own parsing, then with two-stage parsing."""

    def run(fn: Callable[[], Any]) -> tuple[Any, Any]:
        two_stage.uninstall()
        _clear()
        plain = fn()
        assert two_stage.install()
        _clear()
        fast = fn()
        two_stage.uninstall()
        _clear()
        return plain, fast

    was = two_stage.installed()
    yield run
    if was:
        two_stage.install()
    else:
        two_stage.uninstall()
    _clear()


def test_install_is_idempotent_and_uninstall_restores_the_library():
    from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy

    was = two_stage.installed()
    two_stage.uninstall()
    original = _Latex2Sympy.create_parser
    try:
        assert two_stage.install() and two_stage.install()
        assert two_stage.installed()
        assert _Latex2Sympy.create_parser is not original
        two_stage.uninstall()
        assert not two_stage.installed()
        assert _Latex2Sympy.create_parser is original
    finally:
        if was:
            two_stage.install()


def test_same_parses_on_fixtures_fallback_inputs_and_syntax_errors(both_ways):
    strings = list(WARM_UP) + list(NEEDS_LL) + list(BROKEN)
    strings += [s for gold, answer, _, _ in CASES for s in (gold, answer)]
    plain, fast = both_ways(lambda: [_parses(s) for s in strings])
    assert fast == plain
    # the inputs that need the fallback do parse, to sympy expressions
    for s, parsed in zip(strings, fast, strict=True):
        if s in NEEDS_LL:
            assert parsed[0][0].startswith(("Add(", "Mul(", "Pow(")), (s, parsed)


def test_same_verdicts_and_normalised_answers_on_the_fixture_pairs(both_ways):
    pairs = [(gold_from_question(g, None), AnswerSpan(a)) for g, a, meta, _ in CASES if not meta]

    def verdicts() -> list[tuple[str, str | None]]:
        return [
            (v.status, v.answer)
            for v in (math_verifier.judge_safely(g, s) for g, s in pairs if g is not None)
        ]

    plain, fast = both_ways(verdicts)
    assert fast == plain
    assert {status for status, _ in fast} == {"correct", "incorrect"}


def test_same_parses_on_real_golds_and_near_misses(both_ways):
    """Every 16th question of each benchmark file: its gold, parts and a wrong variant."""
    rng = random.Random(7)
    strings: list[str] = []
    for name in ("math500", "aime24", "amc23", "minerva_math", "olympiadbench"):
        path = BENCHMARKS_DIR / name / "test.jsonl"
        for q in load_benchmark_file(name, str(path), PRESETS[name].mapping).questions[::16]:
            gold = gold_from_question(q.gold, q.to_row().get("metadata"))
            if gold is None:
                continue
            strings += [gold.latex, *gold.parts, f"{{{gold.latex}}}"]
            digits = [i for i, c in enumerate(gold.latex) if c.isdigit()]
            if digits:
                i = rng.choice(digits)
                strings.append(
                    gold.latex[:i] + str((int(gold.latex[i]) + 1) % 10) + gold.latex[i + 1 :]
                )
    assert strings, f"no benchmark files under {BENCHMARKS_DIR}"
    strings = list(dict.fromkeys(strings))
    plain, fast = both_ways(lambda: [_parses(s) for s in strings])
    differing = [s for s, a, b in zip(strings, plain, fast, strict=True) if a != b]
    assert differing == []
    assert len(strings) > 100


def test_gold_objects_are_unaffected_by_the_mode(both_ways):
    """A gold parsed and cached under one mode compares the same as under the other."""
    gold, span = Gold(r"\frac{\sqrt{3}}{2}"), AnswerSpan(r"\dfrac{\sqrt3}{2}")
    plain, fast = both_ways(lambda: math_verifier.judge(gold, span))
    assert plain == fast
    assert fast.status == "correct"
