"""A display answer whose symbols a line defines after it, and numbers in scientific notation.

The classes, from evaluation dumps on Minerva Math (PRIME-RL/PRIME's Qwen2.5-Math-style
outputs of Qwen2.5-Math-7B-Instruct, Llama-3.1-8B-Instruct and PRIME's SFT model):

- "The equation is:\\n\\n$$\\frac{dx}{dt} = kx - a$$\\n\\nwhere $x$ is …": the definitions
  were read as a statement in words and the display, which states the answer, was not;
- a gold in scientific notation with decimals (``4.4e7``, ``4.6 \\times 10^{-24}``) did
  not read a more precise answer that rounds to it at its last stated digit, as a plain
  decimal gold does; an answer in scientific notation (``5.907 \\times 10^{-3}``) did not
  round to a plain decimal gold (``0.006``);
- ASCII scientific notation (``1.07 x 10^16``, ``1.07*10**16``) was read with a variable x;
- the twins: an answer that does not round to the gold, or states less precision than it,
  stays wrong; a gold with a variable x keeps reading x as one.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.gold_types import rounds_to
from sampler.verify.answers.one_sample import grade_completion

ODE = "The equation is:\n\n$$\\frac{dx}{dt} = kx - a$$\n\n"
DEFINITIONS = "where $x(t)$ is the population at time $t$, $k$ the growth rate, $a$ the harvest."


def _status(gold: str, text: str) -> str:
    return grade_completion(gold, text).status


@pytest.mark.parametrize(
    "after",
    [
        "",
        "\n\nThis equation balances growth against harvesting. It is a basic model.",
    ],
)
def test_a_display_is_read_past_the_line_that_defines_its_symbols(after):
    text = ODE + DEFINITIONS + after
    assert _status("\\frac{dx}{dt}=kx-a", text) == "correct"
    assert _status("\\frac{dx}{dt}=kx+a", text) == "incorrect"


def test_definitions_after_prose_are_read_as_before():
    text = "We use the formula $E = mc^2$ for the energy.\nwhere $m$ is the mass and $c$ is 9."
    assert _status("9", text) == "correct"


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("4.4e7", "44281397"),
        ("4.4e7", "4.43 \\times 10^7"),
        ("4.4 \\times 10^{7}", "44281397"),
        ("4.6e-24", "4.57 \\times 10^{-24}"),
        ("3.3e12", "3.275 \\times 10^{12}"),
        ("0.006", "5.907 \\times 10^{-3}"),
        ("0.006", "5.907e-3"),
    ],
)
def test_a_more_precise_answer_rounds_to_a_gold_in_scientific_notation(gold, answer):
    assert rounds_to(gold, answer) is True
    assert _status(gold, f"So the result is $\\boxed{{{answer}}}$.") == "correct"


@pytest.mark.parametrize(
    ("gold", "answer", "rounds"),
    [
        ("4.4e7", "45281397", False),
        ("4.4e7", "4.5 \\times 10^7", None),  # no more precise: compared as it is
        ("0.006", "6.907 \\times 10^{-3}", False),
        ("5e7", "46000000", None),  # a gold without decimals states no precision
    ],
)
def test_an_answer_that_does_not_round_to_the_gold_stays_wrong(gold, answer, rounds):
    assert rounds_to(gold, answer) is rounds
    assert _status(gold, f"So the result is $\\boxed{{{answer}}}$.") == "incorrect"


@pytest.mark.parametrize(
    "answer", ["\\boxed{1.07 x 10^16}", "\\boxed{1.07*10**16}", "The answer is 1.07 x 10^16 m."]
)
def test_ascii_scientific_notation_is_a_power_of_ten(answer):
    assert _status("1.07e16", answer) == "correct"
    assert _status("1.08e16", answer) == "incorrect"


def test_a_gold_with_a_variable_x_keeps_reading_x():
    assert _status("2x \\cdot 10^{3}", "\\boxed{2 x 10^3}") == "correct"
    assert _status("2x \\cdot 10^{3}", "\\boxed{2 \\times 10^3}") == "incorrect"
