"""A Reasoning Gym answer cannot forge its score (issue #33 item 3).

The sandboxed scorer evaluates an answer only when it is data; an answer that reads the
scorer's nonce and prints ``<nonce> 1.0`` (the issue's forgery) is never run, and scores
what the task gives an unparseable answer. Right answers still get the task's own score.
"""

from __future__ import annotations

import ast
import json

import pytest

from sampler.verify.verifiers.reasoning_gym_scorer import Guard, NotData, is_data

FORGERIES = [
    # the issue's: read the nonce from the scorer's __main__ and print it with a full score
    "__import__('os').write(1, ('\\n' + __import__('sys').modules['__main__'].nonce"
    " + ' 1.0\\n').encode()) or __import__('os')._exit(0)",
    "print(__import__('sys')._getframe(1).f_globals.get('nonce'), 1.0) or exit(0)",
    "[c for c in ().__class__.__base__.__subclasses__()]",
    "(lambda: exit(0))()",
    "open('/proc/self/fd/1', 'w').write('x')",
    "exec('import os')",
    "getattr(__builtins__, 'exit')(0)",
    "f'{exit(0)}'",
    "sympify('exit(0)')",
]


@pytest.mark.parametrize("answer", FORGERIES)
def test_code_in_an_answer_is_not_data(answer):
    assert is_data(ast.parse(answer, mode="eval")) is not None


@pytest.mark.parametrize(
    "answer", ["[[1, 2], [3, 4]]", "(3 + 5) * 7 - 2", "x**3/3 + C", "-2*cos(x) + sqrt(2)*E"]
)
def test_answers_that_are_data_are_accepted(answer):
    assert is_data(ast.parse(answer, mode="eval")) is None


def test_the_guard_refuses_every_evaluator_and_lets_data_through():
    guard = Guard()
    for run in (
        lambda: guard.guarded_eval("__import__('os')"),
        lambda: guard.guarded_exec("import os"),
        lambda: guard.guarded_compile("__import__('os')", "<string>", "eval"),
        lambda: guard.guarded_eval(compile("1", "<string>", "eval")),  # not made by the guard
    ):
        with pytest.raises(NotData):
            run()
    assert guard.refused == 4
    assert guard.guarded_eval("[1, 2 + 3]") == [1, 5]
    assert guard.guarded_eval(guard.guarded_compile("2 * 4", "<string>", "eval")) == 8


rg = pytest.importorskip("reasoning_gym")

from sampler.benchmarks.loading import load_benchmark  # noqa: E402
from sampler.verify.verifiers import get_verifier, sandbox, verifiers  # noqa: E402

VERIFIER = get_verifier("reasoning-gym")
needs_sandbox = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox: {sandbox.sandbox_problem()}"
)


def _golds(task: str, size: int = 4):
    bench = load_benchmark(task, f"reasoning-gym:{task}:{size}:0", verifiers())
    return [VERIFIER.gold(q.gold, json.loads(json.dumps(q.metadata))) for q in bench.questions]


@needs_sandbox
@pytest.mark.parametrize("task", ["spiral_matrix", "countdown", "string_insertion"])
def test_the_forging_answer_does_not_score(task):
    forged = FORGERIES[0]
    for gold in _golds(task, size=1):
        verdict = VERIFIER.judge(gold, VERIFIER.extract(f"<answer>{forged}</answer>"))
        assert verdict.status != "correct" and (verdict.score or 0.0) < 1.0, verdict
        assert verdict.detail and "not data" in verdict.detail


@needs_sandbox
@pytest.mark.parametrize("task", ["countdown", "polynomial_multiplication"])
def test_right_answers_still_get_the_tasks_own_score(task):
    dataset = rg.create_dataset(task, size=1, seed=0)
    for index, gold in enumerate(_golds(task, size=1)):
        entry = dataset[index]
        verdict = VERIFIER.judge(gold, VERIFIER.extract(f"<answer>{entry['answer']}</answer>"))
        assert verdict.score == pytest.approx(dataset.score_answer(entry["answer"], entry))
        assert verdict.status == "correct" and verdict.detail is None
