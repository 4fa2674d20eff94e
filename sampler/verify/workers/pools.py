"""The verification pool's one interface, and the one place that chooses local or Ray.

``Pool`` is what ``AnswerVerifier`` and ``verify_results`` ask of a pool: ``run(tasks,
on_result)`` under a hard deadline per task, ``prestart``, ``preparse`` (golds to parse
before the first task), ``close`` (also as a context
manager), its ``size``, ``deadline_s`` and counts of ``timeouts`` and ``crashes``.
``VerifyPool`` (workers.pool: processes forked from a zygote on this machine) and
``RayVerifyPool`` (workers.ray_pool: one-worker pools on a Ray cluster's actors) both
have it. ``make_pool`` picks one: Ray when asked for (``ray`` or an ``address``),
imported only then, else local.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from sampler.verify.answers.verdict import Verdict, VerifyTask
from sampler.verify.workers.pool import DEFAULT_DEADLINE_S, DEFAULT_MEMORY_LIMIT_MB, VerifyPool


class Pool(Protocol):
    """A verification pool (see the module docstring)."""

    size: int
    deadline_s: float
    timeouts: int
    crashes: int

    def __enter__(self) -> Pool: ...

    def __exit__(self, *exc_info: object) -> None: ...

    def prestart(self) -> None: ...

    def preparse(self, golds: Sequence[str]) -> None: ...

    def run(
        self,
        tasks: Sequence[VerifyTask],
        on_result: Callable[[int, Verdict], None] | None = None,
    ) -> list[Verdict]: ...

    def close(self) -> None: ...


def make_pool(
    workers: int | None = None,
    deadline_s: float = DEFAULT_DEADLINE_S,
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    ray: bool = False,
    address: str | None = None,
) -> Pool:
    """A Ray pool when ``ray`` or an ``address`` is given (``workers``: actors, default the
    cluster's CPUs), else a local one (``workers``: processes, default the cores)."""
    if ray or address is not None:
        from sampler.verify.workers.ray_pool import RayVerifyPool

        return RayVerifyPool(
            workers=workers, deadline_s=deadline_s, memory_limit_mb=memory_limit_mb, address=address
        )
    return VerifyPool(workers=workers, deadline_s=deadline_s, memory_limit_mb=memory_limit_mb)
