"""Opening the files of a results folder someone else may have written: no links, no specials.

A results folder may come from a colleague, a shared disk or an archive, so none of
its names is trusted: a ``manifest.json`` that is a FIFO would hang a reader, a link
to ``/dev/zero`` would read until memory is gone, a lock file that links to
``/etc/nologin`` would be created or locked through the link, a journal path with
``..`` would move files anywhere. The functions here are the one place that opens
them: ``O_NOFOLLOW`` (a link is refused, never followed), ``O_NONBLOCK`` on reads (a
FIFO never blocks the open), ``fstat`` on the open descriptor (only a regular file of
at most a stated size), and ``loads_json`` parses with limits (nesting depth, digits
of a number), each failure a one-line ``LeashError`` naming the file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sampler.errors import LeashError

#: Largest JSON file (manifest, journal) a reader loads.
MAX_JSON_BYTES = 64 * 1024 * 1024
#: Deepest nesting of arrays and objects a reader parses.
MAX_JSON_DEPTH = 64
#: Most digits a number may have.
MAX_NUMBER_CHARS = 64
_STRING_RE = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS_RE = re.compile(rb"[\[\]{}]")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_fd(fd: int, path: Path, max_bytes: int | None) -> os.stat_result:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise LeashError(f"{path}: {_kind(info.st_mode)}, not a regular file; refused")
    if max_bytes is not None and info.st_size > max_bytes:
        raise LeashError(f"{path}: {info.st_size:,} bytes, more than {max_bytes:,}; refused")
    return info


def _open(path: Path, flags: int, mode: int = 0o644) -> int:
    try:
        return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: the last component is a symbolic link
            raise LeashError(f"{path}: a symbolic link; refused (it is not followed)") from exc
        raise


def open_regular(path: Path | str, max_bytes: int | None = None) -> int:
    """A read-only descriptor of ``path``, a regular file (not a link) of at most ``max_bytes``.

    Raises FileNotFoundError when it does not exist, LeashError for a link or special file.
    """
    path = Path(path)
    fd = _open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _check_fd(fd, path, max_bytes)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path | str, max_bytes: int = MAX_JSON_BYTES, offset: int = 0) -> bytes:
    """The bytes of regular file ``path`` from ``offset`` (see ``open_regular``)."""
    fd = open_regular(path, max_bytes)
    with os.fdopen(fd, "rb") as handle:
        handle.seek(offset)
        return handle.read(max_bytes + 1)[:max_bytes]


def check_regular(path: Path | str, max_bytes: int | None = None) -> None:
    """Refuse ``path`` unless it is a regular file and no link (before a library opens it)."""
    os.close(open_regular(path, max_bytes))


@contextlib.contextmanager
def open_for_update(path: Path | str, flags: int = 0) -> Iterator[int]:
    """A read-write descriptor of ``path``, created if missing, never through a link.

    For lock files and appended journals: an existing entry must be a regular file.
    """
    path = Path(path)
    fd = _open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | flags)
    try:
        _check_fd(fd, path, None)
        os.set_blocking(fd, True)
        yield fd
    finally:
        os.close(fd)


def _depth(data: bytes) -> int:
    deepest = depth = 0
    for bracket in _BRACKETS_RE.findall(_STRING_RE.sub(b'""', data)):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _number(kind: type) -> Any:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise ValueError(f"a number of {len(text):,} characters (at most {MAX_NUMBER_CHARS})")
        return kind(text)

    return parse


def loads_json(data: bytes | str, where: str | Path) -> Any:
    """``json.loads`` with limits; a LeashError naming ``where`` on anything it refuses."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    depth = _depth(raw)
    if depth > MAX_JSON_DEPTH:
        raise LeashError(f"{where}: JSON nested {depth:,} deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(raw, parse_int=_number(int), parse_float=_number(float))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise LeashError(f"{where}: cannot be read as JSON ({str(exc)[:200]})") from exc


def inside(root: Path, relative: str, where: str | Path) -> Path:
    """``root / relative`` for a path read from the folder: relative, no ``..``, no link on
    the way, inside the folder's real path; a LeashError naming ``where`` otherwise."""
    parts = Path(relative).parts
    if not relative or Path(relative).is_absolute() or ".." in parts or "\x00" in relative:
        raise LeashError(f"{where}: path {relative!r} leaves the folder; refused")
    real_root = Path(os.path.realpath(root))
    path = real_root.joinpath(*parts)
    for parent in list(path.parents)[: len(parts) - 1]:
        if parent.is_symlink():
            raise LeashError(f"{where}: path {relative!r} goes through a link; refused")
    if os.path.realpath(path.parent) != str(path.parent):
        raise LeashError(f"{where}: path {relative!r} leaves the folder; refused")
    return path


def within(root: Path, path: Path, what: str) -> None:
    """Refuse ``path`` (a folder's file or directory) when it is a link or its real path
    is outside ``root``'s (a ``samples/`` linked to another folder's)."""
    if path.is_symlink():
        raise LeashError(f"{path}: {what} is a symbolic link; refused (it is not followed)")
    real_root, real = os.path.realpath(root), os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root:
        raise LeashError(f"{path}: {what} lies outside {root}; refused")
