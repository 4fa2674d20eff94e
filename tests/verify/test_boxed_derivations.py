"""A box that holds a derivation: its conclusion is the answer.

From frontier models' Omni-MATH runs, one of which boxes its whole working, and physics
answers with a closing qualifier:

- ``\\boxed{\\sqrt{100-x}=9 \\Rightarrow 100-x=81 \\Rightarrow x=19}``: the clause after the
  last implication;
- ``\\boxed{\\begin{aligned} … \\\\ \\therefore AD=\\frac{63}{4}. \\end{aligned}}``: the last
  row;
- ``\\boxed{\\text{So there are }1232\\text{ integers between }1\\text{ and }2000 …}``: the
  sentence, whose one value the question did not give is the answer;
- ``\\boxed{C_n=\\frac{1}{2n}\\quad\\text{for all integers }n\\ge2.}``: without the qualifier.

The twins: a wrong conclusion stays wrong, and a matrix, a set, a labelled value and a
list of named values are values, not derivations.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.boxed_derivation import derivation_conclusion
from sampler.verify.answers.one_sample import grade_completion

COPRIME = "How many integers between 1 and 2000 inclusive are coprime to 2001?"


def _status(gold: str, box: str, problem: str | None = None) -> str:
    return grade_completion(gold, f"Hence\n$$\\boxed{{{box}}}$$", problem=problem).status


@pytest.mark.parametrize(
    ("gold", "wrong", "box", "problem"),
    [
        ("19", "81", "\\sqrt{100-x}=9 \\;\\Rightarrow\\; 100-x=81 \\;\\Rightarrow\\; x=19", None),
        ("1", "5", "3-5+7=5,\\ \\text{so }5=6-x\\Rightarrow x=1", None),
        (
            "\\frac{63}{4}",
            "12",
            "\\begin{aligned} &\\text{Let }a=BC=14,\\; b=CA=13 \\\\ "
            "&\\therefore AD=AH+HD=12+\\frac{15}{4}=\\frac{63}{4}. \\end{aligned}",
            None,
        ),
        (
            "1232",
            "2001",
            "\\text{So there are }1232\\text{ integers between }1\\text{ and }2000"
            "\\text{ inclusive that are coprime to }2001.",
            COPRIME,
        ),
        (
            "65536",
            "16",
            "\\text{There are }2^4=16\\text{ possible inputs. Each gets TRUE or FALSE, so there"
            " are }2^{16}=65{,}536\\text{ such programs.}",
            None,
        ),
        (
            "\\frac{1}{2n}",
            "\\frac{1}{n}",
            "C_n=\\frac{1}{2n}\\quad\\text{for all integers }n\\ge2.",
            None,
        ),
        ("0.017", "0.018", "x \\approx 0.017 \\quad (\\text{eastward})", None),
    ],
)
def test_a_boxed_derivation_is_read_at_its_conclusion(gold, wrong, box, problem):
    assert _status(gold, box, problem) == "correct"
    assert _status(wrong, box, problem) == "incorrect"


@pytest.mark.parametrize(
    "box",
    [
        "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
        "\\{x \\mid x \\text{ is even}\\}",
        "\\text{Ratio of intensities} = 2 : 1",
        "a=1, b=2",
        "x = 19",
    ],
)
def test_a_value_is_no_derivation(box):
    assert derivation_conclusion(box) is None


def test_a_matrix_and_a_labelled_ratio_still_compare_whole():
    matrix = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"
    assert _status(matrix, matrix) == "correct"
    assert _status("2:1", "\\text{Ratio of intensities} = 2 : 1") == "correct"
