"""A gold that is the last line of a worked solution: the value its derivation closes with;
and a concluding sentence that closes with a unit keeps it.

Found where leash stood below math-verify alone: Vietnamese physics golds such as
``Biên độ: A = vmax/ω = 8π/2π = 4 (cm)``, and a Russian olympiad's
``\\lim_{n\\to\\infty} X_n/n^2 = \\frac38``. Each accepted case has a wrong twin, and the
golds that only look alike (an equation, a named value, a list of named values, an
approximation of an exact form) keep their meaning. A gold with a unit is judged in its
unit, so the answer's unit must reach the comparison: "v_max = 10 m/s." is not 10 cm/s."""

from __future__ import annotations

import pytest

from sampler.verify.answers.derived_gold import derived_value
from sampler.verify.answers.one_sample import grade_completion

SPEED = "Tốc độ cực đại: vmax = A.ω = 1.10 = 10 (cm/s)"
INTERVAL = (
    "Khoảng thời gian giữa hai lần liên tiếp vật đi qua vị trí cân bằng là T/2 = 0,5/2 = 0,25 s"
)
SPEED_GIVENS = "Thay A = 6, ω = 2π, ωt + φ = π/3 vào phương trình trên, ta được |v| = 6π√3 (cm/s)"
LIMIT = "\\(\\displaystyle \\lim_{n\\to\\infty}\\frac{X_n}{n^2}=\\frac38\\)."


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        (SPEED, "Vậy tốc độ cực đại của vật là v_max = 10 cm/s.", "correct"),
        (SPEED, "Vậy tốc độ cực đại của vật là v_max = 11 cm/s.", "incorrect"),
        (SPEED, "Vậy tốc độ cực đại của vật là v_max = 10 m/s.", "incorrect"),
        (INTERVAL, "Khoảng thời gian cần tìm là 0,25 s.", "correct"),
        (INTERVAL, "The answer is $0.25$ s.", "correct"),
        (INTERVAL, "Khoảng thời gian cần tìm là 0,5 s.", "incorrect"),
        (SPEED_GIVENS, "Final answer: $|v| = 6\\sqrt{3}\\pi$ cm/s", "correct"),
        (SPEED_GIVENS, "Final answer: $|v| = 6$ cm/s", "incorrect"),
        ("f = ω/2π = 1 (Hz)", "Tần số dao động là f = 1 Hz.", "correct"),
        ("f = ω/2π = 1 (Hz)", "Tần số dao động là f = 2 Hz.", "incorrect"),
        (LIMIT, "The limit is 3/8.\n\nFinal answer: \\(3/8\\)", "correct"),
        (LIMIT, "Final answer: \\(3/4\\)", "incorrect"),
        ("The total is 3 + 4 = 7", "The answer is 7.", "correct"),
        ("The total is 3 + 4 = 7", "The answer is 4.", "incorrect"),
        # only alike: a list of named values, whose last member is not the answer
        ("a = 2, b = 3", "The answer is 3.", "incorrect"),
        ("The roots are x = 2, y = 3", "The answer is 3.", "incorrect"),
        # only alike: an equation whose sides hold variables, and one named value
        ("5x - 7y + 11z + 4 = 0", "The answer is 0.", "incorrect"),
        ("y = 2x + 3", "The answer is 3.", "incorrect"),
        ("x = 5", "The answer is 5.", "correct"),
        ("x = 5", "The answer is 6.", "incorrect"),
    ],
)
def test_a_derivation_gold_is_the_value_it_closes_with(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion).status == expected


@pytest.mark.parametrize(
    ("gold", "value"),
    [
        (SPEED, ("10", "cm/s")),
        (INTERVAL, ("0.25", "s")),
        (SPEED_GIVENS, ("6π√3", "cm/s")),
        ("Tại t = 2 s, pha của dao động là: ωt + φ = 10t = 10.2 = 20 rad", ("20", "rad")),
        ("\\lim_{n\\to\\infty}\\frac{X_n}{n^2}=\\frac38", ("\\frac38", None)),
        ("Total amount Pepsico may borrow = $8,400,000,000.", ("$8,400,000,000", None)),
        ("c, Thay t = 1 vào phương trình li độ x, ta có: x = √3 (cm)", ("√3", "cm")),
    ],
)
def test_the_value_and_unit_a_derivation_closes_with(
    gold: str, value: tuple[str, str | None]
) -> None:
    assert derived_value(gold) == value


@pytest.mark.parametrize(
    "gold",
    [
        "x = 5",  # one named value: the comparison reads it as it is
        "E=15",
        "a = 2, b = 3",  # a list of named values
        "x_{1}=10^{\\frac{-5+\\sqrt{13}}{6}},\\quad x_{2}=10^{\\frac{-5-\\sqrt{13}}{6}}",
        "=2,=-6-4\\sqrt{2}",  # named values whose names were lost
        "5x - 7y + 11z + 4 = 0",  # an equation
        "y^{\\prime}+ry-rx(t)=0",
        "y = 2x + 3",
        "\\frac{NO}{BO}=\\frac{1}{\\sqrt{6}}",  # a named ratio, not a derivation
        "\\frac{\\sqrt{3}}{3} \\approx 0.577",  # an approximation of an exact gold
        "x = 24cos(πt/2 +π) (cm)",  # a function of t
        "Vậy phần năng lượng mất đi: ΔE = E - E' = E - 0,97^2.E = 0,0591E",
        "Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether.",
        "42",
        # the last relation a condition (OlympiadBench 1965)
        "$f(x)=a x+b$, where $b$ is an arbitrary integer, and $a$ is an arbitrary positive"
        " integer with $\\mho(a)=0$",
    ],
)
def test_golds_that_only_look_derived_keep_their_meaning(gold: str) -> None:
    assert derived_value(gold) is None


@pytest.mark.parametrize(
    ("gold", "completion", "expected", "answer"),
    [
        # a concluding sentence keeps the unit it closes with: another unit is another value
        ("10 cm/s", "So the maximum speed is v_max = 10 m/s.", "incorrect", "10 m/s"),
        ("10 cm/s", "So the maximum speed is v_max = 10 cm/s.", "correct", "10 cm/s"),
        ("10 cm", "So the length is 0.1 m.", "correct", "0.1 m"),
        ("10 cm", "So the length is 0.2 m.", "incorrect", "0.2 m"),
        # words after the number that are no unit, or a sentence that goes on: the number
        ("12 cm", "So there are 12 in total.", "correct", "12"),
        ("12", "So he has 12 apples.", "correct", "12"),
        ("12", "So he has 12 apples left over.", "correct", "12"),
        ("5", "Therefore, x = 5.", "correct", "5"),
        # a sentence that states several values keeps them for a gold of several parts
        (
            "135.0, 23.0",
            "Therefore, the speed of the wind is 23 km/h and the speed of the plane is 135 km/h.",
            "correct",
            "135",
        ),
    ],
)
def test_a_concluding_sentence_keeps_the_unit_it_closes_with(
    gold: str, completion: str, expected: str, answer: str
) -> None:
    graded = grade_completion(gold, completion)
    assert (graded.status, graded.answer) == (expected, answer)
