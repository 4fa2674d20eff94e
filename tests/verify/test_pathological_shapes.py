"""No rule takes super-linear time on the shapes that break regular expressions.

Round 19 found two patterns that backtracked exponentially on real data: CJK unit atoms
that a sentence of Chinese could be cut into in every way (a 33-character gold took 12 s,
each character more doubled it), and a quoted answer block whose lines could be split 12
ways (PAL's programs, which close with a docstring, took seconds each). ``leash verify``
has a per-answer deadline for judging, none for reading a gold or an answer, so such a
pattern hangs a run. Each shape below repeats what one family of rules keys on, long enough
that an exponential pattern never finishes and a linear one takes milliseconds; the alarm
only stops a hang, it measures nothing.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion
from tests.support.hang_guard import alarm

SHAPES = {
    "a sentence of Chinese": "不可能把热量从低温物体传到高温物体而不引起其它变化" * 8 + "。",
    "Chinese with a number": "在热平衡状态下物质分子的每一个自由度" * 6 + "3个，6个",
    "an open quoted block": 'Answer:\n"""\n' + "a line of the answer\n" * 40,
    "a docstring that closes": 'def f():\n    """\n' + "    x = 1\n" * 60 + '    """',
    "quote fences": '"""\n' * 400,
    "backtick fences": "Final answer:\n```\n" + "1\n" * 60 + "``",
    "thousands commas": "1," * 3000 + "x",
    "dollar signs": "$" * 4000,
    "parentheses": "(" * 3000,
    "boxes": "\\boxed{" * 1500,
    "dialogue turns": "User: a\nAssistant: b\n" * 400,
    "step labels": "Step 1: " * 1500,
    "spaces": " " * 6000 + "x",
    "short words": "a " * 4000 + ".",
    "bold marks": "**" * 3000,
    "scale words": "5 million " * 1000,
    "colons and line breaks": ":\n" * 3000,
    "option labels": "(A) " * 2000,
    "end tokens": "<eoa>x" * 1500,
    # round 20's rules: relations, units in parentheses, assignments, grid rows, LaTeX labels
    "relations": "a = " * 2000 + "1",
    "parenthesised units": "= 1 (" * 1500 + "cm)",
    "assignments": "Zoey is a knight, " * 600 + "and",
    "grid rows": "1 2 3\n" * 1500 + "1 2",
    "latex option labels": "\\textbf{(A)}\\ 1 \\qquad " * 600,
    "greek letters": "θ " * 3000,
    # round 21's rules: escaped text, named values, claims, forced boxes, remarks, thin spaces
    "doubled backslashes": "\\\\frac{" * 2000,
    "written line breaks": "\\n" * 3000 + "x",
    "named values": "\\hat{x}_{" * 1000 + "= 1",
    "claims": "the claim that " * 600 + "is true",
    "forced boxes": "the answer is \\(\\boxed{" * 800,
    "remarks": " ~" * 3000 + "(approximately",
    "thin-space commas": "1,\\!" * 2000 + "920",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_pathological_completion_is_read_without_hanging(shape: str) -> None:
    with alarm(20):
        graded = grade_completion("42", SHAPES[shape], problem=SHAPES[shape][:1500])
    assert graded.status != "correct"


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_pathological_gold_is_read_without_hanging(shape: str) -> None:
    with alarm(20):
        graded = grade_completion(SHAPES[shape][:400], "The answer is 42.")
    assert graded.status != "correct"
