"""Verification processes: a zygote that loads math-verify once, and the workers it forks.

``verify_pool`` starts ``python -m sampler.verify.workers.worker zygote SOCKET_FD PARENT_PID
MEMORY_MB``: a fresh interpreter (never a fork of the caller, which may hold
threads, a GPU context or gigabytes, and whose ``__main__`` must not re-run). The
zygote imports math-verify (with its LaTeX parser switched to two-stage parsing,
``sampler.verify.answers.two_stage_parsing``), says ``ready``, warms the parser up only until
the first request arrives, then forks one worker per request. A request carries
the two pipe ends of the new worker, passed over a Unix socket; the zygote
answers with the worker's pid. Forked workers start in milliseconds, with
math-verify loaded, sharing the zygote's memory.

A worker verifies batches of ``(index, VerifyTask)`` read from its pipe and
answers one ``(index, Verdict)`` per task. Zygote and workers ignore Ctrl-C
(the parent handles it), die with their parent, write nothing to the terminal,
and workers may allocate only a bounded amount of memory. The parent kills a
worker whose item passes its deadline and asks the zygote for another.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

READY = "ready"
ZYGOTE_READY = b"ready"
PID_FORMAT = "!q"
#: What the zygote sends, in a pid's place, once it has parsed the golds it was sent.
GOLDS_PARSED = -1
_PR_SET_PDEATHSIG = 1
#: Seconds a parent that already waits for the zygote takes to ask for a worker, at most.
_ASK_WITHIN_S = 0.05

#: Seconds one gold may take to parse ahead in the zygote; a slower one stops the pre-parse
#: (the workers parse what is left, under their deadline).
PREPARSE_LIMIT_S = 1.0
#: Seconds the zygote spends parsing golds ahead in all: a large folder's first workers start
#: after at most this, with the golds parsed so far (its first questions'); they parse the rest.
PREPARSE_BUDGET_S = 1.5

#: Expressions the zygote parses while it waits for its first request, one of each common
#: shape: the parser's prediction cache and sympy's lazy imports they fill are shared by
#: every worker forked afterwards. About 50 ms an expression, cold.
WARM_UP = (
    r"\frac{1}{2}",
    r"-\frac{\sqrt{5}}{5}",
    r"2\sqrt{3}",
    r"(1,2)",
    r"[0, 1) \cup (2, \infty)",
    r"\{1, 2\}",
    r"x^2 + 3x - 4",
    r"y = 2x + 1",
    r"\frac{\pi}{4}",
    r"\text{Evelyn}",
    r"90^\circ",
    r"1.5 \times 10^{-3}",
)


def die_with_parent(parent_pid: int) -> None:
    """Ask Linux to kill this process when its parent exits (and exit if it already has)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(0)


