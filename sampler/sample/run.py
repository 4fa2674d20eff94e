"""``leash sample``'s engine-independent core: check everything, then sample what is missing.

``prepare_run`` does all the checking that needs no engine (``sample.plan``), and only
then touches the results folder (``sample.run_folder``). ``execute_run`` then samples
one model at a time, each in its own worker process (``model_worker``;
``data_parallel_size`` workers at once for vLLM). Workers write shards as questions
finish, so a killed run loses only unfinished questions and the same command
completes exactly those.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sampler.errors import LeashError
from sampler.sample.batch_invariance import environment
from sampler.sample.config import ModelSpec, RunConfig
from sampler.sample.engines.base import SamplingOptions, WorkItem
from sampler.sample.model_info import check_model_source
from sampler.sample.model_worker import ModelJob, worker_main
from sampler.sample.plan import (
    ModelPlan,
    RunPlan,
    check_engines_available,
    load_benchmarks,
    plan_model,
)
from sampler.sample.run_folder import list_missing_work, open_results_folder
from sampler.store import ResultsFolder

#: Seconds a worker may take to exit after it reported its end, before it is killed.
WORKER_EXIT_GRACE_S = 120.0


class ProgressSink(Protocol):
    """Where ``execute_run`` reports progress (the CLI shows it with rich)."""

    def model_started(self, model: str, questions: int, samples: int, workers: int) -> None: ...

    def event(self, model: str, message: tuple) -> None: ...

    def model_finished(self, model: str) -> None: ...


class NullSink:
    def model_started(self, model: str, questions: int, samples: int, workers: int) -> None:
        pass

    def event(self, model: str, message: tuple) -> None:
        pass

    def model_finished(self, model: str) -> None:
        pass


def prepare_run(config: RunConfig) -> RunPlan:
    """Check the whole run, then set up the results folder and list the missing work."""
    benchmarks = load_benchmarks(config)
    for spec in config.models:
        if spec.settings.engine != "openai":  # for a server, PATH may be a served name only
            check_model_source(spec.name, spec.path)
    check_engines_available(config)
    plan = RunPlan(config, benchmarks, [])
    keys = plan.shard_keys()
    for bench in benchmarks:
        for index, question in enumerate(bench.questions):
            plan.positions[(bench.name, question.question_id)] = index
    plan.models = [plan_model(spec, keys) for spec in config.models]
    open_results_folder(plan)
    return plan


# -- sampling -------------------------------------------------------------------------


def shard_lock(plan: RunPlan) -> contextlib.AbstractContextManager[None]:
    """Refuse a second ``leash sample`` on the same shard, or on another shard layout."""
    shard = plan.config.shard
    folder = plan.folder if plan.folder is not None else ResultsFolder.open(plan.root)
    return folder.locks.sample_shard(shard.index, shard.count, str(shard))


@dataclass
class ModelSummary:
    name: str
    questions: int = 0
    samples: int = 0
    tokens: int = 0
    load_seconds: float = 0.0
    sample_seconds: float = 0.0  # from the engine being ready to the last shard written
    write_seconds: float = 0.0  # of which writing shards
    skipped: bool = False
    loads: int = 0  # engines loaded (one per worker process or Ray actor)


def _split(items: list[WorkItem], parts: int) -> list[list[WorkItem]]:
    return [items[i::parts] for i in range(parts)]


def _devices(worker: int, per_worker: int, workers: int) -> str | None:
    if workers <= 1:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = [d for d in visible.split(",") if d.strip()] if visible else None
    if ids is None:
        ids = [str(i) for i in range(workers * per_worker)]
    if len(ids) < workers * per_worker:
        raise LeashError(
            f"data_parallel_size {workers} x tensor_parallel_size {per_worker} needs"
            f" {workers * per_worker} GPUs; CUDA_VISIBLE_DEVICES lists {len(ids)}"
        )
    return ",".join(ids[worker * per_worker : (worker + 1) * per_worker])


def sampling_options(config: RunConfig, spec: ModelSpec) -> SamplingOptions:
    return SamplingOptions(
        temperature=config.temperature,
        top_p=config.top_p,
        top_k=config.top_k,
        logprobs=config.logprobs,
        stop=spec.settings.stop,
        stop_token_ids=spec.settings.stop_token_ids,
        token_detail=config.token_detail,
    )


def run_model(plan: RunPlan, mp: ModelPlan, sink: ProgressSink) -> ModelSummary:
    """Sample one model's missing questions in worker processes; raise LeashError on failure."""
    s = mp.spec.settings
    workers = s.data_parallel_size if s.engine == "vllm" else 1
    workers = max(1, min(workers, len(mp.items)))
    summary = ModelSummary(mp.name)
    sink.model_started(mp.name, len(mp.items), mp.samples_to_draw, workers)
    ctx = multiprocessing.get_context("spawn")
    events = ctx.Queue()
    procs = []
    for worker, items in enumerate(_split(mp.items, workers)):
        job = model_job(plan, mp, items, worker)
        job.devices = _devices(worker, s.tensor_parallel_size, workers)
        proc = ctx.Process(target=worker_main, args=(job, events), name=f"leash-{mp.name}-{worker}")
        proc.start()
        procs.append(proc)
    try:
        ended, errors = _watch(procs, events, summary, lambda m: sink.event(mp.name, m))
    except BaseException:
        _stop(procs)
        raise
    for i, proc in enumerate(procs):
        proc.join()
        if i not in ended and proc.exitcode != 0:
            errors.append(
                f"model {mp.name!r}: its worker process died (exit code {proc.exitcode});"
                " completed questions are saved, run the same command again to finish"
            )
    events.close()
    events.join_thread()
    sink.model_finished(mp.name)
    if errors:
        raise LeashError(errors[0] if len(errors) == 1 else "; ".join(errors))
    return summary


