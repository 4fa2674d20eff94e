"""``code``: run the completion's last fenced code block against the question's tests.

A code benchmark's line has ``id``, ``problem`` and either ``tests``, a list of
``{"input": STDIN, "output": EXPECTED_STDOUT}`` (compared line by line, trailing white
space and trailing blank lines ignored), or ``test_code``, Python asserts about the
solution's functions; ``time_limit`` (seconds per test) is optional, and
``--deadline`` bounds it too. Each test runs in its own bubblewrap sandbox
(``sandbox``: a minimal read-only root, private scratch, no network, one budget,
killed from outside at its deadline), several samples at a time in threads of this
process. The program never sees the expected output: it is compared outside. With
``test_code`` the harness (``code_harness``, the sandbox's first process) forks the
program into a child that never holds the nonce or the asserts (they reach the harness
on its stdin, after the fork), runs the asserts itself on values that cross a pipe as
data, compared strictly (builtin types, then values; never the program's ``__eq__``),
and prints the nonce with its verdict; without the nonce (the program ended the run)
the sample is ``incorrect``. A program's own ``sys.exit()`` at its end does not skip
the asserts. Statuses: ``correct``;
``incorrect`` with the first failing test in ``verdict_detail``; ``timeout``; ``error``
(a crash, a syntax error or a limit hit).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from sampler.benchmarks.files import Record
from sampler.benchmarks.presets import FieldMapping, Question
from sampler.errors import LeashError
from sampler.store import STATUS_CORRECT, STATUS_ERROR, STATUS_INCORRECT, STATUS_TIMEOUT
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import Verdict
from sampler.verify.verifiers.base import Verifier, clip
from sampler.verify.verifiers.sandbox import (
    Limits,
    RunResult,
    SandboxUnavailable,
    python_executable,
    run_python,
    run_sandboxed,
)

_FENCE = "```"
#: Seconds each test may run unless the benchmark line says ``time_limit``.
DEFAULT_TIME_LIMIT_S = 6.0
MAX_TIME_LIMIT_S = 60.0
_SHOWN = 200  # characters of input, expected and actual output kept in the detail


#: The harness (``code_harness``) runs the program in a child and the tests itself.
_HARNESS_PATH = "/work/harness.py"
_PROGRAM_PATH = "/work/solution.py"


@cache
def _harness_source() -> bytes:
    return Path(__file__).with_name("code_harness.py").read_bytes()


def last_fenced_block(text: str) -> str | None:
    """The body of the last fenced code block, in one left-to-right pass (linear time).

    A block opens at a fence (three backticks), its body starts after the end of that
    line and ends at the next fence; scanning resumes after it.
    """
    found, pos = None, 0
    while True:
        start = text.find(_FENCE, pos)
        if start < 0:
            return found
        newline = text.find("\n", start + len(_FENCE))
        if newline < 0:
            return found
        end = text.find(_FENCE, newline + 1)
        if end < 0:
            return found
        found, pos = text[newline + 1 : end], end + len(_FENCE)


def run_test_code(program: str, tests: str, limits: Limits) -> tuple[RunResult, str | None]:
    """Run the program and its tests under the harness; its verdict line, None without one.

    The nonce and the tests reach the harness on its stdin (a memory file it reads after
    it has forked the program's process, which closed its copy first); the verdict is the
    harness's last line when it starts with the nonce: ``ok``, ``fail ...`` or ``error ...``.
    """
    nonce = secrets.token_hex(16)
    stdin = os.memfd_create("tests", 0)
    try:
        os.write(stdin, nonce.encode() + b"\n" + tests.encode("utf-8"))
        os.lseek(stdin, 0, os.SEEK_SET)
        files = {_HARNESS_PATH: _harness_source(), _PROGRAM_PATH: program.encode("utf-8")}
        argv = [python_executable(), "-I", _HARNESS_PATH, _PROGRAM_PATH]
        result = run_sandboxed(files, argv, stdin, limits, harness=1)
    finally:
        os.close(stdin)
    lines = result.stdout.rstrip().splitlines()
    last = lines[-1] if lines else ""
    verdict = last[len(nonce) + 1 :] if last.startswith(nonce + " ") else None
    return result, verdict


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def same_output(expected: str, actual: str) -> bool:
    """Line by line, trailing white space and trailing blank lines ignored."""
    return _lines(expected) == _lines(actual)


def _short(text: str) -> str:
    return json.dumps(text if len(text) <= _SHOWN else text[:_SHOWN] + "…", ensure_ascii=False)


def _last_error_line(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no message"


def _failure(result: RunResult, what: str, limit_s: float) -> Verdict | None:
    """The verdict of a run that did not end normally, else None."""
    if result.timed_out:
        return Verdict(STATUS_TIMEOUT, None, f"{what}: no result within {limit_s:g} s")
    if result.output_limit:
        return Verdict(STATUS_ERROR, None, f"{what}: output or file size limit hit")
    if result.memory_limit:
        return Verdict(STATUS_ERROR, None, f"{what}: memory limit hit")
    if result.returncode != 0 and result.cpu_limit:
        return Verdict(STATUS_TIMEOUT, None, f"{what}: CPU time limit hit")
    return None


def _check_tests(where: str, tests: Any) -> list[dict[str, str]]:
    if not isinstance(tests, list) or not tests:
        raise LeashError(f"{where}: field 'tests' must be a non-empty list of input/output pairs")
    checked = []
    for i, test in enumerate(tests):
        if not (
            isinstance(test, dict)
            and isinstance(test.get("input"), str)
            and isinstance(test.get("output"), str)
        ):
            raise LeashError(
                f"{where}: tests[{i}] must be an object with string fields 'input' and 'output'"
            )
        checked.append({"input": test["input"], "output": test["output"]})
    return checked


class CodeVerifier(Verifier):
    name: ClassVar[str] = "code"
    description: ClassVar[str] = "runs the last code block against tests, sandboxed"
    runs_untrusted_code: ClassVar[bool] = True

    def load_questions(
        self, name: str, records: Sequence[tuple[str, Record]], mapping: FieldMapping
    ) -> list[Question]:
        questions: list[Question] = []
        seen: dict[str, str] = {}
        for position, (where, record) in enumerate(records):
            problem = next((record[f] for f in mapping.problem if record.get(f) is not None), None)
            if not isinstance(problem, str) or not problem.strip():
                raise LeashError(f"{where}: missing or empty field 'problem' of benchmark {name!r}")
            qid = next((record[f] for f in mapping.id if record.get(f) is not None), position)
            qid = str(qid).strip()
            if qid in seen:
                raise LeashError(f"{where}: duplicate question id {qid!r} (first at {seen[qid]})")
            seen[qid] = where
            metadata: dict[str, Any] = {}
            if record.get("tests") is not None:
                metadata["tests"] = _check_tests(where, record["tests"])
            elif isinstance(record.get("test_code"), str) and record["test_code"].strip():
                metadata["test_code"] = record["test_code"]
            else:
                raise LeashError(
                    f"{where}: a code question needs 'tests' (input/output pairs) or 'test_code'"
                )
            limit = record.get("time_limit")
            if limit is not None:
                if not isinstance(limit, int | float) or not 0 < limit <= MAX_TIME_LIMIT_S:
                    raise LeashError(
                        f"{where}: field 'time_limit' must be seconds in (0, {MAX_TIME_LIMIT_S:g}]"
                    )
                metadata["time_limit"] = float(limit)
            questions.append(Question(name, qid, problem, None, metadata))
        return questions

    def gold(self, gold: str | None, metadata: dict[str, Any]) -> tuple[str, str, float] | None:
        limit = metadata.get("time_limit", DEFAULT_TIME_LIMIT_S)
        limit = float(limit) if isinstance(limit, int | float) else DEFAULT_TIME_LIMIT_S
        if isinstance(metadata.get("tests"), list):
            return "tests", json.dumps(metadata["tests"]), limit
        if isinstance(metadata.get("test_code"), str):
            return "test_code", metadata["test_code"], limit
        return None

    def extract(self, text: str) -> AnswerSpan | None:
        code = last_fenced_block(text)
        return AnswerSpan(code) if code is not None and code.strip() else None

    def judge(self, gold: Any, span: AnswerSpan, deadline_s: float | None = None) -> Verdict:
        kind, payload, limit_s = gold
        if deadline_s is not None:
            limit_s = min(limit_s, deadline_s)
        limits = Limits(wall_s=limit_s, cpu_s=max(1, int(limit_s)))
        answer = clip(span.text)
        if kind == "test_code":
            result, verdict = run_test_code(span.text, payload, limits)
            failed = _failure(result, "tests", limit_s)
            if failed is not None:
                return Verdict(failed.status, answer, failed.detail)
            if verdict == "ok":
                return Verdict(STATUS_CORRECT, answer)
            if verdict is None:
                return Verdict(
                    STATUS_INCORRECT,
                    answer,
                    f"test_code: the tests did not finish (exit {result.returncode})",
                )
            outcome, _, reason = verdict.partition(" ")
            status = STATUS_ERROR if outcome == "error" else STATUS_INCORRECT
            return Verdict(status, answer, f"test_code: {reason[:300]}")
        tests = json.loads(payload)
        for i, test in enumerate(tests):
            what = f"test {i + 1} of {len(tests)}"
            result = run_python(span.text, test["input"], limits)
            failed = _failure(result, what, limit_s)
            if failed is not None:
                return Verdict(failed.status, answer, failed.detail)
            if result.returncode != 0:
                last = _last_error_line(result.stderr)
                return Verdict(STATUS_ERROR, answer, f"{what}: exit {result.returncode}: {last}")
            if not same_output(test["output"], result.stdout):
                return Verdict(
                    STATUS_INCORRECT,
                    answer,
                    f"{what}: input {_short(test['input'])}, expected {_short(test['output'])},"
                    f" got {_short(result.stdout)}",
                )
        return Verdict(STATUS_CORRECT, answer)

    def judge_many(
        self,
        pairs: Sequence[tuple[Any, AnswerSpan]],
        *,
        workers: int,
        deadline_s: float,
        on_result: Callable[[int, Verdict], None],
    ) -> None:
        """Programs run in their own processes: threads here only wait for them.

        ``deadline_s`` bounds each program's wall time (with the question's own limit).
        """
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = {
                pool.submit(_judge_bounded, self, gold, span, deadline_s): i
                for i, (gold, span) in enumerate(pairs)
            }
            for future in as_completed(futures):
                on_result(futures[future], future.result())


def _judge_bounded(
    verifier: CodeVerifier, gold: Any, span: AnswerSpan, deadline_s: float
) -> Verdict:
    """``judge`` under the deadline; a refused sandbox stops grading, other errors are verdicts."""
    try:
        return verifier.judge(gold, span, deadline_s)
    except SandboxUnavailable:
        raise
    except Exception as exc:
        return Verdict(STATUS_ERROR, clip(span.text), f"{type(exc).__name__}: {str(exc)[:200]}")


VERIFIER = CodeVerifier()