def limit_memory(extra_mb: int) -> None:
    """Cap the address space at what the process holds now plus ``extra_mb`` MiB."""
    if extra_mb <= 0:
        return
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return
    limit = current + extra_mb * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def load(preload: tuple[str, ...] = ()) -> None:
    """Import math-verify, and make its LaTeX parser run in two stages (``two_stage_parsing``);
    then the ``preload`` modules (a verifier's package: see ``VerifyPool``).

    The garbage collector is paused meanwhile: importing sympy makes hundreds of
    thousands of objects, none of them garbage, and collecting as they come costs
    about a tenth of the import time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        import sampler.verify.answers.math_verifier  # noqa: F401
        from sampler.verify.answers import two_stage_parsing

        two_stage_parsing.install()
        for module in preload:
            importlib.import_module(module)
    finally:
        if enabled:
            gc.enable()


def warm_up(stop: Callable[[], bool] = lambda: False) -> int:
    """Run the parser over ``WARM_UP`` until ``stop()`` says so; forget the verdicts after.

    Returns how many expressions it parsed. Warming up makes the first answers of
    every worker forked afterwards faster (the parser's prediction cache and
    sympy's lazily imported modules are shared), but it is worth it only while
    nobody waits for a worker: see ``zygote``.
    """
    load()
    from sampler.verify.answers.extraction import AnswerSpan
    from sampler.verify.answers.golds import Gold
    from sampler.verify.answers.math_verifier import clear_caches, judge_safely

    done = 0
    for latex in WARM_UP:
        if stop():
            break
        judge_safely(Gold(latex), AnswerSpan(latex))
        done += 1
    else:
        judge_safely(Gold("1"), AnswerSpan("The answer is 1", free_text=True))
    clear_caches()
    return done


class _SlowGold(BaseException):  # not an Exception: nothing on the parse path may swallow it
    """A gold took longer than ``PREPARSE_LIMIT_S`` to parse ahead."""


def _too_slow(signum: int, frame: object) -> None:
    raise _SlowGold


def preparse_golds(golds: list[str], stop: Callable[[], bool] = lambda: False) -> int:
    """Parse ``golds`` into the gold cache (``math_verifier``), in order, until ``stop()`` says
    so, one takes longer than ``PREPARSE_LIMIT_S`` or all take ``PREPARSE_BUDGET_S``; returns
    how many it parsed. A gold that answer sizing refuses (``parse_depth.too_deep``) is left to
    the workers, which refuse it too."""
    from sampler.verify.answers.math_verifier import parse_gold_ahead
    from sampler.verify.answers.parse_depth import too_deep

    done = 0
    ends = time.monotonic() + PREPARSE_BUDGET_S
    previous = signal.signal(signal.SIGALRM, _too_slow)
    try:
        for latex in golds:
            if stop() or time.monotonic() > ends:
                break
            if not isinstance(latex, str) or too_deep(latex, True) is not None:
                continue
            signal.setitimer(signal.ITIMER_REAL, PREPARSE_LIMIT_S)
            try:
                parse_gold_ahead(latex)
            except _SlowGold:
                break
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            done += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    return done


def _golds_sent(sock: socket.socket, stdin: int) -> list[str] | None:
    """The golds the parent sends on ``stdin`` (a JSON list, then the pipe closes): a list
    (empty when what came is no list), or None when a fork request came first."""
    try:
        readable, _, _ = select.select([sock, stdin], [], [])
    except (OSError, ValueError):
        return None
    if stdin not in readable:
        return None  # a fork request came first
    chunks = []
    while chunk := os.read(stdin, 1 << 16):
        chunks.append(chunk)
    try:
        golds = json.loads(b"".join(chunks) or b"null")
    except ValueError:
        return []
    return golds if isinstance(golds, list) else []


def serve(reader: Connection, writer: Connection) -> None:
    """Answer batches until the parent sends None or closes the pipe."""
    from sampler.verify.answers.math_verifier import judge_safely

    writer.send(READY)
    while True:
        try:
            batch = reader.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        for index, task in batch:
            if task.verifier == "math":
                verdict = judge_safely(task.gold, task.span)
            else:  # the other verifiers that need a worker (sampler.verify.verifiers)
                from sampler.verify.verifiers import judge_in_worker

                verdict = judge_in_worker(task)
            try:
                writer.send((index, verdict))
            except OSError:
                return


def _run_worker(zygote_pid: int, fds: list[int], memory_mb: int) -> None:
    """In a freshly forked child: become a worker on the two pipe ends in ``fds``."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        die_with_parent(zygote_pid)
        limit_memory(memory_mb)
        serve(Connection(fds[0], writable=False), Connection(fds[1], readable=False))
    finally:
        os._exit(0)


def _reap(signum: int, frame: object) -> None:
    """Collect dead workers (so that none lingers as a zombie and their CPU time counts)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _request_waiting(sock: socket.socket | int, wait_s: float = 0.0) -> bool:
    """Whether the parent has sent something (a fork request, or EOF) on ``sock`` (or a pipe)."""
    try:
        readable, _, _ = select.select([sock], [], [], wait_s)
    except (OSError, ValueError):
        return True
    return bool(readable)


def zygote(sock: socket.socket, memory_mb: int, preload: tuple[str, ...] = ()) -> None:
    """Fork a worker for every request on ``sock`` until the parent closes it.

    Ready as soon as math-verify is loaded. Until the first request comes (the
    parent is still reading shards and extracting answers) it warms up, then parses
    the golds the parent sends on its standard input (``VerifyPool.preparse``), which
    every worker then finds parsed; once a worker is asked for, it stops: a forked
    worker pays its own first-parse costs in parallel with the others, which is sooner
    than waiting for a serial warm-up (measured on 2 cores).
    """
    load(preload)
    # Objects made so far are shared with every forked worker; keep the garbage collector
    # off them, so that it neither scans them nor copies their pages into each worker.
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGCHLD, _reap)
    sock.sendall(ZYGOTE_READY)
    # a parent already waiting asks within milliseconds: then no warm-up at all
    stdin = sys.stdin.fileno()
    if not _request_waiting(sock, _ASK_WITHIN_S):
        warm_up(stop=lambda: _request_waiting(sock) or _request_waiting(stdin))
        golds = _golds_sent(sock, stdin)
        if golds is not None:
            preparse_golds(golds, stop=lambda: _request_waiting(sock))
            sock.sendall(struct.pack(PID_FORMAT, GOLDS_PARSED))
        gc.freeze()
    me = os.getpid()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 16, 2)
        except OSError:
            return
        if not message:
            return
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        pid = os.fork()
        if pid == 0:
            sock.close()
            _run_worker(me, fds, memory_mb)
        for fd in fds:
            os.close(fd)
        try:
            sock.sendall(struct.pack(PID_FORMAT, pid))
        except OSError:
            return


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "zygote" or len(argv) not in (4, 5):
        print(
            "usage: python -m sampler.verify.workers.worker zygote SOCKET_FD PARENT_PID MEMORY_MB"
            " [MODULE,...]"
        )
        return 2
    sock_fd, parent_pid, memory_mb = (int(a) for a in argv[1:4])
    preload = tuple(m for m in argv[4].split(",") if m) if len(argv) == 5 else ()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)
    sock = socket.socket(fileno=sock_fd)
    zygote(sock, memory_mb, preload)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
