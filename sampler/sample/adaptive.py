"""``leash sample --adaptive``: draw until each (model, question) holds a verified success.

Every (model, question) of the shard first gets ``min_samples`` samples (N); then the
budget doubles round by round (N, 2N, 4N, ..., k). Before each round the folder is
verified (on the CPU verification pool, which stays warm across rounds) and the
(model, question) pairs that hold a verified success stop (with ``--risk DELTA`` the
unsolved pairs of a model's benchmark also stop, all at once, after the first whole
round whose bound on their chance of a later success is below DELTA: sample.risk_stop;
each round is then drawn whole before the next starts); the others are extended to
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

import contextlib
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from sampler.errors import LeashError
from sampler.sample.config import RunConfig
from sampler.sample.engine_session import Session, open_session
from sampler.sample.engines.base import WorkItem
from sampler.sample.first_success import first_success
from sampler.sample.plan import ModelPlan, RunPlan
from sampler.sample.risk_stop import NEVER, group_stops
from sampler.sample.run import ModelSummary, NullSink, ProgressSink, shard_lock
from sampler.sample.run_folder import list_missing_work
from sampler.store import STOP_BUDGET, STOP_OPEN, STOP_RISK, STOP_SUCCESS, ResultsFolder

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


def _risk_stops(
    plan: RunPlan, keys: list[Key], found: dict[Key, dict[str, Any]]
) -> dict[Key, float]:
    """key -> stated q, for the pairs of this shard that ``--risk`` stopped (sample.risk_stop);
    a group is one model's questions of one benchmark (of this shard)."""
    config = plan.config
    if config.risk is None:
        return {}
    rounds = budget_rounds(config.min_samples, config.samples)
    groups: dict[tuple[str, str], list[Key]] = {}
    for key in keys:
        groups.setdefault((key[0], key[2]), []).append(key)
    out: dict[Key, float] = {}
    for members in groups.values():
        entries = [found.get(key, {"n": 0, "first_success": None}) for key in members]
        first = [NEVER if e["first_success"] is None else e["first_success"] for e in entries]
        drawn = [e["n"] for e in entries]
        stop, q, _ = group_stops(first, drawn, rounds, config.samples, config.risk)
        early = stop & (np.asarray(drawn) < config.samples)  # a pair holding k is not early
        out |= {key: q for key, stopped in zip(members, early, strict=True) if stopped}
    return out


def stop_rows(plan: RunPlan) -> tuple[list[dict[str, Any]], frozenset[Key]]:
    """(one adaptive_stops row per key of this shard, the keys no longer sampled: a
    verified success, or stopped by ``--risk``)."""
    table = first_success(ResultsFolder.open(plan.root), plan.config.min_samples)
    found = {
        (r["benchmark"], r["question_id"], r["model"]): r
        for r in table.select(
            ["benchmark", "question_id", "model", "n", "first_success"]
        ).to_pylist()
    }
    rows, done = [], set()
    keys = _shard_keys(plan)
    risky = _risk_stops(plan, keys, found)
    for key in keys:
        entry = found.get(key, {"n": 0, "first_success": None})
        first = entry["first_success"]
        if first is not None:
            stop = STOP_SUCCESS
            done.add(key)
        elif key in risky:
            stop = STOP_RISK
            done.add(key)
        else:
            stop = STOP_BUDGET if entry["n"] >= plan.config.samples else STOP_OPEN
        rows.append(
            dict(zip(("benchmark", "question_id", "model"), key, strict=True))
            | {"drawn": int(entry["n"]), "stop": stop, "first_success": first}
            | {"risk_q": risky.get(key)}
        )
    return rows, frozenset(done)


def check_adaptive(config: RunConfig) -> None:
    """Refuse, before anything starts, an adaptive run that could not verify its rounds."""
    if config.adaptive and not config.verify:
        raise LeashError(
            "--adaptive stops on verified successes, so it verifies as it samples; drop"
            " --no-verify (or verify = false in --config)"
        )
    if config.risk is not None and not config.adaptive:
        raise LeashError(
            "--risk stops unsolved questions between the rounds of an adaptive run; add"
            " --adaptive (or adaptive = true in --config), or drop --risk"
        )


Verify = Callable[[], Any]
OnRound = Callable[[int, int, dict[str, int]], None]

#: First-round batches per model: the parent verifies one while the engine samples the next.
PIPELINE_BATCHES = 2


def next_budget(rounds: list[int], count: int) -> int:
    """The round budget a pair holding ``count`` samples is extended to."""
    return next((b for b in rounds if b > count), rounds[-1])


def open_items(plan: RunPlan, mp: ModelPlan, rounds: list[int]) -> list[WorkItem]:
    """``mp``'s pairs with neither a verified success nor k samples, each extended to the
    next round budget above its count (what the round-by-round run draws next)."""
    _, done = stop_rows(plan)
    list_missing_work(plan, upto=plan.config.samples, done=done)
    mp.items = [
        replace(item, n=next_budget(rounds, item.first_sample) - item.first_sample)
        for item in mp.items
    ]
    return mp.items


