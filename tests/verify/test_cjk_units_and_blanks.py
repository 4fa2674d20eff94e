"""Chinese, Japanese and Korean units and sentences in a box, and a fill-in blank's equation.

The classes, from ChatGPT's saved answers to Ape210K (Chinese primary-school word problems,
"put the answer in \\boxed{}"):

- a number with a unit written in CJK characters, bare (``\\boxed{825米}``, ``\\boxed{160元}``,
  ``\\boxed{5個}``, ``\\boxed{0.5 平方米}``, ``\\boxed{30千米/小时}``), was compared whole;
- a sentence in the box (``\\boxed{\\text{奶糖有 12 块}}``,
  ``\\boxed{AB两地之间的总距离为1050千米}``) whose one number is the answer was compared whole;
- a fill-in blank's equation (``\\boxed{\\Box = 7}``, ``□ = 7``, ``(\\ ) = 7``) is the
  blank's value.

Each with a twin that must stay wrong; a CJK unit other than the gold's is a different unit.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from sampler.verify.answers.units import split_unit


def _status(gold: str, completion: str) -> str:
    return grade_completion(gold, completion).status


@pytest.mark.parametrize(
    ("gold", "wrong", "box"),
    [
        ("825", "826", "825米"),
        ("160", "161", "160元"),
        ("5", "6", "5個"),
        ("0.5", "0.6", "0.5 平方米"),
        ("3/4", "1/4", "\\frac{3}{4}千克"),
        ("30", "31", "30千米/小时"),
        ("12", "13", "\\text{奶糖有 12 块}"),
        ("1050", "1051", "AB两地之间的总距离为1050千米"),
        ("3", "4", "新的体积是原来体积的 3 倍"),
        ("7", "8", "\\Box = 7"),
        ("7", "8", "□ = 7"),
        ("7", "8", "(\\ ) = 7"),
    ],
)
def test_cjk_units_sentences_and_blanks_in_a_box(gold, wrong, box):
    completion = f"所以答案是 \\boxed{{{box}}}。"
    assert _status(gold, completion) == "correct"
    assert _status(wrong, completion) == "incorrect"


def test_a_cjk_unit_is_named_and_another_one_differs():
    assert split_unit("825米") == ("825", "米")
    assert _status("825米", "\\boxed{825米}") == "correct"
    assert _status("825米", "\\boxed{825元}") == "incorrect"
