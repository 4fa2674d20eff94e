"""The code verifier on real programs: each gets its status within its deadline, harming nothing.

What the sandbox keeps a program from (files, other runs, network, early exits, limits)
is tested in ``test_code_sandbox``.
"""

from __future__ import annotations

import json
import time

import pytest

from sampler.benchmarks.loading import load_benchmark
from sampler.errors import LeashError
from sampler.verify.verifiers import get_verifier, verifiers
from tests.support.records import write_jsonl

CODE = get_verifier("code")
DOUBLE_TESTS = [{"input": "2\n", "output": "4\n"}, {"input": "21\n", "output": "42"}]


def gold(tests=DOUBLE_TESTS, time_limit=2.0):
    return CODE.gold(None, {"tests": tests, "time_limit": time_limit})


def judge(program: str, g=None):
    span = CODE.extract(f"Here is my solution:\n```python\n{program}\n```\nDone.")
    started = time.monotonic()
    verdict = CODE.judge(g or gold(), span)
    return verdict, time.monotonic() - started


def test_correct_program():
    verdict, _ = judge("n = int(input())\nprint(n * 2)   ")
    assert verdict.status == "correct"


def test_wrong_program_names_the_first_failing_test():
    verdict, _ = judge("n = int(input())\nprint(n * 2 if n < 10 else n)")
    assert verdict.status == "incorrect"
    assert verdict.detail.startswith('test 2 of 2: input "21\\n", expected "42", got "21\\n"')


def test_syntax_error_is_an_error():
    verdict, _ = judge("def f(:\n  pass")
    assert verdict.status == "error" and "SyntaxError" in verdict.detail


def test_infinite_loop_times_out_within_its_deadline():
    verdict, seconds = judge("while True:\n    pass")
    assert verdict.status == "timeout"
    assert seconds < 2.0 + 3.0


def test_memory_hog_hits_the_memory_limit():
    # a deadline far beyond what hitting the limit takes, so a loaded machine cannot turn
    # the memory error into a timeout: this test is about the limit, not the deadline
    program = "chunks = []\nwhile True:\n    chunks.append(bytearray(10**8))"
    verdict, seconds = judge(program, gold(time_limit=20.0))
    assert verdict.status == "error" and "memory" in verdict.detail
    assert seconds < 20.0


def test_environment_secret_is_not_visible(monkeypatch):
    monkeypatch.setenv("LEASH_TEST_SECRET", "hunter2")
    program = "import os\nprint(os.environ.get('LEASH_TEST_SECRET', 'none'))"
    verdict, _ = judge(program, gold([{"input": "", "output": "none"}]))
    assert verdict.status == "correct"


def test_printing_100_mb_hits_the_output_limit():
    verdict, seconds = judge(
        "import sys\nfor _ in range(100):\n    sys.stdout.write('x' * 1_000_000)",
        gold([{"input": "", "output": "x"}], time_limit=5.0),
    )
    assert verdict.status == "error" and "output" in verdict.detail
    assert seconds < 5.0 + 3.0


def test_test_code_asserts():
    g = CODE.gold(None, {"test_code": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
    assert judge("def add(a, b):\n    return a + b", g)[0].status == "correct"
    wrong = judge("def add(a, b):\n    return a - b", g)[0]
    assert wrong.status == "incorrect" and "AssertionError" in wrong.detail
    crash = judge("def add(a, b):\n    return a / 0", g)[0]
    assert crash.status == "error" and "ZeroDivisionError" in crash.detail


def test_last_fenced_block_is_the_answer():
    text = "```python\nprint(1)\n```\nbetter:\n```\nprint(2)\n```"
    assert CODE.extract(text).text == "print(2)\n"
    assert CODE.extract("no code here") is None


def test_loading_a_code_benchmark(tmp_path):
    path = write_jsonl(
        tmp_path / "code.jsonl",
        [
            {"id": "double", "problem": "Double n.", "tests": DOUBLE_TESTS},
            {"id": "add", "problem": "Write add.", "test_code": "assert add(1, 2) == 3"},
        ],
    )
    bench = load_benchmark("mbpp", f"code:{path}", verifiers())
    assert bench.verifier == "code" and bench.domain == "non-math"
    assert bench.questions[0].metadata["tests"] == DOUBLE_TESTS
    assert json.dumps(bench.questions[1].metadata) == '{"test_code": "assert add(1, 2) == 3"}'
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"id": "x", "problem": "p", "tests": [{"in": 1}]}])
    with pytest.raises(LeashError, match=r"bad.jsonl line 1: tests\[0\] must be an object"):
        load_benchmark("bad", f"code:{bad}", verifiers())


def test_many_samples_run_in_parallel_and_keep_order():
    spans = [CODE.extract(f"```\nprint(int(input()) * {k})\n```") for k in (2, 3, 2)]
    results: dict[int, str] = {}
    CODE.judge_many(
        [(gold(), s) for s in spans],
        workers=2,
        deadline_s=10,
        on_result=lambda i, v: results.__setitem__(i, v.status),
    )
    assert results == {0: "correct", 1: "incorrect", 2: "correct"}
