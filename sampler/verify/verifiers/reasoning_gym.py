"""``reasoning-gym``: procedurally generated puzzles graded by the task's own ``score_answer``.

The benchmark spec ``NAME=reasoning-gym:TASK:SIZE:SEED`` generates SIZE entries of the
Reasoning Gym task TASK with SEED, offline and deterministically (the package
``reasoning-gym``, extra ``leash-rlvr[reasoning-gym]``). Question ids are the entry
indices 0 … SIZE−1; the questions table keeps each whole entry (question, answer,
metadata) as JSON in the metadata column, so grading never regenerates.

The answer is extracted as in the paper: the last ``<answer>`` tags, else the last
``\\boxed{}``, else the text after ``</think>``. It is graded by the task's own
``score_answer(answer, entry)`` in a verification worker (the hard deadline holds:
some tasks parse the answer with sympy), and for tasks whose scorer may evaluate the
answer (``eval``, sympy's parser) inside the code sandbox (``reasoning_gym_sandbox``),
where only an answer that is data is evaluated (anything else is not run: the task sees
an unparseable answer, and ``verdict_detail`` says so); a sample is correct only at full
score, and the score itself goes to the ``score`` column.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ClassVar

from sampler import install_hint
from sampler.benchmarks.presets import Question
from sampler.errors import LeashError
from sampler.store import STATUS_CORRECT, STATUS_INCORRECT
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import Verdict
from sampler.verify.verifiers.base import (
    Verifier,
    after_think,
    answer_tags,
    boxed,
    clip,
    first_found,
)

#: The module a verification worker imports before its first task (see ``in_worker``).
PACKAGE = "reasoning_gym"
#: Entries one spec may generate.
MAX_SIZE = 1_000_000
INSTALL_HINT = f"pip install reasoning-gym (or {install_hint('reasoning-gym')})"


def _package() -> Any:
    try:
        import reasoning_gym
    except ImportError as exc:
        raise LeashError(f"the reasoning-gym verifier needs the package: {INSTALL_HINT}") from exc
    return reasoning_gym


def parse_source(source: str, where: str) -> tuple[str, int, int]:
    """``TASK:SIZE:SEED`` as (task, size, seed); a LeashError naming ``where`` otherwise."""
    parts = source.split(":")
    if len(parts) != 3 or not parts[0].strip():
        raise LeashError(
            f"{where}: expected reasoning-gym:TASK:SIZE:SEED, e.g. dice=reasoning-gym:dice:100:0"
        )
    task = parts[0].strip()
    try:
        size, seed = int(parts[1]), int(parts[2])
    except ValueError:
        raise LeashError(
            f"{where}: SIZE and SEED must be integers, got {parts[1]!r}, {parts[2]!r}"
        ) from None
    if not 1 <= size <= MAX_SIZE:
        raise LeashError(f"{where}: SIZE must be between 1 and {MAX_SIZE:,}, got {size}")
    return task, size, seed


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it: tuples and sets as lists, numpy scalars as numbers."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [_plain(v) for v in items]
    if hasattr(value, "item") and callable(value.item):  # numpy scalar
        return value.item()
    return value


@lru_cache(maxsize=64)
def _dataset(task: str, size: int, seed: int) -> Any:
    """The task's dataset object for this spec (construction only: entries are made lazily)."""
    return _package().create_dataset(task, size=size, seed=seed)


class ReasoningGymVerifier(Verifier):
    name: ClassVar[str] = "reasoning-gym"
    description: ClassVar[str] = (
        "Reasoning Gym tasks (TASK:SIZE:SEED), graded by the task's score_answer"
    )
    in_worker: ClassVar[bool] = True
    preload: ClassVar[tuple[str, ...]] = (PACKAGE,)

    def generate(self, name: str, source: str) -> list[Question] | None:
        where = f"benchmark {name!r}"
        task, size, seed = parse_source(source, where)
        rg = _package()
        from reasoning_gym.factory import DATASETS

        if task not in DATASETS:
            close = [t for t in sorted(DATASETS) if task.split("_")[0] in t][:8]
            hint = f" (similar: {', '.join(close)})" if close else ""
            raise LeashError(f"{where}: reasoning-gym has no task {task!r}{hint}")
        try:
            dataset = rg.create_dataset(task, size=size, seed=seed)
        except Exception as exc:  # the package raises many types on bad configurations
            raise LeashError(f"{where}: reasoning-gym could not make {task!r}: {exc}") from exc
        questions = []
        for index in range(size):
            entry = _plain(dict(dataset[index]))
            answer = entry.get("answer")
            questions.append(
                Question(
                    benchmark=name,
                    question_id=str(index),
                    problem=str(entry["question"]),
                    gold=None if answer is None else str(answer),
                    metadata={
                        "reasoning_gym": {"task": task, "size": size, "seed": seed, "index": index},
                        "entry": entry,
                    },
                )
            )
        return questions

    def gold(self, gold: str | None, metadata: dict[str, Any]) -> tuple[str, int, int, str] | None:
        spec, entry = metadata.get("reasoning_gym"), metadata.get("entry")
        if not isinstance(spec, dict) or not isinstance(entry, dict):
            return None
        try:
            task, size, seed = str(spec["task"]), int(spec["size"]), int(spec["seed"])
        except (KeyError, TypeError, ValueError):
            return None
        return task, size, seed, json.dumps(entry, sort_keys=True)

    def extract(self, text: str) -> AnswerSpan | None:
        found = first_found(text, (answer_tags, boxed, after_think))
        return AnswerSpan(found) if found else None

    def judge(self, gold: Any, span: AnswerSpan) -> Verdict:
        task, size, seed, entry_json = gold
        score, refused = score_answer(task, size, seed, span.text, json.loads(entry_json))
        status = STATUS_CORRECT if score >= 1.0 else STATUS_INCORRECT
        detail = REFUSED_DETAIL if refused else None
        return Verdict(status, clip(span.text.strip()), detail, score)


#: The detail of a verdict whose answer the scorer would have run as code.
REFUSED_DETAIL = "the answer is not data (literals, arithmetic, lists); it was not evaluated"


def score_answer(
    task: str, size: int, seed: int, answer: str | None, entry: dict
) -> tuple[float, bool]:
    """The task's own score of ``answer`` for ``entry`` (dataset made with the spec's config),
    and whether an evaluation of the answer was refused: in a sandbox, evaluating only data,
    when the task's scorer may evaluate the answer (``reasoning_gym_sandbox``)."""
    from sampler.verify.verifiers.reasoning_gym_sandbox import evaluates_answers, sandboxed_score

    if evaluates_answers(task):
        return sandboxed_score(task, size, seed, answer, entry)
    return float(_dataset(task, size, seed).score_answer(answer, entry)), False


VERIFIER = ReasoningGymVerifier()
