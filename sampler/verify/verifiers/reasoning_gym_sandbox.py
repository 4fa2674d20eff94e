"""Reasoning Gym tasks whose scorer evaluates the answer, found from their source, scored sandboxed.

Some tasks' ``score_answer`` hands the answer to ``eval``, ``exec``,
``ast.literal_eval`` or sympy's ``parse_expr``/``sympify`` (spiral_matrix, countdown,
puzzle24, ...): an answer such as ``__import__('os').system(...)`` would run in
leash's verification worker. ``evaluates_answers(task)`` reads the source of the
task's class, its bases and the reasoning_gym modules its module uses, and says yes
when any mentions an evaluator or sympy (conservative: a task that only generates
with sympy is sandboxed too). ``sandboxed_score`` scores one answer of such a task
in a fresh bubblewrap sandbox (``sandbox.run_sandboxed``): a small scorer program
reads a nonce, then the task, entry and answer, from a pipe and prints the nonce
and the score; anything else (no nonce, a crash, the deadline) is an error. The
answer still runs inside the scorer's own process there, so it can fake its own
score; it can no longer touch the machine.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import secrets
import sys
from functools import cache
from types import ModuleType

from sampler.errors import LeashError
from sampler.verify.verifiers.sandbox import Limits, run_sandboxed

_EVALUATOR_RE = re.compile(
    r"\beval\s*\(|\bexec\s*\(|literal_eval|parse_expr|sympify|\bsympy\b|numexpr|\bcompile\s*\("
)
_SCORER_PATH = "/work/score.py"
_SCORER = """\
import json, os, sys
chunks = []
while True:
    chunk = os.read(0, 1 << 16)
    if not chunk:
        break
    chunks.append(chunk)
os.close(0)
nonce, _, job = b"".join(chunks).partition(b"\\n")
nonce = nonce.decode()
job = json.loads(job)
import reasoning_gym
dataset = reasoning_gym.create_dataset(job["task"], size=job["size"], seed=job["seed"])
score = float(dataset.score_answer(job["answer"], job["entry"]))
sys.stdout.flush()
os.write(1, ("\\n" + nonce + " " + repr(score) + "\\n").encode())
"""
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
) -> float:
    """The task's score of ``answer``, computed in a sandbox; a LeashError when it gave none."""
    nonce = secrets.token_hex(16)
    job = json.dumps({"task": task, "size": size, "seed": seed, "answer": answer, "entry": entry})
    read, write = os.pipe()
    try:
        payload = nonce.encode() + b"\n" + job.encode("utf-8")
        if len(payload) > 60_000:  # more than a pipe holds before the scorer reads it
            raise LeashError(f"reasoning-gym {task!r}: answer and entry too long to score")
        os.write(write, payload)
        os.close(write)
        write = -1
        argv = [sys.executable, "-I", _SCORER_PATH]
        result = run_sandboxed({_SCORER_PATH: _SCORER.encode()}, argv, read, limits, (sys.prefix,))
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    if result.timed_out:
        raise TimeoutError(f"no score within {limits.wall_s:g} s")
    last = result.stdout.rstrip().rsplit("\n", 1)[-1].split(" ")
    if result.returncode != 0 or len(last) != 2 or last[0] != nonce:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        reason = lines[-1][:200] if lines else f"exit {result.returncode}"
        raise RuntimeError(f"sandboxed scorer gave no score: {reason}")
    try:
        return float(last[1])
    except ValueError:
        raise RuntimeError(f"sandboxed scorer gave no score: {last[1][:50]!r}") from None
