"""``leash verify --ray``: the verification pool spread over a Ray cluster's cores.

``RayVerifyPool`` has the interface of ``VerifyPool`` (``run(tasks, on_result)``,
``prestart``, ``close``, ``size``, ``deadline_s``), so ``AnswerVerifier`` and
``verify_results`` use it unchanged: deduplication, caching and writing stay on the
driver. Each Ray actor holds a local ``VerifyPool`` of one worker process, so every
answer runs the same code under the same hard deadline, enforced from outside the
worker, as on one machine: the verdicts are identical. The driver sends chunks of
distinct (gold, answer) pairs, a few in flight per actor; an actor that dies is
restarted by Ray and its chunk retried.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from sampler.errors import LeashError
from sampler.ray_cluster import Cluster, connect, import_ray
from sampler.store import STATUS_ERROR, STATUS_TIMEOUT
from sampler.verify.answers.verdict import Verdict, VerifyTask
from sampler.verify.workers.pool import (
    DEFAULT_DEADLINE_S,
    DEFAULT_MEMORY_LIMIT_MB,
    PoolBase,
    VerifyPool,
)

#: Times Ray restarts a dead verification actor and retries its chunk.
MAX_RESTARTS = 4
#: Pairs per call at most: small enough to spread work, large enough to amortise a call.
MAX_CHUNK = 64


class VerifyWorker:
    """Body of the Ray actor: a one-worker ``VerifyPool`` on whichever node Ray chose."""

    def __init__(self, deadline_s: float, memory_limit_mb: int | None):
        self.pool = VerifyPool(workers=1, deadline_s=deadline_s, memory_limit_mb=memory_limit_mb)
        self.pool.prestart()

    def preparse(self, golds: list[str]) -> None:
        self.pool.preparse(golds)

    def run(self, tasks: list[VerifyTask]) -> list[Verdict]:
        return self.pool.run(tasks)

    def close(self) -> None:
        self.pool.close()


class RayVerifyPool(PoolBase):
    """``VerifyPool``'s interface over Ray actors (see the module docstring)."""

    def __init__(
        self,
        workers: int | None = None,
        deadline_s: float = DEFAULT_DEADLINE_S,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
        address: str | None = None,
    ):
        if deadline_s <= 0:
            raise ValueError("deadline_s must be positive")
        self.cluster: Cluster = connect(address)
        super().__init__(workers or int(self.cluster.cpus) or 1, deadline_s, memory_limit_mb)
        self._actors: list[Any] = []

    def prestart(self) -> None:
        """Start the actors (each loads math-verify) while the driver reads shards."""
        if self._actors:
            return
        ray = import_ray()
        actor_class = ray.remote(
            num_cpus=1, max_restarts=MAX_RESTARTS, max_task_retries=MAX_RESTARTS
        )(VerifyWorker)
        self._actors = [
            actor_class.remote(self.deadline_s, self.memory_limit_mb) for _ in range(self.size)
        ]

    def preparse(self, golds: Sequence[str]) -> None:
        """Each actor's zygote parses ``golds`` ahead (``VerifyPool.preparse``)."""
        self.prestart()
        listed = list(golds)
        for actor in self._actors:
            actor.preparse.remote(listed)

    def run(
        self,
        tasks: Sequence[VerifyTask],
        on_result: Callable[[int, Verdict], None] | None = None,
    ) -> list[Verdict]:
        """Verdicts for ``tasks``, in order; ``on_result(i, verdict)`` as each chunk ends."""
        if not tasks:
            return []
        ray = import_ray()
        self.prestart()
        size = max(1, min(MAX_CHUNK, math.ceil(len(tasks) / (4 * len(self._actors)))))
        chunks = deque(range(0, len(tasks), size))
        results: list[Verdict | None] = [None] * len(tasks)
        running: dict[Any, tuple[int, int]] = {}  # ref -> (actor, first task index)

        def submit(actor: int) -> None:
            if chunks:
                start = chunks.popleft()
                batch = list(tasks[start : start + size])
                running[self._actors[actor].run.remote(batch)] = (actor, start)

        for actor in range(len(self._actors)):
            submit(actor)
            submit(actor)
        try:
            while running:
                ready, _ = ray.wait(list(running), num_returns=1)
                actor, start = running.pop(ready[0])
                try:
                    verdicts = ray.get(ready[0])
                except ray.exceptions.RayError as exc:
                    raise LeashError(f"a Ray verification worker failed ({exc})") from None
                for offset, verdict in enumerate(verdicts):
                    results[start + offset] = verdict
                    self.timeouts += verdict.status == STATUS_TIMEOUT
                    if on_result is not None:
                        on_result(start + offset, verdict)
                submit(actor)
        except BaseException:
            for ref in running:
                ray.cancel(ref, force=True)
            self.close()
            raise
        return [r if r is not None else Verdict(STATUS_ERROR) for r in results]

    def close(self) -> None:
        if not self._actors:
            return
        ray = import_ray()
        for actor in self._actors:
            ray.kill(actor, no_restart=True)
        self._actors = []