def _watch(
    procs: list[Any], events: Any, summary: ModelSummary, forward: Callable[[tuple], None]
) -> tuple[dict[int, float], list[str]]:
    """Fold the workers' events into ``summary`` (and ``forward`` each) until every worker
    has exited, killing one that lingers past WORKER_EXIT_GRACE_S after it said it ended;
    returns when each ended and the errors they reported."""
    errors: list[str] = []
    ended: dict[int, float] = {}
    started = time.monotonic()
    while True:
        try:
            message = events.get(timeout=0.2)
        except queue.Empty:
            message = None
        if message is not None:
            worker, kind = message[0], message[1]
            if kind in ("finished", "error"):
                ended[worker] = time.monotonic()
                if kind == "error":
                    errors.append(str(message[2]))
            _account(summary, message, started)
            forward(message)
            continue
        if not any(p.is_alive() for p in procs):
            return ended, errors
        now = time.monotonic()
        for i, proc in enumerate(procs):
            if i in ended and proc.is_alive() and now - ended[i] > WORKER_EXIT_GRACE_S:
                proc.kill()


def _stop(procs: list[Any]) -> None:
    """Terminate the workers, then kill those still alive after 10 s."""
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(10)
        if proc.is_alive():
            proc.kill()


def _account(summary: ModelSummary, message: tuple, started: float) -> None:
    """Fold one progress event of a worker into the model's summary."""
    kind = message[1]
    if kind == "ready":
        summary.load_seconds = max(summary.load_seconds, time.monotonic() - started)
        summary.loads += 1
    elif kind == "question":
        summary.questions += 1
        summary.samples += int(message[2])
        summary.tokens += int(message[3])
    elif kind == "finished":  # the worker's own clock: engine ready to last shard written
        summary.write_seconds = max(summary.write_seconds, float(message[3]))
        summary.sample_seconds = max(summary.sample_seconds, float(message[4]))


def model_job(plan: RunPlan, mp: ModelPlan, items: list[WorkItem], worker: int = 0) -> ModelJob:
    return ModelJob(
        root=str(plan.root),
        model=mp.spec,
        options=sampling_options(plan.config, mp.spec),
        max_model_len=mp.info.context,
        vocab_size=mp.info.vocab_size,
        items=items,
        worker=worker,
        env=environment(plan.config, mp.spec),
        flush_seconds=plan.config.flush_seconds,
    )


def run_model_on_ray(
    plan: RunPlan, mp: ModelPlan, sink: ProgressSink, cluster: Any
) -> ModelSummary:
    """Sample one model's missing questions on Ray engine actors (``sample.ray_sampling``)."""
    from sampler.sample.ray_sampling import actor_count, sample_on_ray

    s = mp.spec.settings
    workers = actor_count(cluster, s.tensor_parallel_size, s.data_parallel_size, len(mp.items))
    summary = ModelSummary(mp.name)
    sink.model_started(mp.name, len(mp.items), mp.samples_to_draw, workers)
    started = time.monotonic()

    def send(*message: Any) -> None:
        _account(summary, message, started)
        sink.event(mp.name, message)

    try:
        sample_on_ray(model_job(plan, mp, mp.items), cluster, workers, send)
    finally:
        sink.model_finished(mp.name)
    return summary


def _refresh_index(plan: RunPlan) -> None:
    """Bring the folder's shard index up to date with the shards written (also after a
    failure: the questions finished are saved); a refresh that fails leaves readers to
    the footers, and the run's own error, if any, is the one reported."""
    folder = plan.folder if plan.folder is not None else ResultsFolder(plan.root)
    with contextlib.suppress(LeashError, OSError):
        folder.refresh_index()


def execute_run(plan: RunPlan, sink: ProgressSink | None = None) -> list[ModelSummary]:
    """Sample every model's missing questions, one model at a time (on Ray with ``ray``)."""
    sink = sink or NullSink()
    summaries = []
    cluster = None
    with shard_lock(plan):
        list_missing_work(plan)  # under the lock: no other process fills this shard now
        try:
            for mp in plan.models:
                if not mp.items:
                    summaries.append(ModelSummary(mp.name, skipped=True))
                    continue
                if plan.config.ray:
                    if cluster is None:
                        from sampler.ray_cluster import connect

                        cluster = connect(plan.config.ray_address)
                    summaries.append(run_model_on_ray(plan, mp, sink, cluster))
                else:
                    summaries.append(run_model(plan, mp, sink))
        finally:
            _refresh_index(plan)
            if cluster is not None:
                from sampler.ray_cluster import disconnect

                disconnect()
    return summaries
