"""A guard that stops a test which hangs: ``alarm(seconds)`` raises ``TimeoutError`` in the
main thread when the block has run that long. It stops a hang (an exponential pattern); it
measures nothing, so no test depends on how fast the machine is."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Raise ``TimeoutError`` if the block is still running after ``seconds``."""

    def _stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, _stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
