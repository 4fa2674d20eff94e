"""Verify many answers without hanging: a pool of worker processes with hard deadlines.

``AnswerVerifier`` (``answer_verifier.py``) sends the distinct (gold, answer) pairs of a
batch here. ``VerifyPool`` runs them on worker processes (default: one per core, see
``sampler.verify.workers.worker``) that run ``math_verifier.judge_safely`` on small batches.

The deadline is enforced from outside. math-verify's own timeouts use signal
alarms, which cannot interrupt long C-level work (the answer
``\\dfrac{5^{(5^{(5^{(5^5)})}-4)}-5}{16}`` computes for minutes), so the parent
watches every worker: one that spends more than ``deadline_s`` **CPU seconds** on an
item (its user plus system time, read from ``/proc``) is killed (SIGKILL) and
replaced, its item gets status ``timeout`` and the rest of its batch goes back to
the queue. CPU time, not wall time: on a loaded machine a worker gets a fraction of
a core, and an answer that takes one CPU second may take ten on the clock; it must
not time out for that. A worker that uses no CPU yet makes no progress (stuck in a
system call) is stopped by a wall-clock backstop, ``wall_limit_s`` (default
``WALL_LIMIT_FACTOR`` times the deadline). ``clock="wall"`` makes the deadline wall
time (for verifiers whose work runs in child processes, whose CPU a worker's own
time does not show). A worker that dies gives its item status
``error``. Workers are forked from a zygote, a fresh interpreter that loaded
math-verify once (``sampler.verify.workers.worker``), so a replacement starts in
milliseconds and the caller's threads, GPU context and ``__main__`` never leak
into them. Start it early with ``prestart``: the import takes most of a second.
``preparse`` then hands it the folder's golds, which it parses while the caller is
still extracting answers: a gold's parse is done once, before any worker exists, on a
core that would otherwise wait.

Pending pairs are split into one contiguous run per worker (``_Lanes``), so that a
worker meets few answer shapes and its parser and sympy caches, which each worker
builds for itself, are hit more.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Self

from sampler.errors import LeashError
from sampler.store import STATUS_ERROR, STATUS_TIMEOUT
from sampler.verify.answers.verdict import (
    Verdict,
    VerifyTask,
)
from sampler.verify.workers.worker import GOLDS_PARSED, PID_FORMAT, READY, ZYGOTE_READY

#: CPU seconds one (gold, answer) pair may take, parse and compare together.
DEFAULT_DEADLINE_S = 10.0
#: A worker's item may take this many times its deadline on the clock, however little CPU
#: it used (the backstop for a worker stuck in a system call, or starved for minutes).
WALL_LIMIT_FACTOR = 10.0
#: How the deadline is counted: the worker's CPU seconds, or seconds on the clock.
CLOCKS = ("cpu", "wall")
#: Extra address space (MiB) a worker may allocate beyond what it holds once loaded.
DEFAULT_MEMORY_LIMIT_MB = 4096
#: Seconds the zygote may take to load and warm up math-verify before the pool gives up.
STARTUP_LIMIT_S = 120.0
#: Seconds a freshly forked worker may take to say it is ready.
WORKER_START_LIMIT_S = 30.0
_MAX_BATCH = 8
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)

__all__ = ["DEFAULT_DEADLINE_S", "TaskStream", "VerifyPool", "VerifyTask"]


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds a live process has used (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity, as SLURM or taskset set it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Zygote:
    """The process that has math-verify loaded and warm, and forks workers on request."""

    def __init__(self, memory_limit_mb: int | None, preload: Sequence[str] = ()):
        parent_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p
        )
        quiet = not os.environ.get("LEASH_VERIFY_DEBUG")
        argv = [
            sys.executable,
            "-m",
            "sampler.verify.workers.worker",
            "zygote",
            str(child_end.fileno()),
            str(os.getpid()),
            str(memory_limit_mb or 0),
            *([",".join(preload)] if preload else []),
        ]
        try:
            self.process = subprocess.Popen(
                argv,
                pass_fds=(child_end.fileno(),),
                stdin=subprocess.PIPE,  # the golds to parse ahead (``preparse``)
                stdout=subprocess.DEVNULL if quiet else None,
                stderr=subprocess.DEVNULL if quiet else None,
                env=env,
                # ``-m`` puts the working directory first on sys.path: run from leash's own
                # root, so that a ``sampler`` package elsewhere can never stand in for it
                cwd=_PACKAGE_ROOT,
            )
        finally:
            child_end.close()
        self.sock = parent_end
        self.started = time.monotonic()
        self.ready = False
        self.golds_sent = False
        self.golds_parsed = False

    def send_golds(self, golds: Sequence[str]) -> None:
        """Hand the zygote the golds to parse before it forks (once; ``VerifyPool.preparse``).

        A thread writes them, so that a folder's many golds never block the caller on a
        full pipe; the zygote reads until the pipe closes."""
        if self.golds_sent or self.process.stdin is None:
            return
        self.golds_sent = True
        payload = json.dumps(list(golds)).encode() + b"\n"
        stdin = self.process.stdin

        def write() -> None:
            with contextlib.suppress(OSError, ValueError):
                stdin.write(payload)
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

        threading.Thread(target=write, name="leash-zygote-golds", daemon=True).start()

    def wait_ready(self) -> None:
        """Block until the zygote has loaded math-verify; LeashError if it cannot."""
        if self.ready:
            return
        remaining = STARTUP_LIMIT_S - (time.monotonic() - self.started)
        self.sock.settimeout(max(remaining, 0.001))
        try:
            message = self.sock.recv(len(ZYGOTE_READY))
        except OSError:  # includes socket.timeout
            message = b""
        finally:
            self.sock.settimeout(None)
        if message != ZYGOTE_READY:
            self.kill()
            raise LeashError(f"verification workers cannot start: {_startup_problem()}")
        self.ready = True

    def fork(self) -> tuple[int, Connection, Connection]:
        """A new worker: its pid and the parent's ends of its two pipes."""
        self.wait_ready()
        from_child, child_writes = os.pipe()
        child_reads, to_child = os.pipe()
        try:
            socket.send_fds(self.sock, [b"fork"], [child_reads, child_writes])
            pid = self._message()
            while pid == GOLDS_PARSED:  # it stopped parsing golds to fork
                self.golds_parsed = True
                pid = self._message()
        except OSError:
            os.close(from_child)
            os.close(to_child)
            raise
        finally:
            os.close(child_reads)
            os.close(child_writes)
        return pid, Connection(from_child, writable=False), Connection(to_child, readable=False)

    def _message(self) -> int:
        """The zygote's next message: a worker's pid, or ``GOLDS_PARSED``."""
        reply = b""
        while len(reply) < struct.calcsize(PID_FORMAT):
            chunk = self.sock.recv(struct.calcsize(PID_FORMAT) - len(reply))
            if not chunk:
                raise OSError("the verification zygote exited")
            reply += chunk
        (value,) = struct.unpack(PID_FORMAT, reply)
        return value

    def prepared(self) -> bool:
        """Whether a worker forked now would find the golds parsed (or none were sent),
        without waiting."""
        if not self.golds_sent or self.golds_parsed:
            return True
        if not self.ready:
            ready, _, _ = select.select([self.sock], [], [], 0)
            if not ready:
                return False
            self.wait_ready()
        ready, _, _ = select.select([self.sock], [], [], 0)
        if ready:
            with contextlib.suppress(OSError):
                self.golds_parsed = self._message() == GOLDS_PARSED
        return self.golds_parsed

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self, grace_s: float = 0.0) -> float:
        """Stop the zygote (closing its socket ends it; SIGKILL after ``grace_s`` seconds);
        return the CPU seconds it used itself."""
        used = process_cpu_seconds(self.process.pid)
        with contextlib.suppress(OSError):
            self.sock.close()
        if not self.golds_sent and self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=grace_s)
            return used
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        return used


