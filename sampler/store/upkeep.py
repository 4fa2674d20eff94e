"""Keeping a folder fast: compaction of small shards, and the health of the shard index.

``compact`` rewrites runs of small shards as large ones (shards.compaction) under the
verify lock and brings the shard index up to date; ``shards_without_summary`` and
``shards_not_indexed`` say how much of the folder a reader must scan or decode again
(``leash info``, ``leash compact``). Each takes a ResultsFolder.
"""

from __future__ import annotations

from collections.abc import Callable

from sampler.store.folder import ResultsFolder
from sampler.store.shards import compaction
from sampler.store.shards.compaction import CompactSummary
from sampler.store.shards.shard_summary import shard_summary


def compact(
    folder: ResultsFolder,
    target_rows: int = compaction.DEFAULT_TARGET_ROWS,
    max_bytes: int = compaction.DEFAULT_MAX_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> CompactSummary:
    """Rewrite runs of small shards as large ones (shards.compaction), holding the
    verify lock; a verify running is a LeashError."""
    busy = (
        f"{folder.root}: a 'leash verify' (or another compaction) is running on this folder;"
        " compact once it has ended"
    )
    with folder.locks.verify(busy):
        folder.journal.clean_stale_files()
        summary = compaction.compact_shards(
            folder.root,
            folder.shard_paths(),
            folder.locks.metadata,
            target_rows,
            max_bytes,
            progress,
        )
        folder.refresh_index()
        return summary


def shards_without_summary(folder: ResultsFolder) -> int:
    """Shards whose footer holds no trustworthy summary (they are scanned); the shard
    index answers for the shards unchanged since it was written."""
    index = folder._shard_index()
    missing = 0
    for shard in folder._shard_listing():
        if index is not None and index.stamp(shard.name) == shard.stamp:
            missing += not index.summarised(shard.name)
        else:
            missing += shard_summary(shard.path) is None
    return missing


def shards_not_indexed(folder: ResultsFolder) -> int | None:
    """Shards the shard index does not hold as they are now (added, rewritten; plus any
    it holds that are gone); None when the folder has no usable index."""
    index = folder._shard_index()
    if index is None:
        return None
    listing = folder._shard_listing()
    current = sum(index.stamp(s.name) == s.stamp for s in listing)
    return (len(listing) - current) + (len(index.entries) - current)
