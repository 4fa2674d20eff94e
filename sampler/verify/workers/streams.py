"""A run of a verification pool whose tasks come in parts: ``open_stream``.

``VerifyPool.stream`` (workers.pool) starts verifying the first part while the caller
extracts the answers of the next. A pool without streams (``RayVerifyPool``, whose actors
take whole chunks) gets ``CollectedStream``: the parts are gathered and run together by
``finish``, as one ``run`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from sampler.verify.answers.verdict import Verdict, VerifyTask

if TYPE_CHECKING:
    from sampler.verify.workers.pools import Pool

OnResult = Callable[[int, Verdict], None]


class Stream(Protocol):
    """Tasks added in parts, numbered on; verdicts in task order from ``finish``."""

    def add(self, tasks: Sequence[VerifyTask]) -> None: ...

    def finish(self) -> list[Verdict]: ...


class CollectedStream:
    """A stream over a pool that can only ``run`` a whole list: the parts wait for ``finish``."""

    def __init__(self, pool: Pool, on_result: OnResult | None):
        self.pool = pool
        self.on_result = on_result
        self.tasks: list[VerifyTask] = []

    def add(self, tasks: Sequence[VerifyTask]) -> None:
        self.tasks.extend(tasks)

    def finish(self) -> list[Verdict]:
        return self.pool.run(self.tasks, on_result=self.on_result)


def open_stream(pool: Pool, on_result: OnResult | None = None) -> Stream:
    """``pool``'s own stream where it has one, else a ``CollectedStream``."""
    stream = getattr(pool, "stream", None)
    if callable(stream):
        return stream(on_result)
    return CollectedStream(pool, on_result)