class _Worker:
    """One worker process (a child of the zygote) and the two pipes to it."""

    def __init__(self, zygote: _Zygote):
        self.pid, self.reader, self.writer = zygote.fork()
        # A pidfd names this very process, so a kill can never hit a recycled pid.
        self.pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self.pidfd = os.pidfd_open(self.pid)
        self.started = time.monotonic()
        self.ready = False
        self.batch: list[tuple[int, VerifyTask]] = []
        self.position = 0
        #: when its current item began: on the clock, and in its own CPU seconds
        self.since = 0.0
        self.cpu_since = 0.0
        #: when the parent next looks whether the current item is past its deadline
        self.check_at = 0.0

    def start_item(self, limit_s: float) -> None:
        """Note that the next item of its batch begins now (``limit_s``: its deadline)."""
        self.since = time.monotonic()
        self.cpu_since = process_cpu_seconds(self.pid)
        self.check_at = self.since + limit_s

    def item_cpu_seconds(self) -> float:
        """CPU seconds the worker has spent on its current item so far."""
        return process_cpu_seconds(self.pid) - self.cpu_since

    @property
    def busy(self) -> bool:
        return self.position < len(self.batch)

    def assign(self, batch: list[tuple[int, VerifyTask]], limit_s: float) -> None:
        self.batch = batch
        self.position = 0
        self.start_item(limit_s)
        self.writer.send(batch)

    def current(self) -> tuple[int, VerifyTask]:
        return self.batch[self.position]

    def rest(self) -> list[tuple[int, VerifyTask]]:
        return self.batch[self.position + 1 :]

    def kill(self) -> float:
        """Kill the worker; return the CPU seconds it used."""
        used = process_cpu_seconds(self.pid)
        with contextlib.suppress(OSError):
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self.pidfd)
            self.pidfd = None
        for conn in (self.reader, self.writer):
            with contextlib.suppress(OSError):
                conn.close()
        return used


