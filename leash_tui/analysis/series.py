"""Training series: targets named ``NAME@STEP`` are checkpoints of one RL run.

A target ``rl@100`` is checkpoint 100 of series ``rl``; the base is step 0 of every
series (the paper's Table 4 follows NSCR from step 0 to step 300). Nothing else is
declared: the names say it all. Pure functions, no I/O.

Per question and step, "in support" is the budget-k rule of docs/support-dynamics.md:
at least one verified correct sample among the k compared. A question *flips*
when its support state along the steps (base first) changes more than once, e.g.
in → out → in: the interesting questions, neither steadily kept nor steadily lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

_CHECKPOINT_RE = re.compile(r"^(?P<series>.+)@(?P<step>\d+)$")
#: strip symbols: in support, out of support, not compared (no verified sample)
IN_MARK, OUT_MARK, NONE_MARK = "●", "○", "·"


def parse_checkpoint(name: str) -> tuple[str, int] | None:
    """``"rl@100"`` -> ``("rl", 100)``; None for a name that is not ``NAME@STEP``.

    STEP is a non-negative decimal integer; NAME is everything before the last ``@``
    and must not be empty. ``rl@0`` is allowed (a checkpoint saved before any update)
    and sorts beside the base, which is step 0 of every series.
    """
    match = _CHECKPOINT_RE.match(name)
    if match is None:
        return None
    return match.group("series"), int(match.group("step"))


@dataclass(frozen=True)
class Series:
    """One training run: its name and its checkpoints as (step, model name), by step."""

    name: str
    checkpoints: tuple[tuple[int, str], ...]

    @property
    def steps(self) -> list[int]:
        """0 (the base), then every checkpoint's step."""
        return [0, *(step for step, _ in self.checkpoints)]

    def models(self, base: str) -> list[tuple[int, str]]:
        """(step, model) with the base as step 0, in step order."""
        return [(0, base), *self.checkpoints]


def find_series(targets: Iterable[str]) -> list[Series]:
    """The series among ``targets``, in order of first appearance, checkpoints by step.

    Targets that are not ``NAME@STEP`` belong to no series. Two targets with the same
    series and step (``rl@100`` and ``rl@0100``) raise ValueError naming both.
    """
    grouped: dict[str, dict[int, str]] = {}
    for target in targets:
        parsed = parse_checkpoint(target)
        if parsed is None:
            continue
        series, step = parsed
        steps = grouped.setdefault(series, {})
        if step in steps:
            raise ValueError(f"targets {steps[step]!r} and {target!r} are both step {step}")
        steps[step] = target
    return [Series(name, tuple(sorted(steps.items()))) for name, steps in grouped.items()]


def support_strip(states: Sequence[bool | None]) -> str:
    """A compact strip of in-support states along the steps: ``●●○``; ``·`` = not compared."""
    return "".join(NONE_MARK if s is None else IN_MARK if s else OUT_MARK for s in states)


def flip_counts(states: np.ndarray) -> np.ndarray:
    """Changes of support state between consecutive compared steps, per question.

    ``states`` is a (questions, steps) array of 1 (in support), 0 (out) or -1 (not
    compared; skipped). A question that is lost once has 1 change; one that flips
    back and forth has 2 or more.
    """
    states = np.asarray(states)
    out = np.zeros(states.shape[0], dtype=np.int64)
    for i, row in enumerate(states):
        seen = row[row >= 0]
        out[i] = int(np.count_nonzero(seen[1:] != seen[:-1])) if seen.size > 1 else 0
    return out


def first_loss_step(states: np.ndarray, steps: Sequence[int]) -> np.ndarray:
    """Per question, the first step at which the base's support was lost, else -1.

    Only questions in the base's support (column 0 is 1) can lose it: the first later
    compared step whose state is 0. Sorting by this shows the earliest losses first.
    """
    states = np.asarray(states)
    out = np.full(states.shape[0], -1, dtype=np.int64)
    for i, row in enumerate(states):
        if row.size == 0 or row[0] != 1:
            continue
        lost = np.flatnonzero(row[1:] == 0)
        if lost.size:
            out[i] = steps[int(lost[0]) + 1]
    return out
