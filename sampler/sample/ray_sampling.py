"""``leash sample --ray``: one model's missing questions sampled by engine actors on a Ray cluster.

Each worker is a Ray actor holding one engine instance (GPUs per actor: the model's
tensor-parallel size when the cluster has GPUs). The driver hands out one question
(``WorkItem``) per call, at most two calls in flight per actor, and gets the samples
back; the driver alone writes shards (``ShardBuffer``), so the cluster needs no shared
filesystem and the results folder is written exactly as by a local run.

Why actors and not Ray Data's LLM batch stage: leash needs one seeded request per
sample and the per-token log-probabilities its entropy is computed from, written as
whole questions so that a killed run resumes by question. An actor runs leash's own
engine code (the same ``WorkItem`` in, the same ``SampleRecord``s out), so a Ray run
draws the very samples of a local run with the same seed and engine.

Faults: an actor that dies (its process killed, its node lost) is restarted by Ray
(``max_restarts``) and the call it was running is retried on the new one
(``max_task_retries``): its question is redone, nothing is written twice because
only finished questions come back. A driver killed even by ``kill -9`` takes its
actors with it (they belong to its job); the same command started again resumes from
the shards already written, like a local run.
"""

from __future__ import annotations

import os
import time
from collections import deque
from typing import Any

from sampler.errors import LeashError
from sampler.ray_cluster import Cluster, import_ray
from sampler.sample.engines.base import WorkItem
from sampler.sample.model_worker import ModelJob, build_engine
from sampler.sample.shard_buffer import ShardBuffer
from sampler.store import ResultsFolder

#: Times Ray restarts a dead actor, and retries the call it was running, before giving up.
MAX_RESTARTS = 4
#: Calls queued on one actor: one running, one waiting, so an actor never idles between calls.
IN_FLIGHT_PER_ACTOR = 2


class EngineWorker:
    """Body of the Ray actor: one engine, loaded once, drawing the samples of one item a call."""

    def __init__(self, job: ModelJob):
        os.environ.update(job.env)  # before the engine reads it (batch invariance)
        self.engine = build_engine(job)
        started = time.monotonic()
        self.engine.start()
        self.load_seconds = time.monotonic() - started

    def ready(self) -> tuple[int, float]:
        """(process id, seconds the engine took to load)."""
        return os.getpid(), self.load_seconds

    def run(self, items: list[WorkItem]) -> list[tuple[WorkItem, list[Any]]]:
        done: list[tuple[WorkItem, list[Any]]] = []
        self.engine.run(items, lambda item, records: done.append((item, records)))
        return done


def actor_count(cluster: Cluster, tensor_parallel: int, requested: int, items: int) -> int:
    """How many engine actors: ``requested`` (data_parallel_size) when above 1, else as
    many as the cluster's GPUs hold at ``tensor_parallel`` each, else one."""
    if requested > 1:
        count = requested
    elif cluster.gpus >= tensor_parallel:
        count = int(cluster.gpus // tensor_parallel)
    else:
        count = 1
    return max(1, min(count, items))


class RayEngines:
    """``workers`` engine actors of one model, loaded once (``__init__``) and kept for any
    number of ``run`` calls (every round of an adaptive run) until ``close``."""

    def __init__(self, job: ModelJob, cluster: Cluster, workers: int, send: Any):
        ray = self.ray = import_ray()
        self.job, self.send = job, send
        gpus = job.model.settings.tensor_parallel_size if cluster.gpus > 0 else 0
        actor_class = ray.remote(
            num_cpus=1,
            num_gpus=gpus,
            max_restarts=MAX_RESTARTS,
            max_task_retries=MAX_RESTARTS,
        )(EngineWorker)
        template = ModelJob(**{**job.__dict__, "items": []})
        self.actors = [actor_class.remote(template) for _ in range(workers)]
        self.running: dict[Any, int] = {}  # object ref -> actor index
        self.buffer = ShardBuffer(
            ResultsFolder.open(job.root), job.model.name, job.flush_rows, job.flush_seconds
        )
        self.started = time.monotonic()
        try:
            for index in range(len(self.actors)):
                send(index, "loading")
            for index, (_, seconds) in enumerate(ray.get([a.ready.remote() for a in self.actors])):
                send(index, "ready", seconds)
        except BaseException:
            self.close()
            raise
        self.started = time.monotonic()

    def run(self, items: list[WorkItem]) -> None:
        """Sample ``items`` on the actors, one question per call; shards flushed at the end."""
        ray, todo, running = self.ray, deque(items), self.running

        def submit(index: int) -> None:
            if todo:
                item = todo.popleft()
                running[self.actors[index].run.remote([item])] = index

        for index in range(len(self.actors)):
            for _ in range(IN_FLIGHT_PER_ACTOR):
                submit(index)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            ref = ready[0]
            index = running.pop(ref)
            try:
                finished = ray.get(ref)
            except ray.exceptions.RayError as exc:
                raise LeashError(
                    f"model {self.job.model.name!r}: a Ray engine worker failed"
                    f" ({_first_line(exc)}); completed questions are saved, run the same"
                    " command again to finish"
                ) from None
            for item, records in finished:
                self.buffer.add(item, records)
                self.send(index, "question", len(records), sum(r.n_tokens for r in records))
            submit(index)
        self.buffer.flush()

    def finish(self) -> None:
        """Report the end (the events' ``finished``)."""
        b = self.buffer
        self.send(0, "finished", b.rows_written, b.write_seconds, time.monotonic() - self.started)

    def close(self) -> None:
        """Cancel what still runs, kill the actors, keep the questions that came back."""
        for ref in self.running:
            self.ray.cancel(ref, force=True)
        self.running.clear()
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        self.actors = []
        self.buffer.flush()


def sample_on_ray(
    job: ModelJob,
    cluster: Cluster,
    workers: int,
    send: Any,
) -> ShardBuffer:
    """Sample ``job.items`` on ``workers`` engine actors; ``send(worker, kind, ...)`` reports
    progress in the events of ``model_worker``. Returns the buffer (flushed)."""
    engines = RayEngines(job, cluster, workers, send)
    try:
        engines.run(job.items)
        engines.finish()
    finally:
        engines.close()
    return engines.buffer


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(exc).__name__
