"""The one door every ``-o/--output FILE`` goes through.

- none, or ``-``: standard output;
- a path that does not exist, or a regular file: written atomically (a temporary file next to
  it, then a rename), so a reader sees the old file or the whole new one;
- a path that exists and is not a regular file (``/dev/null``, a FIFO, a terminal): opened and
  written in place, never renamed over (``leash export -o /dev/null`` run as root used to replace
  the device with a regular file);
- a directory: a one-line error.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from sampler.errors import LeashError
from sampler.store import atomic_text_writer

#: How a command line names standard output.
STDOUT_NAME = "-"


def is_stdout(output: Path | str | None) -> bool:
    """Whether ``output`` means standard output (none given, or ``-``)."""
    return output is None or str(output) == STDOUT_NAME


def _existing_mode(path: Path) -> int | None:
    """The mode of what ``path`` names (symlinks followed), or None when nothing is there."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LeashError(f"{path}: cannot write ({exc.strerror or exc})") from exc


@contextlib.contextmanager
def open_output(output: Path | str | None) -> Iterator[IO[str]]:
    """Yield a text handle for ``output`` by the rules above; OSErrors become one-line errors."""
    if is_stdout(output):
        yield sys.stdout
        sys.stdout.flush()
        return
    path = Path(output)  # type: ignore[arg-type]
    mode = _existing_mode(path)
    try:
        if mode is not None and stat.S_ISDIR(mode):
            raise LeashError(f"{path}: is a directory; -o/--output names a file")
        if mode is not None and not stat.S_ISREG(mode):
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                yield handle
            return
        with atomic_text_writer(path) as handle:
            yield handle
    except OSError as exc:
        raise LeashError(f"{path}: cannot write ({exc.strerror or exc})") from exc


def write_output(output: Path | str | None, text: str) -> None:
    """Write ``text`` whole to ``output`` (standard output, a file atomically, or a device)."""
    with open_output(output) as handle:
        handle.write(text)
