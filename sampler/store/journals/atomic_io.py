"""Atomic file writes: a file appears under its final name complete, or not at all.

Every write goes to a hidden temporary file in the same directory, is flushed and
fsync'd, then renamed over the final name (rename is atomic on POSIX filesystems).
An exception or a kill in between leaves only the temporary file, which readers
ignore (its name starts with a dot) and ``remove_stale_temporaries`` cleans up.

The temporary file is created with mode 0666 through ``os.open``, so the kernel applies
the process umask: files get the mode any other program's would (0644 under umask 022),
and a colleague on a shared server can read a results folder. (``tempfile.mkstemp``
would make every file 0600 whatever the umask.)
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

TEMP_PREFIX = ".tmp-"

#: Mode asked for when creating files; the umask takes bits away, as for ``open(path, "w")``.
FILE_MODE = 0o666


def create_temporary(directory: Path, suffix: str = "") -> Path:
    """Create an empty hidden file in ``directory`` with the umask's mode; return its path."""
    while True:
        path = Path(directory) / f"{TEMP_PREFIX}{secrets.token_hex(8)}{suffix}"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            continue
        os.close(fd)
        return path


def fsync_directory(directory: Path) -> None:
    """Make a rename inside ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(final: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``final``; on success rename it to ``final``.

    The caller writes the temporary path by any means (pyarrow, json, ...). If the
    block raises, the temporary file is removed and ``final`` is untouched.
    """
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = create_temporary(final.parent, final.suffix)
    try:
        yield tmp
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, final)
        fsync_directory(final.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def atomic_text_writer(final: Path) -> Iterator[IO[str]]:
    """Open a text file that becomes visible as ``final`` only when the block ends cleanly."""
    with atomic_path(final) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as handle:
        yield handle
        handle.flush()


def write_json_atomic(final: Path, payload: Any) -> None:
    """Write ``payload`` as indented JSON to ``final`` atomically."""
    with atomic_text_writer(final) as handle:
        json.dump(payload, handle, indent=2, ensure_ascii=False, sort_keys=False)
        handle.write("\n")


def remove_stale_temporaries(directory: Path, older_than_s: float = 3600.0) -> int:
    """Delete temporary files a killed writer left in ``directory``; return how many.

    Only files untouched for ``older_than_s`` seconds go, so that a writer still
    running on the same folder (another process, another machine) keeps its own.
    """
    removed = 0
    if not directory.is_dir():
        return 0
    now = time.time()
    for path in directory.glob(TEMP_PREFIX + "*"):
        with contextlib.suppress(FileNotFoundError):
            if now - path.stat().st_mtime >= older_than_s:
                path.unlink()
                removed += 1
    return removed
