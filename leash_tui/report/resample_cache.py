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
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator, MutableMapping
from pathlib import Path

import numpy as np

from leash_tui.analysis.bootstrap import RESAMPLE_METHOD, SUM_COLUMNS
from sampler.store import atomic_path, cache_dir

#: resample files kept (about 112 KB each at B = 2,000: 56 MB)
KEEP = 512

Key = tuple[int, int, bytes]


def resample_dir() -> Path:
    return cache_dir() / "resamples"


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

    def _path(self, key: Key) -> Path:
        seed, resamples, digest = key
        name = hashlib.sha256(
            f"{RESAMPLE_METHOD}\x1f{seed}\x1f{resamples}\x1f".encode() + digest
        ).hexdigest()[:40]
        return self.directory / f"{name}.npy"

    def __getitem__(self, key: Key) -> np.ndarray:
        held = self._held.get(key)
        if held is not None:
            return held
        path = self._path(key)
        if not _regular(path):
            raise KeyError(key)
        try:
            sums = np.load(path, allow_pickle=False)
        except (OSError, ValueError, EOFError):
            raise KeyError(key) from None
        if sums.dtype != np.float64 or sums.shape != (key[1], SUM_COLUMNS):
            raise KeyError(key)
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept
        self._held[key] = sums
        return sums

    def __setitem__(self, key: Key, sums: np.ndarray) -> None:
        self._held[key] = sums
        path = self._path(key)
        if os.path.lexists(path) and not _regular(path):
            return  # never renamed over a link or a special file
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as temporary, open(temporary, "wb") as out:
                np.save(out, np.ascontiguousarray(sums, dtype=np.float64), allow_pickle=False)
            self._prune()

    def __delitem__(self, key: Key) -> None:
        del self._held[key]

    def __iter__(self) -> Iterator[Key]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def _prune(self) -> None:
        """Remove the least recently used files beyond KEEP."""
        files = []
        with os.scandir(self.directory) as entries:
            for entry in entries:
                if entry.name.endswith(".npy") and entry.is_file(follow_symlinks=False):
                    files.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
        if len(files) <= KEEP:
            return
        files.sort()
        for _, path in files[: len(files) - KEEP]:
            with contextlib.suppress(OSError):
                os.unlink(path)
