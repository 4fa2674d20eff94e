"""The toy task: seeded multi-step arithmetic with a worked solution and a ``\\boxed{}`` answer.

A problem is ``a + b - c`` (or ``a - b + c``) with ``a`` of two digits and ``b``, ``c`` of
one (a carry or a borrow in about half of the steps); its solution does one operation per
step and ends with the boxed result. The supervised data are *noisy*: each
step of a training solution is wrong with some probability (a dropped carry, a digit off
by one), and the error is carried into the next step, as in a careless worked answer.
A model trained on them learns the format quickly and the arithmetic unreliably, which
gives a broad base distribution: many held-out questions are solved rarely, a few never.
Train and held-out problems are disjoint and come from one seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

#: The benchmark name of the held-out questions in the results folder.
BENCHMARK = "toy-arith"


@dataclass(frozen=True)
class Problem:
    """One question: its id, the numbers and operators, and the gold answer."""

    question_id: str
    numbers: tuple[int, int, int]
    ops: tuple[str, str]

    @property
    def problem(self) -> str:
        a, b, c = self.numbers
        return f"{a}{self.ops[0]}{b}{self.ops[1]}{c}="

    @property
    def gold(self) -> int:
        return self.steps()[-1]

    def steps(self) -> list[int]:
        a, b, c = self.numbers
        first = a + b if self.ops[0] == "+" else a - b
        return [first, first + c if self.ops[1] == "+" else first - c]

    def solution(self, rng: random.Random | None = None, noise: float = 0.0) -> str:
        """The worked solution; with ``rng``, each step is wrong with probability ``noise``
        and a wrong intermediate result is used by the next step."""
        a, b, c = self.numbers
        left, out = a, []
        for op, right in zip(self.ops, (b, c), strict=True):
            value = left + right if op == "+" else left - right
            if rng is not None and rng.random() < noise:
                value = _slip(value, rng)
            out.append(f"{left}{op}{right}={value}")
            left = value
        return " " + ", ".join(out) + f". \\boxed{{{left}}}"


def _slip(value: int, rng: random.Random) -> int:
    """A plausible arithmetic mistake: off by one in the units or the tens (a carry)."""
    return value + rng.choice((-10, -1, 1, 10))


def _random_problem(rng: random.Random, qid: str) -> Problem:
    a, b, c = rng.randint(10, 99), rng.randint(2, 9), rng.randint(2, 9)
    ops = rng.choice((("+", "-"), ("-", "+")))
    return Problem(qid, (a, b, c), ops)


def make_problems(n_train: int, n_heldout: int, seed: int) -> tuple[list[Problem], list[Problem]]:
    """Disjoint train and held-out problems, the same for the same seed."""
    rng = random.Random(f"toy-arith-{seed}")
    seen: set[str] = set()
    train: list[Problem] = []
    heldout: list[Problem] = []
    while len(heldout) < n_heldout or len(train) < n_train:
        split = heldout if len(heldout) < n_heldout else train
        prefix = "h" if split is heldout else "t"
        p = _random_problem(rng, f"{prefix}{len(split)}")
        if p.problem in seen:
            continue
        seen.add(p.problem)
        split.append(p)
    return train, heldout


def write_benchmark(path: Path, problems: list[Problem]) -> Path:
    """A JSONL benchmark file (``id``, ``problem``, ``answer``, and the clean worked
    ``solution``, which ``leash perplexity --traces reference`` scores) that ``leash sample``
    reads."""
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
