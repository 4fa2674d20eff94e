"""``code``: run the completion's last fenced code block against the question's tests.

A code benchmark's line has ``id``, ``problem`` and either ``tests``, a list of
``{"input": STDIN, "output": EXPECTED_STDOUT}`` (compared line by line, trailing white
space and trailing blank lines ignored), or ``test_code``, Python asserts run after
the solution in the same program; ``time_limit`` (seconds per test) is optional.
Each test runs in its own sandboxed process (``sandbox``: fresh directory,
scrubbed environment, limits, no network, killed from outside at its deadline),
several samples at a time in threads of this process. Statuses: ``correct``;
``incorrect`` with the first failing test in ``verdict_detail``; ``timeout``; ``error``
(a crash, a syntax error or a limit hit).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, ClassVar

from sampler.benchmarks.files import Record
from sampler.benchmarks.presets import FieldMapping, Question
from sampler.errors import LeashError
from sampler.store.statuses import STATUS_CORRECT, STATUS_ERROR, STATUS_INCORRECT, STATUS_TIMEOUT
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import Verdict
from sampler.verify.verifiers.base import Verifier, clip, judge_safely
from sampler.verify.verifiers.sandbox import Limits, RunResult, run_python

_FENCE_RE = re.compile(r"```[ \t]*([\w+#.-]*)[^\n]*\n(.*?)```", re.DOTALL)
#: Seconds each test may run unless the benchmark line says ``time_limit``.
DEFAULT_TIME_LIMIT_S = 6.0
MAX_TIME_LIMIT_S = 60.0
_SHOWN = 200  # characters of input, expected and actual output kept in the detail


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
        blocks = _FENCE_RE.findall(text)
        if not blocks:
            return None
        code = blocks[-1][1]
        return AnswerSpan(code) if code.strip() else None

    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        kind, payload, limit_s = gold
        limits = Limits(wall_s=limit_s, cpu_s=max(1, int(limit_s)))
        answer = clip(span.text)
        if kind == "test_code":
            result = run_python(span.text + "\n\n" + payload, "", limits)
            failed = _failure(result, "tests", limit_s)
            if failed is not None:
                return Verdict(failed.status, answer, failed.detail)
            if result.returncode == 0:
                return Verdict(STATUS_CORRECT, answer)
            last = _last_error_line(result.stderr)
            status = STATUS_INCORRECT if last.startswith("AssertionError") else STATUS_ERROR
            return Verdict(status, answer, f"test_code: {last}")
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
        """Programs run in their own processes: threads here only wait for them."""
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = {
                pool.submit(judge_safely, self, gold, span): i
                for i, (gold, span) in enumerate(pairs)
            }
            for future in as_completed(futures):
                on_result(futures[future], future.result())


VERIFIER = CodeVerifier()
