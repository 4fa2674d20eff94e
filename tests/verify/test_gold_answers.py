"""Gold answers: the preset quirks (floats, $...$, multi-part lists, units)."""

from __future__ import annotations

import json

import pytest

from sampler.verify.answers.golds import (
    Gold,
    answer_parts,
    gold_from_question,
    split_top_level,
    strip_unit,
)
from sampler.verify.answers.units import canonical_unit


def test_bare_latex_is_wrapped_in_math_mode_for_parsing():
    gold = gold_from_question(r"\dfrac{9}{7}")
    assert gold == Gold(r"\dfrac{9}{7}")
    assert gold.parse_input == r"$\dfrac{9}{7}$"


@pytest.mark.parametrize(("raw", "latex"), [("27.0", "27"), ("-3.00", "-3"), ("2.5", "2.5")])
def test_integral_float_golds_lose_their_decimals(raw, latex):
    assert gold_from_question(raw).latex == latex


def test_math_delimiters_are_removed_but_escaped_dollars_kept():
    assert gold_from_question(r"$\frac{41}{12}$").latex == r"\frac{41}{12}"
    assert gold_from_question(r"\$18.90").latex == r"\$18.90"


def test_missing_gold_is_none():
    assert gold_from_question(None) is None
    assert gold_from_question("  ") is None


def test_olympiadbench_multiple_answers_become_parts():
    meta = json.dumps({"is_multiple_answer": True})
    gold = gold_from_question("$(6,3),(9,3),(9,5),(54,5)$", meta)
    assert gold.parts == ("(6,3)", "(9,3)", "(9,5)", "(54,5)")
    assert gold_from_question("$69$,$84$", meta).parts == ("69", "84")


def test_single_answer_with_commas_is_not_split():
    meta = json.dumps({"is_multiple_answer": False})
    assert gold_from_question("(1,2)", meta).parts == ()
    assert gold_from_question("10,\\!080").parts == ()


def test_gold_parts_from_metadata_win():
    gold = gold_from_question("3, 5", {"gold_parts": ["3", "5.0"]})
    assert gold.parts == ("3", "5")


def test_unit_comes_from_metadata():
    assert gold_from_question("45", {"unit": "minute"}).unit == "min"
    assert gold_from_question("166", {"unit": "$cm^2$"}).unit == "cm^2"


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("1,2,3", ["1", "2", "3"]),
        ("(1,2), [3,4)", ["(1,2)", "[3,4)"]),
        (r"\{1,2\}, 3", [r"\{1,2\}", "3"]),
        (r"1\,000, 2", [r"1\,000", "2"]),
        (r"\left( 3, \frac{\pi}{2} \right)", [r"\left( 3, \frac{\pi}{2} \right)"]),
    ],
)
def test_split_top_level(text, parts):
    assert split_top_level(text) == parts


def test_answer_parts_accept_and():
    assert answer_parts(r"f(x)=x \text{ and } f(x)=-x") == ["f(x)=x", "f(x)=-x"]


@pytest.mark.parametrize(
    ("answer", "unit", "expected"),
    [
        (r"\frac{600}{7} \text{ km/h}", "km/h", r"\frac{600}{7}"),
        (r"\frac{600}{7} km/h", "km/h", r"\frac{600}{7}"),
        (r"166 \mathrm{~cm}^{2}", "$cm^2$", "166"),
        ("45 minutes", "minute", "45"),
        (r"4.2\%", "%", r"4.2\%"),  # a percent sign is judged by value (math_verifier)
        ("8", "min", "8"),
        (r"x^{\circ}", "km", r"x^{\circ}"),
    ],
)
def test_strip_unit(answer, unit, expected):
    assert strip_unit(answer, canonical_unit(unit)) == expected


def test_unit_inside_a_word_or_an_expression_is_not_stripped():
    assert strip_unit("mm", "m") == "mm"
    assert strip_unit(r"\frac{3}{s}", "s") == r"\frac{3}{s}"
    assert strip_unit(r"12 \text{ s}", "s") == "12"
