"""The toy task: seeded ``+1`` on four-digit numbers, a ``\\boxed{}`` answer, carry-dependent noise.

A problem is ``n+1=`` with ``n`` of four digits; about 30% of the problems end in 9, so the
answer needs a carry (``3819+1=`` is ``3820``, ``3899+1=`` is ``3900``). The rule is one a
tiny model learns in a few hundred supervised steps (copy the number, raise the last digit,
carry past a 9), so held-out questions are answered by the rule, not by recall.

The supervised data are *noisy per question, in a structured way*: a solution of a problem
without a carry is right with probability ``1 - slip`` and otherwise off by one (a slip); a
solution of a carry problem forgets the carry (``3819+1=3810``) except with probability
``carry_kept``. A model trained on them is broad but unreliable: right on most no-carry
questions a little more than half the time, and on carry questions systematically wrong, the
gold surfacing only rarely. That is the support structure RLVR acts on (docs/demo-train.md).
Train and held-out problems are disjoint and come from one seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from sampler.errors import LeashError

#: The benchmark name of the held-out questions in the results folder.
BENCHMARK = "toy-arith"
#: The task's name in the stage markers: a folder of another task is not resumed.
TASK = "n+1"
#: Share of the problems that need a carry (the number ends in 9).
CARRY_SHARE = 0.3
#: Four-digit numbers: 900 end in 9, so train + held-out problems are bounded.
MAX_PROBLEMS = 2500


@dataclass(frozen=True)
class Noise:
    """How the supervised solutions are wrong (``task`` docstring)."""

    slip: float = 0.4  # a no-carry solution is off by one
    carry_kept: float = 0.05  # a carry solution keeps the carry (else forgets it)


@dataclass(frozen=True)
class Problem:
    """One question: its id and the number to add one to."""

    question_id: str
    number: int

    @property
    def problem(self) -> str:
        return f"{self.number}+1="

    @property
    def gold(self) -> int:
        return self.number + 1

    @property
    def carry(self) -> bool:
        return self.number % 10 == 9

    @property
    def forgotten_carry(self) -> int:
        """The answer with the carry forgotten: the last digit wraps, the rest is copied."""
        return self.number - 9 if self.carry else self.gold

    def solution(self, rng: random.Random | None = None, noise: Noise | None = None) -> str:
        """The boxed answer; with ``rng`` and ``noise``, wrong as ``Noise`` says."""
        answer = self.gold
        if rng is not None and noise is not None:
            if self.carry:
                answer = self.gold if rng.random() < noise.carry_kept else self.forgotten_carry
            elif rng.random() < noise.slip:
                answer = self.gold + rng.choice((-1, 1))
        return f" \\boxed{{{answer}}}"


def _random_problem(rng: random.Random, qid: str) -> Problem:
    last = 9 if rng.random() < CARRY_SHARE else rng.randint(0, 8)
    return Problem(qid, rng.randint(100, 999) * 10 + last)


def make_problems(n_train: int, n_heldout: int, seed: int) -> tuple[list[Problem], list[Problem]]:
    """Disjoint train and held-out problems, the same for the same seed."""
    if n_train + n_heldout > MAX_PROBLEMS:
        raise LeashError(
            f"--questions: at most {MAX_PROBLEMS - n_train} held-out questions"
            f" ({n_train} training problems; the task has {MAX_PROBLEMS} in all)"
        )
    rng = random.Random(f"toy-increment-{seed}")
    seen: set[int] = set()
    train: list[Problem] = []
    heldout: list[Problem] = []
    while len(heldout) < n_heldout or len(train) < n_train:
        split = heldout if len(heldout) < n_heldout else train
        prefix = "h" if split is heldout else "t"
        p = _random_problem(rng, f"{prefix}{len(split)}")
        if p.number in seen:
            continue
        seen.add(p.number)
        split.append(p)
    return train, heldout


def write_benchmark(path: Path, problems: list[Problem]) -> Path:
    """A JSONL benchmark file (``id``, ``problem``, ``answer``, and the clean ``solution``,
    which ``leash perplexity --traces reference`` scores) that ``leash sample`` reads."""
    lines = [
        json.dumps(
            {
                "id": p.question_id,
                "problem": p.problem,
                "answer": str(p.gold),
                "solution": p.solution(),
            }
        )
        for p in problems
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
