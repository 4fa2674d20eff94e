"""One loaded engine per model for a whole adaptive run, fed batch after batch.

``open_session`` starts a model's engines once: worker processes (``model_worker`` with
a command queue; ``data_parallel_size`` of them for vLLM) or, with ``--ray``, engine
actors (``ray_sampling.RayEngines``). ``submit(batch, items)`` queues a batch of work
items and returns at once; ``wait()`` blocks until some batch is written (its shards
flushed) and returns its number; ``close()`` stops the engines once their work is
written, ``abort()`` at once. Worker processes take their batches in order from their
queue, so the parent can verify one batch while the engine samples the next. On Ray, a
batch is sampled inside ``wait`` (the driver writes the shards), one at a time.

Events are folded into the model's ``ModelSummary`` (``run._account``; ``loads`` counts
the engines loaded) and forwarded to the progress sink, as in a one-shot run.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from collections import deque
from typing import Any, Protocol

from sampler.errors import LeashError
from sampler.sample.engines.base import WorkItem
from sampler.sample.model_worker import worker_main
from sampler.sample.plan import ModelPlan, RunPlan
from sampler.sample.run import (
    WORKER_EXIT_GRACE_S,
    ModelSummary,
    ProgressSink,
    _account,
    _devices,
    _stop,
    model_job,
)


class Session(Protocol):
    summary: ModelSummary

    def submit(self, batch: int, items: list[WorkItem]) -> None: ...

    def wait(self) -> int: ...

    def close(self) -> None: ...

    def abort(self) -> None: ...


class LocalSession:
    """The model's worker processes, each holding its engine until ``close``."""

    def __init__(self, plan: RunPlan, mp: ModelPlan, sink: ProgressSink, workers: int):
        s = mp.spec.settings
        self.name, self.sink = mp.name, sink
        self.summary = ModelSummary(mp.name)
        self.started = time.monotonic()
        ctx = multiprocessing.get_context("spawn")
        self.events = ctx.Queue()
        self.commands = [ctx.Queue() for _ in range(workers)]
        self.procs: list[Any] = []
        self.left: dict[int, int] = {}  # batch -> workers still sampling it
        self.ended: set[int] = set()
        for worker in range(workers):
            job = model_job(plan, mp, [], worker)
            job.devices = _devices(worker, s.tensor_parallel_size, workers)
            proc = ctx.Process(
                target=worker_main,
                args=(job, self.events, self.commands[worker]),
                name=f"leash-{mp.name}-{worker}",
            )
            proc.start()
            self.procs.append(proc)

    def submit(self, batch: int, items: list[WorkItem]) -> None:
        parts = [items[i :: len(self.procs)] for i in range(len(self.procs))]
        parts = [p for p in parts if p]
        self.left[batch] = len(parts)
        for worker, part in enumerate(parts):
            self.commands[worker].put((batch, part))

    def _message(self, message: tuple) -> int | None:
        worker, kind = message[0], message[1]
        if kind == "error":
            raise LeashError(str(message[2]))
        if kind == "finished":
            self.ended.add(worker)
        if kind == "batch":
            batch = int(message[2])
            self.left[batch] -= 1
            if self.left[batch] == 0:
                del self.left[batch]
                return batch
            return None
        _account(self.summary, message, self.started)
        self.sink.event(self.name, message)
        return None

    def _next(self) -> tuple | None:
        try:
            return self.events.get(timeout=0.2)
        except queue.Empty:
            return None

    def wait(self) -> int:
        """The number of the next batch every worker has written."""
        while True:
            message = self._next()
            if message is not None:
                done = self._message(message)
                if done is not None:
                    return done
                continue
            for proc in self.procs:
                if not proc.is_alive():
                    raise LeashError(
                        f"model {self.name!r}: its worker process died (exit code"
                        f" {proc.exitcode}); completed questions are saved, run the same"
                        " command again to finish"
                    )

    def close(self) -> None:
        """Ask each worker to end, fold in its last events, and reap it (killed if it
        lingers past WORKER_EXIT_GRACE_S)."""
        try:
            for commands in self.commands:
                commands.put(None)
            deadline = time.monotonic() + WORKER_EXIT_GRACE_S
            while any(p.is_alive() for p in self.procs) and time.monotonic() < deadline:
                message = self._next()
                if message is not None and message[1] != "batch":
                    self._message(message)
            while (message := self._nowait()) is not None:
                self._message(message)
        finally:
            _stop(self.procs)
            self.events.close()
            self.events.join_thread()
            for commands in self.commands:
                commands.close()
                commands.join_thread()

    def abort(self) -> None:
        """Stop the workers now (terminate, then kill): the run failed or was interrupted."""
        _stop(self.procs)

    def _nowait(self) -> tuple | None:
        try:
            return self.events.get_nowait()
        except queue.Empty:
            return None


class RaySession:
    """The model's engine actors on a Ray cluster, loaded once for every batch."""

    def __init__(self, plan: RunPlan, mp: ModelPlan, sink: ProgressSink, cluster: Any):
        from sampler.sample.ray_sampling import RayEngines, actor_count

        s = mp.spec.settings
        self.summary = ModelSummary(mp.name)
        started = time.monotonic()
        questions = len(plan.shard_keys())
        workers = actor_count(cluster, s.tensor_parallel_size, s.data_parallel_size, questions)

        def send(*message: Any) -> None:
            _account(self.summary, message, started)
            sink.event(mp.name, message)

        self.queued: deque[tuple[int, list[WorkItem]]] = deque()
        self.engines = RayEngines(model_job(plan, mp, []), cluster, workers, send)

    def submit(self, batch: int, items: list[WorkItem]) -> None:
        self.queued.append((batch, items))

    def wait(self) -> int:
        batch, items = self.queued.popleft()
        self.engines.run(items)
        return batch

    def close(self) -> None:
        try:
            self.engines.finish()
        finally:
            self.engines.close()

    def abort(self) -> None:
        self.engines.close()


def open_session(plan: RunPlan, mp: ModelPlan, sink: ProgressSink, cluster: Any | None) -> Session:
    """Load ``mp``'s engines: on the Ray ``cluster`` when given, else in worker processes."""
    sink.model_started(mp.name, len(mp.items), mp.samples_to_draw, 1)
    if cluster is not None:
        return RaySession(plan, mp, sink, cluster)
    s = mp.spec.settings
    workers = s.data_parallel_size if s.engine == "vllm" else 1
    return LocalSession(plan, mp, sink, max(1, min(workers, len(mp.items))))
