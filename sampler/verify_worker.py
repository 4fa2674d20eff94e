"""The verification worker process: ``python -m sampler.verify_worker READ_FD WRITE_FD ...``.

Started by ``verify_pool`` as a fresh interpreter (not a fork: the parent may hold
threads, a GPU context or gigabytes of memory, and its ``__main__`` must not be
re-run). It loads math-verify, says it is ready, then verifies batches of
``(index, VerifyTask)`` sent as pickles over a pipe, answering one
``(index, Verdict)`` per task. It ignores Ctrl-C (the parent handles it), dies
with its parent, may allocate only a bounded amount of memory, and writes nothing
to the terminal. The parent kills it when an item passes its deadline.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys
from multiprocessing.connection import Connection

READY = "ready"
_PR_SET_PDEATHSIG = 1


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


def main(argv: list[str]) -> int:
    read_fd, write_fd, parent_pid, memory_mb = (int(a) for a in argv[:4])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)
    reader = Connection(read_fd, writable=False)
    writer = Connection(write_fd, readable=False)
    import sampler.answer_verdict  # noqa: F401 - load math-verify before the memory cap

    limit_memory(memory_mb)
    serve(reader, writer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
