"""The R1-zero tag protocol as base models trained with GRPO break it.

From saved GRPO rollouts of Qwen2.5-Math-1.5B with the r1_zero prompt (the prompt ends with
``<think>``), graded with that opening tag:

- thinking never closed (or closed with ``</end think>``, ``<end think>``), then a complete
  ``<answer>X</answer>`` block: the answer block (it was read as thinking cut off);
- a final box followed only by a verification code block or a stray ``</answer>``;
- an answer tag closed with ``</think>`` (``<answer> 1004 </think>``);
- a hedge of one function's values (``f(100) = 0 or f(100) = 50``) is a hedge (math-verify
  calls the two equations equal: a false accept).
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


def _status(gold: str, completion: str) -> str:
    return grade_completion(gold, completion).status


@pytest.mark.parametrize(
    ("gold", "completion"),
    [
        ("10001", "<think> Analysis </end think> <answer> 10001 </answer>"),
        ("8", "<think> we get 8 <end think> <answer> $8$ </answer>"),
        ("29", "<think> 29 leaves 5. So $n$ is 29.\nThe final answer is <answer> 29 </answer>"),
        (
            "48",
            "<think> Thus, the answer is:\n\\[\n\\boxed{48}\n\\]\n\nHere is Python code to "
            "verify it:\n```python\nprint(6*8)\n```",
        ),
        ("2", "<think> Thus, the answer is $\\boxed{2}.$</answer>"),
        ("1004", "<think> so it is 1004. </think> <answer> 1004 </think>"),
    ],
)
def test_a_broken_protocol_still_states_its_answer(gold, completion):
    assert _status(gold, completion) == "correct"
    assert _status(gold + "1", completion) == "incorrect"


def test_a_hedge_of_one_functions_values_is_a_hedge():
    completion = "<answer> f(100) = 0 or f(100) = 50 or f(100) = 100 </answer>"
    assert _status("0", completion) == "incorrect"
    assert _status("0", "<answer> f(100) = 0 </answer>") == "correct"
