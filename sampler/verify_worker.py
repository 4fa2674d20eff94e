"""Verification processes: a zygote that loads math-verify once, and the workers it forks.

``verify_pool`` starts ``python -m sampler.verify_worker zygote SOCKET_FD PARENT_PID
MEMORY_MB``: a fresh interpreter (never a fork of the caller, which may hold
threads, a GPU context or gigabytes, and whose ``__main__`` must not re-run). The
zygote imports math-verify and warms it up (its LaTeX parser is several times
slower on its first few hundred expressions), says ``ready``, then forks one
worker per request. A request carries the two pipe ends of the new worker,
passed over a Unix socket; the zygote answers with the worker's pid. Forked
workers start in milliseconds, already warm, sharing the zygote's memory.

A worker verifies batches of ``(index, VerifyTask)`` read from its pipe and
answers one ``(index, Verdict)`` per task. Zygote and workers ignore Ctrl-C
(the parent handles it), die with their parent, write nothing to the terminal,
and workers may allocate only a bounded amount of memory. The parent kills a
worker whose item passes its deadline and asks the zygote for another.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import socket
import struct
import sys
from multiprocessing.connection import Connection

READY = "ready"
ZYGOTE_READY = b"ready"
PID_FORMAT = "!q"
_PR_SET_PDEATHSIG = 1

#: Expressions parsed at start-up, one of each common shape, to warm the LaTeX parser.
WARM_UP = (
    r"\frac{1}{2}",
    r"\dfrac{3}{4}",
    r"-\frac{\sqrt{5}}{5}",
    r"2\sqrt{3}",
    r"\sqrt[3]{2}",
    r"(1,2)",
    r"[0, 1)",
    r"(-\infty, 2) \cup (3, \infty)",
    r"\{1, 2\}",
    r"x^2 + 3x - 4",
    r"y = 2x + 1",
    r"\frac{\pi}{4}",
    r"\cos^2 \theta",
    r"\log_2 8",
    r"e^{i\pi}",
    r"3 + 4i",
    r"\text{Evelyn}",
    r"90^\circ",
    r"10\%",
    r"\$5.00",
    r"1,000",
    r"1.5 \times 10^{-3}",
    r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}",
    r"\left( \frac{1}{2}, -\frac{3}{2} \right)",
    r"x \in [2, 5]",
    r"\binom{5}{2}",
    r"|x - 1|",
    r"\infty",
    r"\frac{a+b}{c-d}",
    r"52_8",
    r"2 \le x < 5",
    r"\sum_{k=1}^{n} k",
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


def warm_up() -> None:
    """Load math-verify and run its parser over ``WARM_UP``; forget the verdicts after."""
    from sampler.answer_extraction import AnswerSpan
    from sampler.answer_verdict import clear_caches, judge_safely
    from sampler.gold_answers import Gold

    for latex in WARM_UP:
        judge_safely(Gold(latex), AnswerSpan(latex))
    judge_safely(Gold("1"), AnswerSpan("The answer is 1", free_text=True))
    clear_caches()


def serve(reader: Connection, writer: Connection) -> None:
    """Answer batches until the parent sends None or closes the pipe."""
    from sampler.answer_verdict import judge_safely

    writer.send(READY)
    while True:
        try:
            batch = reader.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        for index, task in batch:
            verdict = judge_safely(task.gold, task.span)
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


def zygote(sock: socket.socket, memory_mb: int) -> None:
    """Fork a worker for every request on ``sock`` until the parent closes it."""
    warm_up()
    signal.signal(signal.SIGCHLD, _reap)
    sock.sendall(ZYGOTE_READY)
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
    if not argv or argv[0] != "zygote" or len(argv) != 4:
        print("usage: python -m sampler.verify_worker zygote SOCKET_FD PARENT_PID MEMORY_MB")
        return 2
    sock_fd, parent_pid, memory_mb = (int(a) for a in argv[1:])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)
    sock = socket.socket(fileno=sock_fd)
    zygote(sock, memory_mb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
