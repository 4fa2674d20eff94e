"""Reasoning Gym tasks whose scorer evaluates the answer, found from their source, scored sandboxed.

Some tasks' ``score_answer`` hands the answer to ``eval``, ``exec``,
``ast.literal_eval`` or sympy's ``parse_expr``/``sympify`` (spiral_matrix, countdown,
puzzle24, ...): an answer such as ``__import__('os').system(...)`` would run in
leash's verification worker. ``evaluates_answers(task)`` reads the source of the
task's class, its bases and the reasoning_gym modules its module uses, and says yes
when any mentions an evaluator or sympy (conservative: a task that only generates
with sympy is sandboxed too). ``sandboxed_score`` scores one answer of such a task
in a fresh bubblewrap sandbox (``sandbox.run_sandboxed``) by ``reasoning_gym_scorer``,
a small program that reads a nonce, then the task, entry and answer, from its stdin (a
memory file), and evaluates only answers that are data (literals, arithmetic, lists,
sympy's numbers and symbols): every evaluator in its process is guarded, so nothing an
answer says runs where its score is decided; the scorer prints the nonce and the score.
Anything else (no nonce, a crash, the deadline) is an error.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import secrets
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from sampler.errors import LeashError
from sampler.verify.verifiers.sandbox import Limits, run_sandboxed

_EVALUATOR_RE = re.compile(
    r"\beval\s*\(|\bexec\s*\(|literal_eval|parse_expr|sympify|\bsympy\b|numexpr|\bcompile\s*\("
)
_SCORER_PATH = "/work/score.py"
#: Most bytes of task, entry and answer one scoring reads.
MAX_JOB_BYTES = 8 * 1024 * 1024


@cache
def _scorer_source() -> bytes:
    return Path(__file__).with_name("reasoning_gym_scorer.py").read_bytes()


#: What one sandboxed scoring may use (the package imports numpy and sympy).
SCORER_LIMITS = Limits(wall_s=30.0, cpu_s=30, memory_mb=2048, file_mb=16, processes=8)


def _sources(module: ModuleType) -> list[str]:
    try:
        return [inspect.getsource(module)]
    except (OSError, TypeError):
        return ["eval("]  # unreadable source: assume the worst


@cache
def evaluates_answers(task: str) -> bool:
    """Whether the task's scoring may evaluate the answer (see the module docstring)."""
    from reasoning_gym.factory import DATASETS

    if task not in DATASETS:
        return True
    dataset_class = DATASETS[task][0]
    modules: dict[str, ModuleType] = {}
    for cls in inspect.getmro(dataset_class):
        module = sys.modules.get(cls.__module__)
        if module is not None and cls.__module__.startswith("reasoning_gym"):
            modules[cls.__module__] = module
    for module in list(modules.values()):
        for value in vars(module).values():
            used = value if isinstance(value, ModuleType) else inspect.getmodule(value)
            if used is not None and used.__name__.startswith("reasoning_gym"):
                modules.setdefault(used.__name__, used)
    return any(_EVALUATOR_RE.search(text) for m in modules.values() for text in _sources(m))


def sandboxed_score(
    task: str, size: int, seed: int, answer: str | None, entry: dict, limits: Limits = SCORER_LIMITS
) -> tuple[float, bool]:
    """The task's score of ``answer``, computed in a sandbox, and whether an evaluation of it
    was refused (not data); a LeashError when it gave none."""
    nonce = secrets.token_hex(16)
    job = json.dumps({"task": task, "size": size, "seed": seed, "answer": answer, "entry": entry})
    payload = nonce.encode() + b"\n" + job.encode("utf-8")
    if len(payload) > MAX_JOB_BYTES:
        raise LeashError(f"reasoning-gym {task!r}: answer and entry too long to score")
    stdin = os.memfd_create("job", 0)
    try:
        os.write(stdin, payload)
        os.lseek(stdin, 0, os.SEEK_SET)
        argv = [sys.executable, "-I", _SCORER_PATH]
        files = {_SCORER_PATH: _scorer_source()}
        result = run_sandboxed(files, argv, stdin, limits, (sys.prefix,))
    finally:
        os.close(stdin)
    if result.timed_out:
        raise TimeoutError(f"no score within {limits.wall_s:g} s")
    last = result.stdout.rstrip().rsplit("\n", 1)[-1].split(" ")
    if result.returncode != 0 or len(last) not in (2, 3) or last[0] != nonce:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        reason = lines[-1][:200] if lines else f"exit {result.returncode}"
        raise RuntimeError(f"sandboxed scorer gave no score: {reason}")
    try:
        score = float(last[1])
    except ValueError:
        raise RuntimeError(f"sandboxed scorer gave no score: {last[1][:50]!r}") from None
    if not 0.0 <= score <= 1.0:
        raise RuntimeError(f"sandboxed scorer gave a score out of [0, 1]: {score!r}")
    return score, last[2:] == ["refused"]