def _startup_problem() -> str:
    """Why the workers cannot start: import their modules here and report the error."""
    probe = subprocess.run(
        [sys.executable, "-c", "import sampler.verify.workers.worker as w; w.load()"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": _PACKAGE_ROOT},
        cwd=_PACKAGE_ROOT,
        timeout=STARTUP_LIMIT_S,
        check=False,
    )
    lines = (probe.stderr or "").strip().splitlines()
    return lines[-1] if lines else f"start-up took over {STARTUP_LIMIT_S:g} s"


Pending = tuple[int, VerifyTask]


class _Lanes:
    """Tasks waiting for a worker: one contiguous run of them per worker slot.

    A worker takes batches from the front of its own run; when that is empty it
    takes from the back of the longest other run. Tasks come in question order
    (shards are sorted), so each worker sees a few benchmarks' answer shapes, not
    all of them: the parser's prediction cache and sympy's caches, which every
    worker fills for itself, are filled for fewer shapes and hit more often. On
    ``bench/verify_speed.py`` (2 workers) workers use about a tenth less CPU than
    when batches are dealt out in turn: most of a pair's cost there is a worker
    meeting an answer shape for the first time.
    """

    def __init__(self, items: Sequence[Pending], lanes: int):
        lanes = max(1, lanes)
        step, extra = divmod(len(items), lanes)
        self._lanes: list[deque[Pending]] = []
        start = 0
        for k in range(lanes):
            end = start + step + (1 if k < extra else 0)
            self._lanes.append(deque(items[start:end]))
            start = end

    def __len__(self) -> int:
        return sum(len(lane) for lane in self._lanes)

    def extend(self, items: Sequence[Pending]) -> None:
        """Add ``items`` (tasks of a stream's later part): one contiguous run to each lane."""
        step, extra = divmod(len(items), len(self._lanes))
        start = 0
        for k, lane in enumerate(self._lanes):
            end = start + step + (1 if k < extra else 0)
            lane.extend(items[start:end])
            start = end

    def take(self, slot: int, size: int) -> list[Pending]:
        """Up to ``size`` tasks for the worker in ``slot``, in task order."""
        own = self._lanes[slot % len(self._lanes)]
        if own:
            return [own.popleft() for _ in range(min(size, len(own)))]
        longest = max(self._lanes, key=len)
        stolen = [longest.pop() for _ in range(min(size, len(longest)))]
        stolen.reverse()
        return stolen

    def put_back(self, slot: int, items: Sequence[Pending]) -> None:
        """Return tasks a worker did not finish to the front of its run."""
        self._lanes[slot % len(self._lanes)].extendleft(reversed(items))


class PoolBase:
    """What every verification pool shares (workers.pools.Pool): its size, deadline and
    memory limit, checked; its timeout and crash counts; and use as a context manager."""

    def __init__(self, size: int, deadline_s: float, memory_limit_mb: int | None):
        if deadline_s <= 0:
            raise ValueError("deadline_s must be positive")
        self.size = max(1, size)
        self.deadline_s = float(deadline_s)
        self.memory_limit_mb = memory_limit_mb
        self.timeouts = 0
        self.crashes = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError


class VerifyPool(PoolBase):
    """Worker processes that verify ``VerifyTask``s, each under a hard deadline."""

    def __init__(
        self,
        workers: int | None = None,
        deadline_s: float = DEFAULT_DEADLINE_S,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
        preload: Sequence[str] = (),
        clock: str = "cpu",
        wall_limit_s: float | None = None,
    ):
        """``preload``: modules the zygote imports too (a verifier's package), so that no
        worker spends its first item's deadline importing them. ``clock``: ``cpu`` (the
        deadline counts the worker's CPU seconds) or ``wall``; ``wall_limit_s``: the
        wall-clock backstop of the ``cpu`` clock (default ``WALL_LIMIT_FACTOR`` deadlines)."""
        super().__init__(workers or available_cores(), deadline_s, memory_limit_mb)
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}")
        self.clock = clock
        self.wall_limit_s = (
            self.deadline_s
            if clock == "wall"
            else float(wall_limit_s or WALL_LIMIT_FACTOR * self.deadline_s)
        )
        if self.wall_limit_s < self.deadline_s:
            raise ValueError("wall_limit_s must be at least deadline_s")
        self.preload = tuple(preload)
        #: CPU seconds used by workers and zygotes already stopped (see ``cpu_seconds``).
        self._spent_cpu = 0.0
        self._zygote: _Zygote | None = None
        self._workers: list[_Worker] = []
        self._stream: TaskStream | None = None

    def prestart(self) -> None:
        """Begin loading math-verify in the background (it takes most of a second)."""
        if self._zygote is None or not self._zygote.alive():
            if self._zygote is not None:
                self._spent_cpu += self._zygote.kill()
            self._zygote = _Zygote(self.memory_limit_mb, self.preload)

    def preparse(self, golds: Sequence[str]) -> None:
        """Have the zygote parse ``golds`` (LaTeX, as ``Gold.latex``) while the caller extracts
        answers: every worker forked afterwards finds them parsed (math-verify's parser
        also warms up on the shapes the answers will have). Once per zygote; a call after the
        first fork, or a gold that is slow to parse, only leaves the workers more to do."""
        self.prestart()
        assert self._zygote is not None
        if not self._workers:
            self._zygote.send_golds(golds)

    def _spawn(self) -> _Worker:
        self.prestart()
        assert self._zygote is not None
        try:
            return _Worker(self._zygote)
        except OSError:  # the zygote died (killed by the OS, say): start another, once
            self._spent_cpu += self._zygote.kill()
            self._zygote = _Zygote(self.memory_limit_mb, self.preload)
            return _Worker(self._zygote)

    def _replace(self, worker: _Worker) -> _Worker:
        self._spent_cpu += worker.kill()
        fresh = self._spawn()
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def worker_pids(self) -> list[int]:
        """Process ids of the current workers (for diagnostics)."""
        return [w.pid for w in self._workers]

    def close(self) -> None:
        """Stop every worker and the zygote. They hold no state worth saving: kill them."""
        self._stop_workers()
        self._stream = None
        if self._zygote is not None:
            # a moment for the zygote to reap the workers just killed, then it goes too
            self._spent_cpu += self._zygote.kill(grace_s=0.5 if self._zygote.ready else 0.0)
            self._zygote = None

    def cpu_seconds(self) -> float:
        """CPU seconds the zygote and workers have used so far (for benchmarks)."""
        live = sum(process_cpu_seconds(w.pid) for w in self._workers)
        if self._zygote is not None:
            live += process_cpu_seconds(self._zygote.process.pid)
        return self._spent_cpu + live

    def run(
        self,
        tasks: Sequence[VerifyTask],
        on_result: Callable[[int, Verdict], None] | None = None,
    ) -> list[Verdict]:
        """Verdicts for ``tasks``, in order; ``on_result(i, verdict)`` as each one ends."""
        if not tasks:
            return []
        stream = self.stream(on_result)
        stream.add(tasks)
        return stream.finish()

    def stream(self, on_result: Callable[[int, Verdict], None] | None = None) -> TaskStream:
        """A run whose tasks come in parts (``TaskStream``): the workers verify the first
        parts while the caller is still extracting the answers of the next."""
        if self._stream is not None and not self._stream.finished:
            self._stop_workers()  # an abandoned stream's workers may hold half a batch
        self._stream = TaskStream(self, on_result)
        return self._stream

    def _zygote_prepared(self) -> bool:
        self.prestart()
        assert self._zygote is not None
        return self._zygote.prepared()

    def _stop_workers(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            self._spent_cpu += worker.kill()

    def _pump(self, stream: TaskStream, timeout_s: float | None) -> None:
        """Hand out tasks, then read what the workers answered, waiting at most ``timeout_s``
        (None: until the next answer or deadline)."""
        queue = stream.queue
        self._dispatch(queue)
        watched = [w for w in self._workers if w.busy or not w.ready]
        if not watched:
            if stream.remaining:
                raise RuntimeError("verification pool lost track of its tasks")
            return
        now = time.monotonic()
        limits = [w.check_at if w.ready else (w.started + WORKER_START_LIMIT_S) for w in watched]
        wait_s = max(0.0, min(limits) - now)
        if timeout_s is not None:
            wait_s = min(wait_s, timeout_s)
        ready = wait([w.reader for w in watched], timeout=wait_s)
        by_reader = {id(w.reader): w for w in watched}
        for reader in ready:
            self._collect(by_reader[id(reader)], queue, stream.finish_task)
        self._enforce_deadlines(queue, stream.finish_task)

    def _enforce_deadlines(self, queue: _Lanes, finish: Callable[[int, Verdict], None]) -> None:
        now = time.monotonic()
        for slot, worker in enumerate(list(self._workers)):
            if not worker.ready:
                if now - worker.started > WORKER_START_LIMIT_S:
                    raise LeashError(
                        f"a verification worker did not start within {WORKER_START_LIMIT_S:g} s"
                    )
                continue
            if not worker.busy or now < worker.check_at:
                continue
            why = self._past_deadline(worker, now)
            if why is None:
                continue
            index, _ = worker.current()
            queue.put_back(slot, worker.rest())
            self.timeouts += 1
            self._replace(worker)
            finish(index, Verdict(STATUS_TIMEOUT, None, why))

    def _past_deadline(self, worker: _Worker, now: float) -> str | None:
        """Why the worker's current item is past its deadline, or None (then the next look
        is set: a worker given a fraction of a core needs longer on the clock)."""
        wall = now - worker.since
        if wall >= self.wall_limit_s:
            if self.clock == "wall":
                return f"no verdict within {self.deadline_s:g} s"
            return f"no verdict within {self.wall_limit_s:g} s on the clock"
        used = worker.item_cpu_seconds()
        if used >= self.deadline_s:
            return f"no verdict within {self.deadline_s:g} CPU s"
        # it cannot reach the deadline sooner than if it had a whole core from now on
        worker.check_at = min(
            now + max(self.deadline_s - used, 0.05), worker.since + self.wall_limit_s
        )
        return None

    def _dispatch(self, queue: _Lanes) -> None:
        waiting = len(queue)
        if not waiting:
            return
        # Small batches: few messages, yet no worker sits idle while another has a long queue.
        size = max(1, min(_MAX_BATCH, math.ceil(waiting / (8 * len(self._workers)))))
        for slot, worker in enumerate(list(self._workers)):
            if not worker.ready or worker.busy:
                continue
            batch = queue.take(slot, size)
            if not batch:
                break
            try:
                worker.assign(batch, self.deadline_s)
            except OSError:  # it died between batches (killed by the OS, say): try a fresh one
                queue.put_back(slot, batch)
                worker.batch = []
                self.crashes += 1
                self._replace(worker)

    def _collect(
        self, worker: _Worker, queue: _Lanes, finish: Callable[[int, Verdict], None]
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
                continue
            index, verdict = message
            worker.position += 1
            if worker.busy:
                worker.start_item(self.deadline_s)
            finish(index, verdict)

    def _lost(self, worker: _Worker, queue: _Lanes, finish: Callable[[int, Verdict], None]) -> None:
        """A worker's pipe closed: it died. Its current item is an error; the rest go back."""
        self.crashes += 1
        if worker.busy:
            index, _ = worker.current()
            queue.put_back(self._workers.index(worker), worker.rest())
            finish(index, Verdict(STATUS_ERROR, None, "the verifier process died on this answer"))
        worker.batch = []
        if self.crashes > 10 * self.size + len(queue):
            raise LeashError("verification workers keep dying; see LEASH_VERIFY_DEBUG=1 output")
        self._replace(worker)


class TaskStream:
    """One run of a ``VerifyPool`` whose tasks are added in parts (``VerifyPool.stream``).

    ``add(tasks)`` queues tasks (numbered on from the ones before), hands them to idle workers
    and collects the answers that are in, without waiting; ``finish()`` waits for the rest and
    returns every verdict in task order. ``on_result(i, verdict)`` is called as each ends,
    in the caller's thread (inside ``add`` or ``finish``). A stream left unfinished (the
    caller raised) is abandoned: the pool's next run starts from fresh workers.
    """

    def __init__(self, pool: VerifyPool, on_result: Callable[[int, Verdict], None] | None):
        self.pool = pool
        self.on_result = on_result
        self.results: list[Verdict | None] = []
        self.remaining = 0
        self.queue = _Lanes([], max(1, pool.size))
        self.finished = False

    def finish_task(self, index: int, verdict: Verdict) -> None:
        if self.results[index] is None:
            self.results[index] = verdict
            self.remaining -= 1
            if self.on_result is not None:
                self.on_result(index, verdict)

    def add(self, tasks: Sequence[VerifyTask]) -> None:
        """Queue ``tasks`` and make what progress is possible without waiting."""
        if self.finished:
            raise RuntimeError("this verification stream is finished")
        if not tasks:
            return
        first = len(self.results)
        self.results.extend([None] * len(tasks))
        self.remaining += len(tasks)
        pool = self.pool
        try:
            self.queue.extend(list(enumerate(tasks, start=first)))
            if pool._workers or pool._zygote_prepared():
                # (while the zygote still parses golds, the tasks wait: a worker forked now
                # would parse them again)
                self._start_workers()
                pool._pump(self, timeout_s=0.0)
        except BaseException:
            pool.close()  # workers may hold half a batch: never reuse them after an interrupt
            raise

    def _start_workers(self) -> None:
        pool = self.pool
        while len(pool._workers) < min(pool.size, len(self.results)):
            pool._workers.append(pool._spawn())

    def finish(self) -> list[Verdict]:
        """Every verdict, in task order, once all are in."""
        try:
            if self.remaining:
                self._start_workers()
            while self.remaining:
                self.pool._pump(self, timeout_s=None)
        except BaseException:
            self.pool.close()
            raise
        self.finished = True
        return [r if r is not None else Verdict(STATUS_ERROR) for r in self.results]
