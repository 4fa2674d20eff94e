"""Verify many answers fast and without hanging: deduplicate, then a pool with hard deadlines.

``AnswerVerifier.verify`` takes one gold and one extracted answer per sample. It
verifies each distinct (gold, answer) pair once, across calls too, and reuses the
verdict for every sample that gave it. The distinct pairs go to ``VerifyPool``:
worker processes (default: one per core, see ``sampler.verify_worker``) that run
``answer_verdict.judge_safely`` on small batches.

The deadline is enforced from outside. math-verify's own timeouts use signal
alarms, which cannot interrupt long C-level work (the answer
``\\dfrac{5^{(5^{(5^{(5^5)})}-4)}-5}{16}`` computes for minutes), so the parent
watches every worker: one that spends more than ``deadline_s`` on an item is
killed (SIGKILL) and replaced, its item gets status ``timeout`` and the rest of
its batch goes back to the queue. A worker that dies gives its item status
``error``. Workers are fresh interpreters, so the caller's threads, GPU context
and ``__main__`` never leak into them.
"""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path

from sampler.answer_extraction import AnswerSpan
from sampler.answer_verdict import MAX_ANSWER_CHARS, Verdict, VerifyTask, prepare_span
from sampler.errors import LeashError
from sampler.gold_answers import Gold
from sampler.results_schema import STATUS_ERROR, STATUS_NO_ANSWER, STATUS_TIMEOUT
from sampler.verify_worker import READY

#: Seconds one (gold, answer) pair may take, parse and compare together.
DEFAULT_DEADLINE_S = 10.0
#: Extra address space (MiB) a worker may allocate beyond what it holds once loaded.
DEFAULT_MEMORY_LIMIT_MB = 4096
#: Seconds a new worker may take to load math-verify before the pool gives up.
STARTUP_LIMIT_S = 120.0
_MAX_BATCH = 16
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)

__all__ = ["DEFAULT_DEADLINE_S", "AnswerVerifier", "VerifyCounts", "VerifyPool", "VerifyTask"]


class _Worker:
    """One worker process and the two pipes to it."""

    def __init__(self, memory_limit_mb: int | None):
        from_child, child_writes = os.pipe()
        child_reads, to_child = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p
        )
        quiet = not os.environ.get("LEASH_VERIFY_DEBUG")
        argv = [
            sys.executable,
            "-m",
            "sampler.verify_worker",
            str(child_reads),
            str(child_writes),
            str(os.getpid()),
            str(memory_limit_mb or 0),
        ]
        try:
            self.process = subprocess.Popen(
                argv,
                pass_fds=(child_reads, child_writes),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL if quiet else None,
                stderr=subprocess.DEVNULL if quiet else None,
                env=env,
            )
        finally:
            os.close(child_reads)
            os.close(child_writes)
        self.reader = Connection(from_child, writable=False)
        self.writer = Connection(to_child, readable=False)
        self.started = time.monotonic()
        self.ready = False
        self.batch: list[tuple[int, VerifyTask]] = []
        self.position = 0
        self.since = 0.0

    @property
    def busy(self) -> bool:
        return self.position < len(self.batch)

    def assign(self, batch: list[tuple[int, VerifyTask]]) -> None:
        self.batch = batch
        self.position = 0
        self.since = time.monotonic()
        self.writer.send(batch)

    def current(self) -> tuple[int, VerifyTask]:
        return self.batch[self.position]

    def rest(self) -> list[tuple[int, VerifyTask]]:
        return self.batch[self.position + 1 :]

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self._close_pipes()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.writer.send(None)
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close_pipes()

    def _close_pipes(self) -> None:
        for conn in (self.reader, self.writer):
            with contextlib.suppress(OSError):
                conn.close()


