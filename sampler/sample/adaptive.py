"""``leash sample --adaptive``: draw until each (model, question) holds a verified success.

Every (model, question) of the shard first gets ``min_samples`` samples (N); then the
budget doubles round by round (N, 2N, 4N, ..., k). Before each round the folder is
verified (on the CPU verification pool, which stays warm across rounds) and the
(model, question) pairs that hold a verified success stop; the others are extended to
the round's budget, all questions of a model in one batch, so the engine's batches stay
full across questions. Sample i of a (model, question) has its own seed (``seeds``),
so every sample an adaptive run draws is the very sample a full run draws, and the
first success index, hence support at every budget up to k, is the full run's.

A killed run resumes to the same samples: a round writes whole questions, the rerun
verifies what is on disk, and a pair is extended only to the next round budget above
its count, as the uninterrupted run would have. The folder records ``adaptive`` in each
model's sampling record (manifest) and why each pair stopped (``adaptive_stops``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from sampler.errors import LeashError
from sampler.sample.config import RunConfig
from sampler.sample.first_success import first_success
from sampler.sample.plan import RunPlan
from sampler.sample.run import (
    ModelSummary,
    NullSink,
    ProgressSink,
    run_model,
    run_model_on_ray,
    shard_lock,
)
from sampler.sample.run_folder import list_missing_work
from sampler.store import STOP_BUDGET, STOP_OPEN, STOP_SUCCESS, ResultsFolder

#: Seconds an adaptive round waits for another process's ``leash verify`` to end.
VERIFY_WAIT_S = 3600.0

Key = tuple[str, str, str]  # (benchmark, question_id, model)


def budget_rounds(min_samples: int, samples: int) -> list[int]:
    """Budgets of the adaptive rounds: N, 2N, 4N, ... below k, then k."""
    out = [max(1, min(min_samples, samples))]
    while out[-1] < samples:
        out.append(min(out[-1] * 2, samples))
    return out


def _shard_keys(plan: RunPlan) -> list[Key]:
    return [
        (bench.name, question.question_id, mp.name)
        for bench, _, question in plan.shard_keys()
        for mp in plan.models
    ]


def stop_rows(plan: RunPlan) -> tuple[list[dict[str, Any]], frozenset[Key]]:
    """(one adaptive_stops row per key of this shard, the keys with a verified success)."""
    table = first_success(ResultsFolder.open(plan.root), plan.config.min_samples)
    found = {
        (r["benchmark"], r["question_id"], r["model"]): r
        for r in table.select(
            ["benchmark", "question_id", "model", "n", "first_success"]
        ).to_pylist()
    }
    rows, done = [], set()
    for key in _shard_keys(plan):
        entry = found.get(key, {"n": 0, "first_success": None})
        first = entry["first_success"]
        if first is not None:
            stop = STOP_SUCCESS
            done.add(key)
        else:
            stop = STOP_BUDGET if entry["n"] >= plan.config.samples else STOP_OPEN
        rows.append(
            dict(zip(("benchmark", "question_id", "model"), key, strict=True))
            | {"drawn": int(entry["n"]), "stop": stop, "first_success": first}
        )
    return rows, frozenset(done)


def _add(total: ModelSummary, part: ModelSummary) -> None:
    """Fold one round's summary in: samples, tokens and seconds add up; questions are the
    most of any round (the first round samples every question still open)."""
    for f in fields(ModelSummary):
        if f.name in ("samples", "tokens", "load_seconds", "sample_seconds", "write_seconds"):
            setattr(total, f.name, getattr(total, f.name) + getattr(part, f.name))
    total.questions = max(total.questions, part.questions)
    total.skipped = False


def check_adaptive(config: RunConfig) -> None:
    """Refuse, before anything starts, an adaptive run that could not verify its rounds."""
    if config.adaptive and not config.verify:
        raise LeashError(
            "--adaptive stops on verified successes, so it verifies as it samples; drop"
            " --no-verify (or verify = false in --config)"
        )


Verify = Callable[[], Any]
OnRound = Callable[[int, int, dict[str, int]], None]


def execute_adaptive(
    plan: RunPlan,
    verify: Verify,
    sink: ProgressSink | None = None,
    on_round: OnRound | None = None,
) -> list[ModelSummary]:
    """Sample the shard adaptively; ``verify()`` verifies the folder's new samples (the
    caller owns the pool); ``on_round(budget, round, {model: questions})`` before each
    round that has work. Returns one summary per model (all rounds together)."""
    sink = sink or NullSink()
    config = plan.config
    totals = {mp.name: ModelSummary(mp.name, skipped=True) for mp in plan.models}
    cluster = None
    with shard_lock(plan):
        try:
            for number, budget in enumerate(budget_rounds(config.min_samples, config.samples)):
                verify()
                _, done = stop_rows(plan)
                list_missing_work(plan, upto=budget, done=done)
                work = {mp.name: len(mp.items) for mp in plan.models if mp.items}
                if not work:
                    continue
                if on_round is not None:
                    on_round(budget, number, work)
                for mp in plan.models:
                    if not mp.items:
                        continue
                    if config.ray:
                        if cluster is None:
                            from sampler.ray_cluster import connect

                            cluster = connect(config.ray_address)
                        part = run_model_on_ray(plan, mp, sink, cluster)
                    else:
                        part = run_model(plan, mp, sink)
                    _add(totals[mp.name], part)
            verify()
            rows, _ = stop_rows(plan)
            ResultsFolder.open(plan.root).merge_adaptive_stops(rows)
        finally:
            if cluster is not None:
                from sampler.ray_cluster import disconnect

                disconnect()
    return [totals[mp.name] for mp in plan.models]


def verify_waiting(verify: Verify, held: Callable[[], bool], wait_s: float = VERIFY_WAIT_S) -> Any:
    """``verify()``, waiting while another process holds the folder's verify lock
    (``held``: ``ResultsFolder.locks.verify_held``; the rounds of other ``--shard`` runs
    verify the same folder)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return verify()
        except LeashError:
            if not held() or time.monotonic() > deadline:
                raise
            time.sleep(1.0)
