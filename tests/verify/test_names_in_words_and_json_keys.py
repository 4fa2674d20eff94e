"""Round 16, third part, from a medical multiple-choice run that answers in JSON (GPT-4.1 and
Claude on MedQA): a gold that is a name in words is compared as text even where it holds
a "+", parentheses, a hyphenated long name or a number that is part of a word (read as
math, "Dorsal part of 2nd pouch." was its 2 and counted right for "Ventral part of 2nd
pouch."); the value of an ``"answer_text"`` key (and ``answer_value``, ``answer_letter``, …)
is the answer. Each with its wrong twin."""

from __future__ import annotations

import json

import pytest

from sampler.verify.answers.gold_types import gold_kind
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("Ventral part of 2nd pouch.", "Ventral part of 2nd pouch.", "correct"),
        ("Ventral part of 2nd pouch.", "Dorsal part of 2nd pouch.", "incorrect"),  # was right
        ("Oral mifepristone + misoprostol", "Oral mifepristone + misoprostol", "correct"),
        ("Oral mifepristone + misoprostol", "Oxytocin-induced labor", "incorrect"),
        ("Intravenous immunoglobulin (IVIG)", "intravenous immunoglobulin (IVIG)", "correct"),
        ("Intravenous immunoglobulin (IVIG)", "Plasma exchange (PLEX)", "incorrect"),
        ("Granulocyte-macrophage colony-stimulating factor",
         "Granulocyte-macrophage colony-stimulating factor", "correct"),
        ("Globular 10-week sized uterus", "Globular 10-week sized uterus", "correct"),
        ("Globular 10-week sized uterus", "Globular 12-week sized uterus", "incorrect"),
    ],
)  # fmt: skip
def test_a_name_in_words_is_compared_as_text(gold, answer, status):
    reply = json.dumps({"answer_index": 2, "answer_text": answer, "confidence": 9,
                        "reasoning": "The presentation is classic."})  # fmt: skip
    assert grade_completion(gold, reply).status == status


@pytest.mark.parametrize(
    "gold", ["12 square feet", "Type 2 diabetes", "5 apples and 3 oranges", "x + 2y", "3/4"]
)
def test_values_in_words_and_formulas_stay_math(gold):
    assert gold_kind(gold) == ""


@pytest.mark.parametrize(
    ("key", "status"),
    [("answer_text", "correct"), ("answer_value", "correct"), ("final_answer", "correct"),
     ("answer_index", "no_answer")],  # an index: counted from 0 or from 1, unknown
)  # fmt: skip
def test_the_answer_keys_of_a_json_reply(key, status):
    reply = json.dumps({key: "42", "confidence": 8, "reasoning": "six times seven"})
    assert grade_completion("42", reply).status == status


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("40 days, 07:10", "40 days, 07:10", "correct"),  # written as the gold: no parser reads it
        ("40 days, 07:10", "40 days, 07:11", "incorrect"),
        ("Only ①③", "Only ①③", "correct"),
        ("-0x2d6f", "-0x2D6F", "correct"),  # a hexadecimal number in other case
        ("-0x2d6f", "0x2D6F", "incorrect"),
        ("-3*x*atan(2*x) + 3*log(4*x**2 + 1)/4 + C", "-3*x*atan(2*x) + (3/4)*ln(1 + 4*x**2) + C",
         "correct"),  # sympy's log is the natural logarithm
        ("-3*x*atan(2*x) + 3*log(4*x**2 + 1)/4 + C", "-3*x*atan(2*x) + (3/4)*ln(1 + 4*x**2) + 2*C",
         "incorrect"),
        ("3*log(x)", "3*ln(x)+1", "incorrect"),
    ],
)  # fmt: skip
def test_an_answer_written_as_its_gold_and_sympys_logarithm(gold, answer, status):
    assert grade_completion(gold, f"<answer>{answer}</answer>").status == status
