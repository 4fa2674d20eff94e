"""Compaction: many small shards rewritten as few large ones (``leash compact``).

A report, the explorer and verification read one footer per shard, so their cost grows
with the shard count; imports stage a shard per 32 MB of text and samplers one per flush,
so a folder of paper-length completions can hold thousands. Compaction reads runs of
consecutive shards (in name order, so by age) up to ``target_rows`` rows and
``max_bytes`` of uncompressed data (what it holds in memory at once), and writes each run
as one shard in the standard layout, sorted, with a fresh footer summary; a lone shard
without a trustworthy summary (written by an older leash or another tool) is rewritten
alone, which gives it one. Each run is committed by the commit journal (the new shard
renamed in, then the old ones deleted, rolled forward after a kill), holding the verify
lock (no verification or entropy rewrite meanwhile) and the folder lock for the commit.
Samplers and imports may add shards while it runs: only the shards listed at the start
are touched.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from sampler.errors import LeashError
from sampler.store.journals import commit_journal
from sampler.store.schema import SAMPLES_DIR
from sampler.store.shards.shard_files import read_footer, read_shard
from sampler.store.shards.shard_summary import read_summary
from sampler.store.shards.writer import new_shard_path, write_shard_file

#: rows per compacted shard (a thousand 4,096-row groups)
DEFAULT_TARGET_ROWS = 4_096_000
#: uncompressed bytes of the shards read into memory for one compacted shard
DEFAULT_MAX_BYTES = 1 << 30


@dataclass
class CompactSummary:
    shards_before: int = 0
    shards_after: int = 0
    rewritten: int = 0  # old shards replaced
    written: int = 0  # new shards
    samples: int = 0  # rows moved


@dataclass(frozen=True)
class _Shard:
    path: Path
    rows: int
    bytes: int
    summarised: bool


def _describe(path: Path) -> _Shard:
    meta = read_footer(path)
    size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return _Shard(path, meta.num_rows, size, read_summary(meta) is not None)


def plan_runs(shards: Sequence[_Shard], target_rows: int, max_bytes: int) -> list[list[_Shard]]:
    """Runs of consecutive shards to merge: each under both limits, and each either of
    two or more shards or one shard that lacks a footer summary."""
    runs: list[list[_Shard]] = []
    current: list[_Shard] = []
    rows = size = 0
    for shard in shards:
        if current and (rows + shard.rows > target_rows or size + shard.bytes > max_bytes):
            runs.append(current)
            current, rows, size = [], 0, 0
        current.append(shard)
        rows += shard.rows
        size += shard.bytes
    if current:
        runs.append(current)
    return [run for run in runs if len(run) > 1 or not run[0].summarised]


def compact_shards(
    root: Path,
    shards: Sequence[Path],
    folder_lock: Callable[[], contextlib.AbstractContextManager[None]],
    target_rows: int = DEFAULT_TARGET_ROWS,
    max_bytes: int = DEFAULT_MAX_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> CompactSummary:
    """Compact ``shards`` of the folder at ``root`` (call holding its verify lock)."""
    root = Path(root)
    described = [_describe(path) for path in shards]
    runs = plan_runs(described, target_rows, max_bytes)
    summary = CompactSummary(shards_before=len(shards))
    for done, run in enumerate(runs):
        if progress is not None:
            progress(done, len(runs))
        summary.samples += _merge_run(root, run, folder_lock)
        summary.rewritten += len(run)
        summary.written += 1
    if progress is not None:
        progress(len(runs), len(runs))
    summary.shards_after = summary.shards_before - summary.rewritten + summary.written
    return summary


def _merge_run(
    root: Path,
    run: Sequence[_Shard],
    folder_lock: Callable[[], contextlib.AbstractContextManager[None]],
) -> int:
    """Write ``run``'s rows as one shard in a work directory of its own, then commit it in
    place of the run's shards; returns the rows moved."""
    work = commit_journal.new_work_dir(root)
    try:
        with commit_journal.own(work):
            table = pa.concat_tables([read_shard(s.path, conform=True) for s in run])
            staged = work / new_shard_path(root).name
            write_shard_file(staged, table)  # sorted; a key held twice is refused here
            with folder_lock():
                gone = [s.path for s in run if not s.path.exists()]
                if gone:
                    raise LeashError(f"{gone[0]}: removed while leash compact ran")
                commit_journal.commit_moves(
                    root,
                    [(staged, root / SAMPLES_DIR / staged.name)],
                    work,
                    removes=[s.path for s in run],
                )
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(
            f"{root}: compaction stopped ({exc}); shards already compacted are committed,"
            " the others are as they were"
        ) from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return table.num_rows
