"""The bootstrap's resample sums of each benchmark, kept between reports, outside the folder.

A benchmark's B resample sums (analysis.bootstrap) are a function of the bootstrap's
seed, B and the benchmark's per-question values alone: the same numbers every time the
folder is reported unchanged. Drawing them is most of a report's time at paper scale
(2,000 resamples of 49,000 questions: 0.5 to 0.7 s of a 1.6 s report on 2 cores), and a
researcher reports one folder many times (a table, then JSON, then LaTeX; another
``--k``). So ``leash report`` keeps them in ``<cache>/resamples/`` (the cache of
``stats_cache``: ``~/.cache/leash/summaries``, or ``LEASH_CACHE_DIR``), one ``.npy`` file
per (seed, B, values, drawing method), and a report of an unchanged benchmark reads
112 KB instead of drawing. A benchmark whose samples changed has other values, so
another key: nothing is ever invalidated, only the least recently used files beyond
``KEEP`` are removed. A file that cannot be read, or is not a B x 7 array of floats,
counts as absent; a cache that cannot be written is ignored.

The cache is someone's directory on a shared machine, so nothing in it is trusted: a
``resamples/`` that is a link, not a directory or not the user's is not used at all
(never read, written or pruned); each file ends in an HMAC-SHA256 of its name and
contents under a per-user key (``.key``, 32 random bytes, a 0600 file of the user's,
made on first use), and a file whose tag does not match (a forged or rewritten array)
counts as absent; pruning looks only at names leash writes (40 hex digits, ``.npy``),
through the directory's descriptor, and unlinks them there (a link is removed itself).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import re
import secrets
import stat
from collections.abc import Iterator, MutableMapping
from pathlib import Path

import numpy as np

from leash_tui.analysis.bootstrap import RESAMPLE_METHOD, SUM_COLUMNS
from sampler.store import atomic_path, cache_dir

#: resample files kept (about 112 KB each at B = 2,000: 56 MB)
KEEP = 512
#: the per-user key of the files' tags, inside the cache directory
KEY_FILE = ".key"
_KEY_BYTES = 32
_TAG_BYTES = hashlib.sha256().digest_size
_NAME_RE = re.compile(r"[0-9a-f]{40}\.npy")
#: largest file read (B = 100,000 resamples)
_MAX_FILE_BYTES = 100_000 * SUM_COLUMNS * 8 + 4096

Key = tuple[int, int, bytes]


def resample_dir() -> Path:
    return cache_dir() / "resamples"


def _own_directory(directory: Path) -> bool:
    """Whether ``directory`` is a real directory (not a link) of this user, made if missing."""
    with contextlib.suppress(OSError):
        directory.parent.mkdir(parents=True, exist_ok=True)
        directory.mkdir(mode=0o700)
    try:
        info = os.lstat(directory)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()


def _read_own(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of this user (never through a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            return None
        if info.st_size > max_bytes:
            return None
        return handle.read(max_bytes + 1)


def _user_key(directory: Path) -> bytes | None:
    """The per-user key (made on first use), or None when its file is not safely the user's."""
    path = directory / KEY_FILE
    with contextlib.suppress(FileExistsError, OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(_KEY_BYTES))
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_IMODE(info.st_mode) & 0o077:
        return None
    key = _read_own(path, _KEY_BYTES)
    return key if key is not None and len(key) == _KEY_BYTES else None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


class ResampleCache(MutableMapping[Key, np.ndarray]):
    """The ``memo`` of analysis.bootstrap.paired_bootstrap, backed by files: a key not
    drawn in this process is looked for on disk, and every new one is written there."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else resample_dir()
        self._held: dict[Key, np.ndarray] = {}
        self._key: bytes | None = None
        if _own_directory(self.directory):
            self._key = _user_key(self.directory)

    @property
    def usable(self) -> bool:
        """Whether the directory and its key are the user's own (else it is never touched)."""
        return self._key is not None

    def _path(self, key: Key) -> Path:
        seed, resamples, digest = key
        name = hashlib.sha256(
            f"{RESAMPLE_METHOD}\x1f{seed}\x1f{resamples}\x1f".encode() + digest
        ).hexdigest()[:40]
        return self.directory / f"{name}.npy"

    def _tag(self, path: Path, body: bytes) -> bytes:
        assert self._key is not None
        return hmac.new(self._key, path.name.encode() + b"\x00" + body, hashlib.sha256).digest()

    def __getitem__(self, key: Key) -> np.ndarray:
        held = self._held.get(key)
        if held is not None:
            return held
        if self._key is None:
            raise KeyError(key)
        path = self._path(key)
        data = _read_own(path, _MAX_FILE_BYTES)
        if data is None or len(data) <= _TAG_BYTES:
            raise KeyError(key)
        body, tag = data[:-_TAG_BYTES], data[-_TAG_BYTES:]
        if not hmac.compare_digest(tag, self._tag(path, body)):
            raise KeyError(key)  # not written by this user's leash: absent
        try:
            sums = np.load(io.BytesIO(body), allow_pickle=False)
        except (OSError, ValueError, EOFError):
            raise KeyError(key) from None
        if sums.dtype != np.float64 or sums.shape != (key[1], SUM_COLUMNS):
            raise KeyError(key)
        with contextlib.suppress(OSError):
            os.utime(path, follow_symlinks=False)  # recently used: kept
        self._held[key] = sums
        return sums

    def __setitem__(self, key: Key, sums: np.ndarray) -> None:
        self._held[key] = sums
        if self._key is None:
            return
        path = self._path(key)
        if os.path.lexists(path) and not _regular(path):
            return  # never renamed over a link or a special file
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(sums, dtype=np.float64), allow_pickle=False)
        body = buffer.getvalue()
        with contextlib.suppress(OSError):
            with atomic_path(path) as temporary, open(temporary, "wb") as out:
                out.write(body + self._tag(path, body))
            self._prune()

    def __delitem__(self, key: Key) -> None:
        del self._held[key]

    def __iter__(self) -> Iterator[Key]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def _prune(self) -> None:
        """Remove the least recently used of leash's own files beyond KEEP, by name inside
        the directory's descriptor (opened without following a link)."""
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.directory, flags)
        try:
            if os.fstat(fd).st_uid != os.geteuid():
                return
            files = []
            with os.scandir(fd) as entries:
                for entry in entries:
                    if _NAME_RE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        files.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
            if len(files) <= KEEP:
                return
            files.sort()
            for _, name in files[: len(files) - KEEP]:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
        finally:
            os.close(fd)
