"""What the trainer-dump importers share: questions known by their text, groups of samples.

A trainer's dump (verl, TRL, ...) is one line or row per *sample*, with the prompt as
the model saw it and no question id, and some trainers reorder samples before dumping
(verl balances its batches). ``QuestionGroups`` turns such rows into leash samples:

* the question is the prompt's problem text with the chat template stripped
  (``chat_template.problem_of_prompt``), its id ``text_question_id`` of that text, or the
  id of the folder's question of the same text (``ImportSession.match_question``);
* a question's samples are numbered 0, 1, ... in the order read, whatever the order of
  the rows, and the tool's own score is kept as the source verdict (``source_correct``);
* ``check_sizes`` compares the groups of one file (a step) with each other: the size most
  groups have is the file's k, and every group of another size is named in a warning,
  never merged with another question or split.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.core import ImportSession
from sampler.importers.protocol import SourceRead
from sampler.importers.question_book import same_gold
from sampler.importers.source_fields import (
    Fields,
    refuse_mixed_runs,
    resolve_question,
    text_question_id,
)
from sampler.store import STATUS_ERROR


def numbered_files(
    path: Path, step_file: re.Pattern[str], glob: str, kind: str, not_one: str, none_found: str
) -> list[tuple[int, Path]]:
    """A trainer dump's files numbered by step (``step_file``'s first group), by step: ``path``
    itself, or every match of ``glob`` below it, all of one run (``refuse_mixed_runs``).
    ``not_one`` and ``none_found`` end the errors for a wrong file and an empty folder."""
    if path.is_file():
        match = step_file.match(path.name)
        if not match:
            raise LeashError(f"{path}: {not_one}")
        return [(int(match.group(1)), path)]
    found = [
        (int(m.group(1)), p)
        for p in path.rglob(glob)
        if p.is_file() and (m := step_file.match(p.name))
    ]
    if not found:
        raise LeashError(f"{path}: {none_found}")
    refuse_mixed_runs(path, {p: kind for _, p in found})
    return sorted(found)


def read_series(
    source: SourceRead,
    steps: list[tuple[int, Path]],
    read_step: Callable[[SourceRead, Path, int], None],
) -> list[str]:
    """Read the file of each step as model ``MODEL@STEP`` (``read_step(source, file, step)``);
    return the models read, in step order."""
    models = []
    for step, file in steps:
        at_step = source.as_model(f"{source.model}@{step}")
        read_step(at_step, file, step)
        models.append(at_step.model)
    return models


def note_no_gold(source: SourceRead, benchmark: str, what: str) -> None:
    """Say at import time that a dump logs no gold (``what`` names it) and how to give one,
    unless ``--gold-from`` gives ``benchmark``'s golds."""
    if benchmark in source.session.questions.gold_benchmarks:
        return
    source.session.summary.notes.append(
        f"{what} logs no gold, so the {benchmark} questions have none and leash verify cannot"
        f" grade them; give the benchmark's golds with --gold-from {benchmark}=FILE (joined to"
        " the questions by problem text)"
    )