def lowest_round(items: list[WorkItem]) -> list[WorkItem]:
    """The items extended to the lowest budget among them: with ``--risk`` a round is
    drawn whole before its rule is judged and the next round starts (a resumed run may
    hold pairs of two rounds)."""
    low = min((item.first_sample + item.n for item in items), default=0)
    return [item for item in items if item.first_sample + item.n == low]


def _by_budget(items: list[WorkItem]) -> dict[int, list[WorkItem]]:
    out: dict[int, list[WorkItem]] = {}
    for item in items:
        out.setdefault(item.first_sample + item.n, []).append(item)
    return dict(sorted(out.items()))


class _Batches:
    """Submits batches to a model's session, numbering them and announcing new rounds."""

    def __init__(self, session: Session, mp: ModelPlan, rounds: list[int], on_round: OnRound):
        self.session, self.mp, self.rounds, self.on_round = session, mp, rounds, on_round
        self.pending: dict[int, list[WorkItem]] = {}
        self.count = 0

    def submit(self, items: list[WorkItem]) -> None:
        for budget, group in _by_budget(items).items():
            parts = PIPELINE_BATCHES if budget == self.rounds[0] else 1
            parts = max(1, min(parts, len(group)))
            self.on_round(budget, self.rounds.index(budget), {self.mp.name: len(group)})
            for part in range(parts):
                chunk = group[part::parts]
                self.pending[self.count] = chunk
                self.session.submit(self.count, chunk)
                self.count += 1


def sample_model(
    plan: RunPlan,
    mp: ModelPlan,
    verify: Verify,
    sink: ProgressSink,
    on_round: OnRound,
    cluster: Any | None,
) -> ModelSummary:
    """All rounds of one model on one engine (``engine_session``): as soon as a batch is
    written it is verified, while the engine samples the batches queued behind it, and
    its pairs still without a success are queued to their next budget."""
    rounds = budget_rounds(plan.config.min_samples, plan.config.samples)
    verify()
    items = open_items(plan, mp, rounds)
    if not items:
        return ModelSummary(mp.name, skipped=True)
    session = open_session(plan, mp, sink, cluster)
    try:
        batches = _Batches(session, mp, rounds, on_round)
        risk = plan.config.risk is not None
        batches.submit(lowest_round(items) if risk else items)
        while batches.pending:
            keys = {item.key for item in batches.pending.pop(session.wait())}
            verify()
            if not risk:
                batches.submit([i for i in open_items(plan, mp, rounds) if i.key in keys])
            elif not batches.pending:  # --risk judges a round once all its pairs are in
                batches.submit(lowest_round(open_items(plan, mp, rounds)))
    except BaseException:
        with contextlib.suppress(Exception):  # the first error is the one reported
            session.abort()
        raise
    else:
        session.close()
    finally:
        sink.model_finished(mp.name)
    return session.summary


def _record_loads(plan: RunPlan, totals: dict[str, ModelSummary]) -> None:
    """The manifest keeps, per model, how many engines the last adaptive run loaded."""

    def change(manifest: Any) -> None:
        for entry in manifest.models:
            total = totals.get(entry.name)
            if total is not None and entry.sampling and not total.skipped:
                entry.sampling = {**entry.sampling, "engine_loads": total.loads}

    ResultsFolder.open(plan.root).update_manifest(change)


def execute_adaptive(
    plan: RunPlan,
    verify: Verify,
    sink: ProgressSink | None = None,
    on_round: OnRound | None = None,
) -> list[ModelSummary]:
    """Sample the shard adaptively, one model after the other, each on one engine for all
    its rounds; ``verify()`` verifies the folder's new samples (the caller owns the pool);
    ``on_round(budget, round, {model: questions})`` as each round's first batch is queued.
    Returns one summary per model (all rounds together)."""
    sink = sink or NullSink()
    config = plan.config
    totals: dict[str, ModelSummary] = {}
    cluster, joined = None, False
    with shard_lock(plan):
        try:
            if config.ray:
                from sampler.ray_cluster import connect, import_ray

                joined = not import_ray().is_initialized()  # else the caller's (its pool)
                cluster = connect(config.ray_address)
            for mp in plan.models:
                totals[mp.name] = sample_model(
                    plan, mp, verify, sink, on_round or (lambda *_: None), cluster
                )
            verify()
            rows, _ = stop_rows(plan)
            ResultsFolder.open(plan.root).merge_adaptive_stops(rows)
            _record_loads(plan, totals)
        finally:
            if joined:
                from sampler.ray_cluster import disconnect

                disconnect()
    return [totals[mp.name] for mp in plan.models]


def ray_verify_workers(plan: RunPlan, cluster: Any) -> int:
    """Verification actors beside the engines of ``--ray --adaptive`` (both live through
    the run): the cluster's CPUs less one for each engine actor of the largest model."""
    from sampler.sample.ray_sampling import actor_count

    questions = len(plan.shard_keys())
    engines = max(
        actor_count(
            cluster,
            mp.spec.settings.tensor_parallel_size,
            mp.spec.settings.data_parallel_size,
            questions,
        )
        for mp in plan.models
    )
    return max(1, int(cluster.cpus) - engines)


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