def _startup_problem() -> str:
    """Why a worker cannot start: import the worker's modules here and report the error."""
    probe = subprocess.run(
        [sys.executable, "-c", "import sampler.answer_verdict"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": _PACKAGE_ROOT},
        timeout=120,
        check=False,
    )
    lines = (probe.stderr or "").strip().splitlines()
    return lines[-1] if lines else f"exit status {probe.returncode}"


class VerifyPool:
    """Worker processes that verify ``VerifyTask``s, each under a hard deadline."""

    def __init__(
        self,
        workers: int | None = None,
        deadline_s: float = DEFAULT_DEADLINE_S,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    ):
        if deadline_s <= 0:
            raise ValueError("deadline_s must be positive")
        self.size = max(1, workers or os.cpu_count() or 1)
        self.deadline_s = float(deadline_s)
        self.memory_limit_mb = memory_limit_mb
        self.timeouts = 0
        self.crashes = 0
        self._failed_starts = 0
        self._workers: list[_Worker] = []

    def __enter__(self) -> VerifyPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        fresh = _Worker(self.memory_limit_mb)
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def close(self) -> None:
        """Stop every worker (politely when idle, by force when busy or starting)."""
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.busy or not worker.ready:
                worker.kill()
            else:
                worker.stop()

    def run(
        self,
        tasks: Sequence[VerifyTask],
        on_result: Callable[[int, Verdict], None] | None = None,
    ) -> list[Verdict]:
        """Verdicts for ``tasks``, in order; ``on_result(i, verdict)`` as each one ends."""
        if not tasks:
            return []
        results: list[Verdict | None] = [None] * len(tasks)
        queue: deque[tuple[int, VerifyTask]] = deque(enumerate(tasks))
        remaining = len(tasks)
        while len(self._workers) < min(self.size, len(tasks)):
            self._workers.append(_Worker(self.memory_limit_mb))

        def finish(index: int, verdict: Verdict) -> None:
            nonlocal remaining
            if results[index] is None:
                results[index] = verdict
                remaining -= 1
                if on_result is not None:
                    on_result(index, verdict)

        try:
            while remaining:
                self._dispatch(queue)
                watched = [w for w in self._workers if w.busy or not w.ready]
                if not watched:
                    raise RuntimeError("verification pool lost track of its tasks")
                now = time.monotonic()
                limits = [
                    (w.since + self.deadline_s) if w.ready else (w.started + STARTUP_LIMIT_S)
                    for w in watched
                ]
                ready = wait([w.reader for w in watched], timeout=max(0.0, min(limits) - now))
                by_reader = {id(w.reader): w for w in watched}
                for reader in ready:
                    self._collect(by_reader[id(reader)], queue, finish)
                self._enforce_deadlines(queue, finish)
        except BaseException:
            self.close()  # workers may hold half a batch: never reuse them after an interrupt
            raise
        return [r if r is not None else Verdict(STATUS_ERROR) for r in results]

    def _enforce_deadlines(
        self, queue: deque[tuple[int, VerifyTask]], finish: Callable[[int, Verdict], None]
    ) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            if not worker.ready:
                if now - worker.started > STARTUP_LIMIT_S:
                    raise LeashError(
                        f"a verification worker did not start within {STARTUP_LIMIT_S:g} s"
                    )
                continue
            if worker.busy and now - worker.since > self.deadline_s:
                index, _ = worker.current()
                queue.extendleft(reversed(worker.rest()))
                self.timeouts += 1
                self._replace(worker)
                finish(
                    index, Verdict(STATUS_TIMEOUT, None, f"no verdict within {self.deadline_s:g} s")
                )

    def _dispatch(self, queue: deque[tuple[int, VerifyTask]]) -> None:
        idle = [w for w in self._workers if w.ready and not w.busy]
        if not idle or not queue:
            return
        size = max(1, min(_MAX_BATCH, math.ceil(len(queue) / (2 * len(self._workers)))))
        for worker in idle:
            if not queue:
                break
            batch = [queue.popleft() for _ in range(min(size, len(queue)))]
            try:
                worker.assign(batch)
            except OSError:  # it died between batches (killed by the OS, say): try a fresh one
                queue.extendleft(reversed(batch))
                worker.batch = []
                self.crashes += 1
                self._replace(worker)

    def _collect(
        self,
        worker: _Worker,
        queue: deque[tuple[int, VerifyTask]],
        finish: Callable[[int, Verdict], None],
    ) -> None:
        """Read every message the worker has sent; handle its death."""
        while True:
            try:
                if not worker.reader.poll():
                    return
                message = worker.reader.recv()
            except (EOFError, OSError):
                self._lost(worker, queue, finish)
                return
            if message == READY:
                worker.ready = True
                self._failed_starts = 0
                continue
            index, verdict = message
            worker.position += 1
            worker.since = time.monotonic()
            finish(index, verdict)

    def _lost(
        self,
        worker: _Worker,
        queue: deque[tuple[int, VerifyTask]],
        finish: Callable[[int, Verdict], None],
    ) -> None:
        """A worker's pipe closed: it died. Its current item is an error; the rest go back."""
        code = worker.process.poll()
        if not worker.ready:
            self._failed_starts += 1
            if self._failed_starts >= 3:
                raise LeashError(f"verification workers cannot start: {_startup_problem()}")
            self._replace(worker)
            return
        self.crashes += 1
        if worker.busy:
            index, _ = worker.current()
            queue.extendleft(reversed(worker.rest()))
            finish(index, Verdict(STATUS_ERROR, None, f"verifier process died (exit {code})"))
        worker.batch = []
        self._replace(worker)


# -- deduplication ---------------------------------------------------------------------------


@dataclass
class VerifyCounts:
    """What ``AnswerVerifier`` did: samples seen, distinct pairs, calls made and saved."""

    samples: int = 0
    no_answer: int = 0
    no_gold: int = 0
    verifier_calls: int = 0
    cache_hits: int = 0

    @property
    def calls_saved(self) -> int:
        return self.cache_hits


class AnswerVerifier:
    """Deduplicating front of a ``VerifyPool``: one verification per distinct (gold, answer)."""

    def __init__(self, pool: VerifyPool):
        self.pool = pool
        self.counts = VerifyCounts()
        self._cache: dict[tuple, Verdict] = {}

    def verify(
        self,
        golds: Sequence[Gold | None],
        spans: Sequence[AnswerSpan | None],
        on_samples_done: Callable[[int], None] | None = None,
    ) -> list[Verdict]:
        """One verdict per sample; ``on_samples_done(n)`` reports progress in samples."""
        if len(golds) != len(spans):
            raise ValueError("golds and spans must have the same length")
        verdicts: list[Verdict | None] = [None] * len(spans)
        pending: dict[tuple, list[int]] = {}
        tasks: list[VerifyTask] = []
        instant = 0
        for i, (gold, span) in enumerate(zip(golds, spans, strict=True)):
            self.counts.samples += 1
            if span is None:
                verdicts[i] = Verdict(STATUS_NO_ANSWER)
                self.counts.no_answer += 1
                instant += 1
                continue
            if gold is None:
                verdicts[i] = Verdict(STATUS_ERROR, None, "question has no gold answer")
                self.counts.no_gold += 1
                instant += 1
                continue
            span = prepare_span(span, gold)
            key = (gold.key(), span.text, span.free_text)
            cached = self._cache.get(key)
            if cached is not None:
                verdicts[i] = cached
                self.counts.cache_hits += 1
                instant += 1
                continue
            if key in pending:
                pending[key].append(i)
                self.counts.cache_hits += 1
                continue
            pending[key] = [i]
            tasks.append(VerifyTask(gold, span))
        if instant and on_samples_done is not None:
            on_samples_done(instant)
        keys = list(pending)
        self.counts.verifier_calls += len(tasks)

        def done(task_index: int, verdict: Verdict) -> None:
            key = keys[task_index]
            if verdict.answer is None and verdict.status != STATUS_NO_ANSWER:
                # timeout or crash before normalising: keep the answer as written, so that
                # answer statistics still see it
                text = tasks[task_index].span.text[:MAX_ANSWER_CHARS]
                verdict = Verdict(verdict.status, text, verdict.detail)
            self._cache[key] = verdict
            for i in pending[key]:
                verdicts[i] = verdict
            if on_samples_done is not None:
                on_samples_done(len(pending[key]))

        self.pool.run(tasks, on_result=done)
        return [v if v is not None else Verdict(STATUS_ERROR) for v in verdicts]
