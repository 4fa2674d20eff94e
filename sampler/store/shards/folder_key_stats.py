"""The folder's per-key statistics: footers, else a scan, else the cache.

Per (benchmark, question, model): verdict counts, answer classes, token-entropy sums
and sample ranges (key_stats.SampleStats). They come from the summaries leash stores
in each shard's footer (shard_summary); shards without a trustworthy one are scanned
(the narrow KEY_STATS_COLUMNS and the sample index, never the completion text, chunk
by chunk: key_stats), and the merged result of a scan is cached outside the folder
(stats_cache) while the shards are unchanged. ``ResultsFolder.key_stats`` is the door.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pyarrow.parquet as pq

from sampler.store.shards import stats_cache
from sampler.store.shards.duplicate_keys import check_unique_samples
from sampler.store.shards.key_groups import GROUP_KEYS
from sampler.store.shards.key_stats import SampleStats, merge_stats
from sampler.store.shards.shard_summary import combined_stats, split_by_summary, too_short
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES

#: the sample columns whose statistics a report and the explorer need
KEY_STATS_COLUMNS = (
    *GROUP_KEYS,
    "status",
    "answer",
    "token_entropy",
    "verdict_source",
    "finish_reason",
)
#: From this many shards on, merged footer summaries are cached too: decoding each shard's
#: summary costs about a millisecond, so a folder of thousands of small shards (an import
#: of paper-length completions) is read from one cache file the second time.
CACHE_FROM_SHARDS = 64


def cache_stamp(root: Path, shards: Sequence[Path], keep: int) -> str | None:
    """The cache's fingerprint of the folder now (None if a shard vanished meanwhile);
    answer entropy over another N first samples is another cache entry."""
    try:
        columns = [*KEY_STATS_COLUMNS, f"answer_entropy@{keep}"]
        return stats_cache.fingerprint(root, shards, columns)
    except OSError:
        return None


def folder_key_stats(
    root: Path,
    shards: Sequence[Path],
    use_cache: bool = True,
    scan: bool = True,
    keep: int = DEFAULT_ENTROPY_SAMPLES,
    seen: Callable[[Path, pq.FileMetaData], None] | None = None,
) -> SampleStats | None:
    """The key statistics of the samples in ``shards`` of the folder at ``root``.

    With ``use_cache`` they come from stats_cache when the shards have not changed
    since a scan computed them, and are stored there after a scan; when every shard
    has a valid footer summary they come from those (stored in the cache too when there are
    CACHE_FROM_SHARDS shards or more, whose footers cost more to decode than one cache
    file), and otherwise from the valid summaries plus a scan of the other shards.
    Without ``use_cache`` every sample is counted again from the rows: neither the cache
    nor the summaries are used. With ``scan`` false, None is returned instead of
    scanning any shard (a caller that can show something sooner without them).
    ``keep``: first samples per key for answer entropy; footer summaries keep
    DEFAULT_ENTROPY_SAMPLES, so a larger ``keep`` scans the shards. ``seen(path, footer)``
    is told each footer read.
    """
    stamp = cache_stamp(root, shards, keep) if use_cache else None
    cached = stats_cache.load(root, stamp) if stamp else None
    if cached is not None:
        return cached
    if use_cache:
        stored, to_scan = split_by_summary(shards, seen)
        if not to_scan and not too_short(stored, keep):
            check_unique_samples(stored)
            merged = merge_stats(stored)
            if stamp and len(shards) >= CACHE_FROM_SHARDS:
                stats_cache.store(root, stamp, merged)
            return merged
    else:
        stored, to_scan = [], list(shards)
    if not scan:
        return None
    stats = combined_stats(stored, to_scan, KEY_STATS_COLUMNS, keep=keep)
    if stamp:
        stats_cache.store(root, stamp, stats)
    return stats