def score_verdict(value: Any) -> bool | None:
    """A tool's per-sample score as a verdict: true/false, 1/0 (1.0/0.0); None otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and math.isfinite(value) and value in (0, 1):
        return value == 1
    return None


#: The verdict columns of a sample the tool says failed (leash's own error verdicts alike).
_ERROR_COLUMNS = {"status": STATUS_ERROR, "correct": False}


class QuestionGroups:
    """The samples of one input file, grouped by question (see the module docstring)."""

    def __init__(
        self,
        session: ImportSession,
        file_index: int,
        pending: list[Callable[[], None]] | None = None,
    ):
        self.session = session
        self.file_index = file_index
        #: where staging waits for the end of its record (``record_file.RecordFile``)
        self.pending = pending
        self.sizes: Counter[tuple[str, str, str]] = Counter()
        self.problems: dict[tuple[str, str, str], str] = {}

    def add(self, *args: Any, **kwargs: Any) -> None:
        """``stage(*args, **kwargs)`` now, or, with ``pending``, once the record is read."""
        if self.pending is None:
            self.stage(*args, **kwargs)
        else:
            self.pending.append(partial(self.stage, *args, **kwargs))

    def stage(
        self,
        number: int,
        benchmark: str,
        model: str,
        problem: str | None,
        gold: str | None,
        text: str,
        verdict: bool | None,
        n_tokens: int | None = None,
        finish_reason: str | None = None,
        question_id: str | None = None,
        error: str | None = None,
    ) -> None:
        """Stage one sample of record ``number``; its question is known by ``problem`` (and
        by ``question_id`` where the tool gives one; the folder's question of the same text
        still comes first). ``error``: the tool says the sample failed (a failed episode, an
        errored Inspect sample): it is kept with status ``error``, ``error`` as its detail."""
        session = self.session
        where = session.where(self.file_index, number)
        if question_id is None and problem:
            question_id, recorded = self._by_text(benchmark, problem, gold)
        else:
            question_id, recorded = resolve_question(
                session, benchmark, question_id or text_question_id(problem or ""), problem
            )
        key = (benchmark, question_id, model)
        if key not in self.sizes:
            session.note_question(benchmark, question_id, recorded, gold, where)
            self.problems[key] = problem or ""
        elif gold is not None:
            session.note_question(benchmark, question_id, None, gold, where)
        self.sizes[key] += 1
        session.add_sample(
            {
                "benchmark": benchmark,
                "question_id": question_id,
                "model": model,
                "sample": session.next_sample_index(benchmark, question_id, model),
                "text": text,
                "n_tokens": n_tokens,
                "finish_reason": finish_reason,
                "source_correct": verdict,
                **(_ERROR_COLUMNS | {"verdict_detail": error} if error is not None else {}),
            },
            self.file_index,
            number,
        )

    def _by_text(self, benchmark: str, problem: str, gold: str | None) -> tuple[str, str | None]:
        """(id, problem to record) of a question known by its text only: the text's id, unless
        that question has another gold already — one text, two questions (a dump without
        ids that holds one prompt under two golds): then the id of (problem, gold), noted."""
        session = self.session
        question_id, recorded = resolve_question(
            session, benchmark, text_question_id(problem), problem
        )
        known = session.questions.gold_of(benchmark, question_id)
        if gold is None or known is None or same_gold(known, gold):
            return question_id, recorded
        if (benchmark, problem) not in session.questions.keyed_by_gold:
            session.questions.keyed_by_gold.add((benchmark, problem))
            session.summary.notes.append(
                f"{session.paths[self.file_index]}: the problem {_clip(problem)!r} of {benchmark}"
                f" comes with several golds ({known!r}, {gold!r}, ...): each (problem, gold) is"
                " its own question"
            )
        return text_question_id(f"{problem}\x00{gold.strip()}"), problem

    def check_sizes(self) -> None:
        """Warn about every question whose number of samples differs from the file's k."""
        if not self.sizes:
            return
        k, _ = Counter(self.sizes.values()).most_common(1)[0]
        odd = [(key, n) for key, n in self.sizes.items() if n != k]
        if not odd:
            return
        shown = "; ".join(
            f"{_clip(self.problems[key])!r} ({key[1]}): {n}" for key, n in odd[:5]
        ) + (f"; and {len(odd) - 5} more" if len(odd) > 5 else "")
        path = self.session.paths[self.file_index]
        self.session.summary.warnings.append(
            f"{path}: {len(odd)} of {len(self.sizes)} questions have another number of samples"
            f" than the {k} most have (kept as they are, each its own question): {shown}"
        )


def _clip(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def assistant_text(messages: Any) -> str | None:
    """The contents of a message list's assistant messages joined by newlines; None if none."""
    if not isinstance(messages, list):
        return None
    parts = [
        m["content"]
        for m in messages
        if isinstance(m, dict)
        and m.get("role") == "assistant"
        and isinstance(m.get("content"), str)
    ]
    return "\n".join(parts) if parts else None


def completion_text(fields: Fields) -> str:
    """A logged completion (field ``completion``): text, or its assistant messages joined."""
    value = fields.value("completion")
    if isinstance(value, str):
        return value
    text = assistant_text(value)
    if text is not None:
        return text
    raise fields.expected("completion", "the completion: text, or assistant messages", value)
