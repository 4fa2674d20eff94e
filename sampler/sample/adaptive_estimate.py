"""``leash sample --dry-run``: samples and tokens of a full and of an adaptive run, estimated.

Nothing is sampled and the results folder is not changed. When the folder already holds
samples of a model (a pilot ``leash sample -k N``, which is the first round of an
adaptive run and is kept, or an earlier run), every (model, question) whose first
verified success is there costs exactly the round budget that contains it (the seeds
make those samples the same); one with none yet costs between the next round budget and
k, so the adaptive figure is a range. Without samples the range is N .. k per question.
Tokens are the model's mean tokens per sample in the folder times the samples, else the
token budget (max_tokens) times the samples, an upper bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow.compute as pc

from sampler.sample.adaptive import budget_rounds
from sampler.sample.config import RunConfig
from sampler.sample.first_success import first_success
from sampler.sample.plan import RunPlan, load_benchmarks
from sampler.store import ResultsFolder


def adaptive_cost(
    rounds: list[int], drawn: np.ndarray, first: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(least, most) samples an adaptive run draws per key, given ``drawn`` samples so far
    and the ``first`` success index among them (-1: none)."""
    budgets = np.asarray(rounds, dtype=np.int64)
    k = int(budgets[-1])
    found = first >= 0
    # the round that contains sample `first` ends at the first budget above it
    at_success = budgets[np.minimum(np.searchsorted(budgets, first, side="right"), len(rounds) - 1)]
    after = budgets[np.minimum(np.searchsorted(budgets, drawn, side="right"), len(rounds) - 1)]
    least = np.where(found, at_success, np.where(drawn >= k, k, np.maximum(after, budgets[0])))
    most = np.where(found, at_success, k)
    return least, most


@dataclass(frozen=True)
class ModelEstimate:
    model: str
    questions: int
    full_samples: int
    full_tokens: float
    adaptive_least: int
    adaptive_most: int
    tokens_per_sample: float
    tokens_measured: bool  # from the folder's samples, else the max_tokens bound
    questions_seen: int  # questions with samples in the folder
    successes_seen: int  # of which with a verified success

    @property
    def adaptive_tokens(self) -> tuple[float, float]:
        return (
            self.adaptive_least * self.tokens_per_sample,
            self.adaptive_most * self.tokens_per_sample,
        )


def estimate_run(config: RunConfig) -> tuple[RunPlan, list[int], list[ModelEstimate]]:
    """The plan (benchmarks and questions of this shard), the round budgets, and per model
    the full and adaptive samples and tokens."""
    plan = RunPlan(config, load_benchmarks(config), [])
    keys = [(bench.name, question.question_id) for bench, _, question in plan.shard_keys()]
    rounds = budget_rounds(config.min_samples, config.samples)
    table = None
    if ResultsFolder(config.output).exists():
        table = first_success(ResultsFolder.open(config.output), config.min_samples)
    out = []
    for spec in config.models:
        rows: dict[tuple[str, str], dict[str, Any]] = {}
        if table is not None:
            mine = table.filter(pc.equal(table.column("model"), spec.name))
            rows = {(r["benchmark"], r["question_id"]): r for r in mine.to_pylist()}
        seen = [rows[key] for key in keys if key in rows]
        drawn = np.array([rows[key]["n"] if key in rows else 0 for key in keys], dtype=np.int64)
        first = np.array(
            [
                -1
                if key not in rows or rows[key]["first_success"] is None
                else rows[key]["first_success"]
                for key in keys
            ],
            dtype=np.int64,
        )
        least, most = adaptive_cost(rounds, drawn, first)
        samples_seen = sum(r["n"] for r in seen)
        measured = samples_seen > 0
        per_sample = (
            sum(r["tokens"] for r in seen) / samples_seen
            if measured
            else float(spec.settings.max_tokens)
        )
        full = len(keys) * config.samples
        out.append(
            ModelEstimate(
                model=spec.name,
                questions=len(keys),
                full_samples=full,
                full_tokens=full * per_sample,
                adaptive_least=int(least.sum()),
                adaptive_most=int(most.sum()),
                tokens_per_sample=per_sample,
                tokens_measured=measured,
                questions_seen=len(seen),
                successes_seen=int((first >= 0).sum()),
            )
        )
    return plan, rounds, out
