"""Reasoning Gym answers that a scorer evaluates are scored in the sandbox (issue #22 item 6).

The tasks the issue names evaluate the answer (``eval`` or sympy's parser) and must be
found so from their source; an answer that runs a shell command leaves nothing behind
and gets the task's own score for it; the sandboxed score of a right answer is the
package's own.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("reasoning_gym")

import reasoning_gym

from sampler.benchmarks.loading import load_benchmark
from sampler.verify.verifiers import get_verifier, sandbox, verifiers
from sampler.verify.verifiers.reasoning_gym_sandbox import evaluates_answers

VERIFIER = get_verifier("reasoning-gym")
needs_sandbox = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox: {sandbox.sandbox_problem()}"
)
EVALUATING = [
    "spiral_matrix",
    "binary_matrix",
    "string_insertion",
    "n_queens",
    "countdown",
    "puzzle24",
    "simple_integration",
    "polynomial_multiplication",
]


@pytest.mark.parametrize("task", EVALUATING)
def test_tasks_that_evaluate_answers_are_found_from_their_source(task):
    assert evaluates_answers(task)


@pytest.mark.parametrize("task", ["leg_counting", "family_relationships", "arc_1d"])
def test_tasks_that_only_compare_strings_are_scored_in_process(task):
    assert not evaluates_answers(task)


def _question(task: str):
    bench = load_benchmark(task, f"reasoning-gym:{task}:3:0", verifiers())
    question = bench.questions[0]
    return question, VERIFIER.gold(question.gold, json.loads(json.dumps(question.metadata)))


@needs_sandbox
@pytest.mark.parametrize("task", ["spiral_matrix", "countdown"])
def test_a_shell_command_in_the_answer_leaves_no_file(task):
    marker = Path("/tmp") / f"leash-rg-{os.getpid()}-{time.monotonic_ns()}"
    _, gold = _question(task)
    answer = f"__import__('os').system('touch {marker}')"
    span = VERIFIER.extract(f"<answer>{answer}</answer>")
    verdict = VERIFIER.judge(gold, span)
    assert not marker.exists()
    assert verdict.status in ("incorrect", "error")


@needs_sandbox
def test_the_sandboxed_score_is_the_tasks_own():
    _, gold = _question("spiral_matrix")
    entry = reasoning_gym.create_dataset("spiral_matrix", size=3, seed=0)[0]
    right = VERIFIER.judge(gold, VERIFIER.extract(f"<answer>{entry['answer']}</answer>"))
    assert right.status == "correct" and right.score == 1.0
    wrong = VERIFIER.judge(gold, VERIFIER.extract("<answer>1 2 3</answer>"))
    expected = reasoning_gym.create_dataset("spiral_matrix", size=3, seed=0).score_answer(
        "1 2 3", entry
    )
    assert wrong.score == pytest.approx(expected) and wrong.status == "incorrect"


@needs_sandbox
def test_through_the_verification_workers_as_leash_verify_grades():
    from sampler.verify.verifiers.grading import OtherVerifiers

    marker = Path("/tmp") / f"leash-rg-worker-{os.getpid()}-{time.monotonic_ns()}"
    _, gold = _question("spiral_matrix")
    entry = reasoning_gym.create_dataset("spiral_matrix", size=3, seed=0)[0]
    items = [
        ("reasoning-gym", gold, f"<answer>{entry['answer']}</answer>"),
        ("reasoning-gym", gold, f"<answer>__import__('os').system('touch {marker}')</answer>"),
    ]
    with OtherVerifiers(workers=2, deadline_s=60.0) as others:
        verdicts = others.verify(items)
    assert [v.status for v in verdicts] == ["correct", "incorrect"]
    assert not marker.exists()
