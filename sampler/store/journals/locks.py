"""Advisory locks on a results folder: a waiting lock for metadata, a refusing one for commands.

``exclusive_lock`` waits: read-modify-write of the manifest and the questions table
holds it briefly, so several writers (a SLURM array filling one folder) never lose
each other's updates. ``refuse_if_locked`` does not wait: a command that must run
alone on a folder (verify, one shard of sample) takes it for its whole run, and a
second one fails at once with the caller's message. Both are ``flock`` locks, so a
killed process releases them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from sampler.errors import LeashError
from sampler.store.journals.safe_files import open_for_update


@contextlib.contextmanager
def exclusive_lock(lock_file: Path) -> Iterator[None]:
    """Hold an advisory exclusive lock on ``lock_file`` for the block, waiting for it."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with open_for_update(lock_file) as fd:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def refuse_if_locked(lock_file: Path, busy: str | Callable[[str], str]) -> Iterator[None]:
    """Hold ``lock_file`` for the block, or raise ``LeashError(busy)`` at once if it is held.

    The holder writes what it is (``holder``: the leash command and its pid) into the
    file while it holds it; ``busy`` may be a function of that text (empty when unknown),
    so that the refusal names what holds the lock."""
    with open_for_update(lock_file) as fd:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LeashError(busy(_holder_of(fd)) if callable(busy) else busy) from None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, holder().encode(), 0)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)


def holder() -> str:
    """This process as a lock's holder: ``leash <command> (pid N)``."""
    words = [a for a in sys.argv[1:] if not a.startswith("-")][:1]
    name = " ".join(["leash", *(w for w in words if w.isidentifier())])
    return f"{name} (pid {os.getpid()})"


def _holder_of(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace")
    except OSError:
        return ""
    return "".join(ch for ch in text if ch.isprintable())[:100]


def is_locked(lock_file: Path) -> bool:
    """Whether another process holds ``lock_file`` now (a momentary probe)."""
    with open_for_update(lock_file) as fd:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
