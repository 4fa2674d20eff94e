"""Grading the samples of benchmarks whose verifier is not ``math``: one verdict per sample.

``OtherVerifiers`` is what ``sampler.verify.run`` hands such samples to. Like
``AnswerVerifier`` for math, it judges each distinct (question's gold, answer) pair
once and reuses the verdict for every sample that gave it. Verifiers that judge
in a worker (``in_worker``) get a ``VerifyPool`` of their own, whose zygote has
their package loaded, under the same hard deadline as math; the others judge
through ``judge_many`` in this process (``code`` runs each program in its own
sandboxed process there).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pyarrow as pa

from sampler import install_hint
from sampler.errors import LeashError
from sampler.store import STATUS_ERROR, STATUS_NO_ANSWER, STATUS_NO_GOLD
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.verdict import NO_GOLD_DETAIL, Verdict, VerifyTask
from sampler.verify.verifiers import DEFAULT_VERIFIER, get_verifier
from sampler.verify.verifiers.base import clip, metadata_object
from sampler.verify.verifiers.sandbox import require_sandbox
from sampler.verify.workers.pool import DEFAULT_MEMORY_LIMIT_MB, VerifyPool

#: One sample to grade: (verifier name, the question's gold for it, the completion's text).
Item = tuple[str, Hashable | None, str | None]


def question_golds(
    questions: pa.Table, verifier_of: dict[str, str]
) -> dict[tuple[str, str], Hashable | None]:
    """The gold of every question of a benchmark with a non-math verifier, by (benchmark, id)."""
    golds: dict[tuple[str, str], Hashable | None] = {}
    for b, q, g, m in zip(
        questions.column("benchmark").to_pylist(),
        questions.column("question_id").to_pylist(),
        questions.column("gold").to_pylist(),
        questions.column("metadata").to_pylist(),
        strict=True,
    ):
        name = verifier_of.get(b, DEFAULT_VERIFIER)
        if name != DEFAULT_VERIFIER:
            golds[(b, q)] = get_verifier(name).gold(g, metadata_object(m))
    return golds


def check_available(names: set[str], where: str) -> None:
    """A LeashError naming ``where`` when a verifier's package is not installed, or when
    it runs model-written code and no sandbox can be made (see ``sandbox``)."""
    for name in sorted(names):
        verifier = get_verifier(name, where)
        if verifier.runs_untrusted_code:
            require_sandbox(f"{where}: grading {name!r} benchmarks")
        for module in verifier.preload:
            if importlib.util.find_spec(module) is None:
                raise LeashError(
                    f"{where}: benchmarks graded by {name!r} need the {module!r} package"
                    f" ({install_hint(name)})"
                )


class OtherVerifiers:
    """Deduplicating front for the non-math verifiers; close it (or use ``with``) when done."""

    def __init__(
        self,
        workers: int,
        deadline_s: float,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    ):
        self.workers = max(1, workers)
        self.deadline_s = deadline_s
        self.memory_limit_mb = memory_limit_mb
        self.calls = 0
        self.cache_hits = 0
        self._cache: dict[tuple[Any, ...], Verdict] = {}
        self._pools: dict[str, VerifyPool] = {}

    def __enter__(self) -> OtherVerifiers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        pools, self._pools = self._pools, {}
        for pool in pools.values():
            pool.close()

    def _pool(self, name: str) -> VerifyPool:
        pool = self._pools.get(name)
        if pool is None:
            verifier = get_verifier(name)
            pool = self._pools[name] = VerifyPool(
                workers=self.workers,
                deadline_s=self.deadline_s,
                memory_limit_mb=self.memory_limit_mb,
                preload=verifier.preload,
                # CPU seconds, as for math answers; wall time for a verifier whose work runs
                # in sandboxed child processes, whose CPU the worker's own time does not show
                clock="wall" if verifier.runs_untrusted_code else "cpu",
            )
        return pool

    def verify(
        self, items: Sequence[Item], on_samples_done: Callable[[int], None] | None = None
    ) -> list[Verdict]:
        """One verdict per item, in order; ``on_samples_done(n)`` reports progress in samples."""
        verdicts: list[Verdict | None] = [None] * len(items)
        pending: dict[str, dict[tuple[Any, ...], list[int]]] = {}
        pairs: dict[str, list[tuple[Any, AnswerSpan]]] = {}
        instant = 0
        for i, (name, gold, text) in enumerate(items):
            verifier = get_verifier(name)
            span = verifier.extract(text) if text else None
            if gold is None:
                answer = clip(span.text) if span is not None else None
                verdicts[i] = Verdict(STATUS_NO_GOLD, answer, NO_GOLD_DETAIL)
                instant += 1
                continue
            if span is None:
                verdicts[i] = Verdict(STATUS_NO_ANSWER)
                instant += 1
                continue
            key = (name, gold, span.text)
            cached = self._cache.get(key)
            if cached is not None:
                verdicts[i] = cached
                self.cache_hits += 1
                instant += 1
                continue
            waiting = pending.setdefault(name, {})
            if key in waiting:
                waiting[key].append(i)
                self.cache_hits += 1
                continue
            waiting[key] = [i]
            pairs.setdefault(name, []).append((gold, span))
        if instant and on_samples_done is not None:
            on_samples_done(instant)
        for name, waiting in pending.items():
            keys = list(waiting)
            mine = pairs[name]
            self.calls += len(mine)

            def done(index: int, verdict: Verdict, keys: list = keys, waiting: dict = waiting):
                key = keys[index]
                if verdict.answer is None and verdict.status != STATUS_NO_ANSWER:
                    verdict = Verdict(verdict.status, clip(key[2]), verdict.detail, verdict.score)
                self._cache[key] = verdict
                for i in waiting[key]:
                    verdicts[i] = verdict
                if on_samples_done is not None:
                    on_samples_done(len(waiting[key]))

            verifier = get_verifier(name)
            if verifier.in_worker:
                tasks = [VerifyTask(gold, span, name) for gold, span in mine]
                self._pool(name).run(tasks, on_result=done)
            else:
                verifier.judge_many(
                    mine, workers=self.workers, deadline_s=self.deadline_s, on_result=done
                )
        return [v if v is not None else Verdict(STATUS_ERROR) for v in verdicts]
