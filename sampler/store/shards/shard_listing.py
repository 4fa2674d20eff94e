"""The sample shards of a results folder as listed: name, size, times and inode, one ``lstat`` each.

``ShardFile.stamp`` (size, modification and change time in ns, inode) is what the shard
index compares: a shard rewritten to the same size with its modification time restored
(``utime`` sets that, not the change time; a rename brings another inode) is changed.

A shard that is a link or not a regular file is refused, never followed (the folder may
be someone else's); temporaries of running writers (``.tmp-*``) are not shards.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from sampler.errors import LeashError
from sampler.store.schema import SAMPLES_DIR


@dataclass(frozen=True, slots=True)
class ShardFile:
    """A shard as listed: its folder and name, and size, times and inode when listed."""

    directory: Path
    name: str
    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int = 0

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        """(size, modification time, change time, inode): what the shard index compares."""
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode)

    @property
    def path(self) -> Path:
        """``directory / name``, made when asked for (8,000 Path objects made at every
        listing took a tenth of a second; most readers need a few)."""
        return self.directory / self.name


def list_shards(root: Path) -> list[ShardFile]:
    """The sample shards of the folder at ``root`` (``samples/part-*.parquet``) by name,
    with one ``lstat`` each; a shard that is a link or not a regular file is refused
    (LeashError), never followed. The caller has checked ``samples/`` itself."""
    directory = Path(root) / SAMPLES_DIR
    shards = []
    with os.scandir(directory) as entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith("part-") and name.endswith(".parquet")):
                continue
            if entry.is_symlink():
                raise LeashError(
                    f"{directory / name}: a sample shard is a symbolic link; refused"
                    " (it is not followed)"
                )
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                raise LeashError(
                    f"{directory / name}: a sample shard is not a regular file; refused"
                )
            shards.append(
                ShardFile(
                    directory, name, info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns
                )
            )
    shards.sort(key=lambda s: s.name)
    return shards


def unchanged(shard: ShardFile) -> bool:
    """Whether ``shard`` still has the stamp it was listed with."""
    try:
        info = os.lstat(shard.path)
    except OSError:
        return False
    return file_stamp(info) == shard.stamp


def file_stamp(info: os.stat_result) -> tuple[int, int, int, int]:
    """``ShardFile.stamp`` of a file's ``stat``."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
