"""The folder's shard index: every shard's footer facts and their summaries merged, in one file.

Issue 24: a folder of thousands of small shards (an import of paper-length completions
stages one per 32 MB of text) cost a footer read per shard on every open, about a
millisecond each to decode its summary: 13 s for 8,138 shards where DuckDB answers in
about 1 s. Of the three layouts the issue offers (shards sized by rows, texts apart,
a folder-level index) this is the index, because it keeps every shard file as it is
(immutable, replaced by rename, its summary published with it, so an index that is
missing, stale or damaged costs speed, never a result), needs no rewrite of folders
other versions wrote, and makes the cost of an open independent of the shard count
whatever wrote the shards. ``leash compact`` still merges small shards on request.

``shard-index.arrow`` (at the folder root; an Arrow IPC file: shard_index_file) holds one
row per shard (its name, size, modification and change time in ns and inode when read,
``ShardFile.stamp``: a shard rewritten with its time restored by ``utime`` differs; the
facts readers ask before reading rows: rows, columns, null counts of the probed columns, whether its
footer held a trustworthy summary; the benchmark and question-id range of each row group,
which the one-question reader prunes by) and the merged footer summaries of the
summarised shards (shard_summary.encode_stats) with their smallest ``first_keep``, and
the answer statistics at the default N that the writer computes from them.

Writers bring it up to date (``refresh``) at the end of every command that changes
shards (import, sample, verify, entropy, compact, demo), under the folder lock,
reading only the footers of shards that are new or changed since. Readers list the
shards (one ``lstat`` each) and compare: shards whose name, size and modification
time match use the index; shards added since (a run still going) are read from
their footers and merged in; a shard changed or removed since makes the merged
statistics unusable (the reader falls back to footers and the statistics cache), but
the per-shard facts of the unchanged ones still serve. A folder copied (even with its
times: ``cp -a``, ``rsync -a``) has other inodes and change times, so its index is stale
until the next writer refreshes it: slower, never wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.errors import LeashError
from sampler.store.row_keys import group_keys
from sampler.store.shards.answer_summary import answer_stats_table
from sampler.store.shards.duplicate_keys import check_unique_samples, overlapping_groups
from sampler.store.shards.key_stats import SampleStats, empty_classes, merge_stats, restricted
from sampler.store.shards.shard_files import FooterFacts, footer_facts, read_footer
from sampler.store.shards.shard_listing import ShardFile, unchanged
from sampler.store.shards.shard_summary import (
    KEY_GROUPS,
    decode_group_stats,
    decode_stats,
    ipc_table,
    read_summary,
)
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES

#: (benchmark min, max, question id min, max) of one row group; "" .. U+10FFFF when unknown
Span = tuple[str, str, str, str]
UNKNOWN_SPAN: Span = ("", "\U0010ffff", "", "\U0010ffff")


@dataclass(frozen=True)
class ShardEntry:
    """What the index knows of one shard (as it was at ``size``, its times and inode)."""

    name: str
    size: int
    mtime_ns: int
    facts: FooterFacts
    spans: tuple[Span, ...]
    #: its footer held a trustworthy summary, merged into ShardIndex.stats
    summarised: bool
    ctime_ns: int = 0
    inode: int = 0

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode)


class ShardIndex:
    """Entries by shard name, and the merged summaries of the summarised ones: decoded on
    first use (``stats``), or only their per-group counts (``group_stats``, what a first
    paint and verdict counts need: a few ms where the whole takes tenths of a second)."""

    def __init__(
        self,
        entries: Mapping[str, ShardEntry] | None = None,
        stats: SampleStats | None = None,
        blobs: dict[bytes, bytes | pa.Buffer] | None = None,
        first_keep: int = 0,
        answers: pa.Table | bytes | pa.Buffer | None = None,
    ):
        self.entries = entries if entries is not None else {}
        self._stats = stats
        self._blobs = blobs
        self.first_keep = stats.first_keep if stats is not None else first_keep
        #: answer_summary.answer_stats_table of the merged statistics at the default N
        #: (DEFAULT_ENTROPY_SAMPLES), or its encoded stream as read
        self._answers = answers

    @property
    def has_stats(self) -> bool:
        return self._stats is not None or self._blobs is not None

    @property
    def stats(self) -> SampleStats | None:
        """The merged summaries, decoded once (pa.ArrowException if the file lied)."""
        if self._stats is None and self._blobs is not None:
            self._stats = decode_stats(self._blobs, self.first_keep)
            self._blobs = None
        return self._stats

    def answer_stats(self) -> pa.Table | None:
        """The per-group answer statistics of the merged summaries at the default N (None
        when the statistics keep fewer first samples, or the file holds none)."""
        if isinstance(self._answers, (bytes, pa.Buffer)):
            self._answers = ipc_table(self._answers)
        return self._answers

    def group_stats(self) -> SampleStats | None:
        """The merged summaries without answer classes and first samples (status counts,
        token-entropy sums, sample ranges)."""
        if self._blobs is not None:
            return decode_group_stats(self._blobs[KEY_GROUPS])
        return groups_only(self._stats) if self._stats is not None else None

    def stamp(self, name: str) -> tuple[int, int, int, int] | None:
        """``ShardFile.stamp`` of shard ``name`` when indexed (None: not)."""
        if hasattr(self.entries, "stamp"):  # as read from the file: built when asked for
            return self.entries.stamp(name)
        entry = self.entries.get(name)
        return entry.stamp if entry is not None else None

    def summarised(self, name: str) -> bool:
        """Whether shard ``name``'s summary is among the merged statistics."""
        if hasattr(self.entries, "summarised"):
            return self.entries.summarised(name)
        entry = self.entries.get(name)
        return entry is not None and entry.summarised

    def null_verdicts(self, column: str) -> dict[str, bool]:
        """{shard name: whether its indexed facts show ``column`` all null or absent} for
        the shards whose facts decide it (FooterFacts.all_null); the others are left out."""
        if hasattr(self.entries, "null_verdicts"):  # as read from the file: columns whole
            return self.entries.null_verdicts(column)
        return {
            name: entry.facts.all_null(column)
            for name, entry in self.entries.items()
            if column in entry.facts.nulls or column not in entry.facts.columns
        }

    def lookup(self, shard: ShardFile) -> ShardEntry | None:
        """The entry of ``shard`` if it is unchanged since indexed, else None."""
        if self.stamp(shard.name) != shard.stamp:
            return None
        return self.entries[shard.name]


@dataclass(frozen=True)
class IndexView:
    """The index against the shards listed now."""

    #: indexed shards still unchanged
    current: list[ShardFile]
    #: shards not in the index (added since)
    added: list[ShardFile]
    #: indexed shards since changed or removed: the merged statistics no longer hold
    stale: bool


def view(index: ShardIndex, listing: Sequence[ShardFile]) -> IndexView:
    current, added = [], []
    for shard in listing:
        stamp = index.stamp(shard.name)
        if stamp is None:
            added.append(shard)
        elif stamp == shard.stamp:
            current.append(shard)
        else:
            return IndexView(current, added, stale=True)
    return IndexView(current, added, stale=len(current) != len(index.entries))


def up_to_date(index: ShardIndex, listing: Sequence[ShardFile]) -> bool:
    """Whether ``index`` describes exactly the shards ``listing``, all unchanged."""
    seen = view(index, listing)
    return not seen.stale and not seen.added


def groups_only(stats: SampleStats) -> SampleStats:
    """``stats`` without answer classes and first samples (what ``group_stats`` decodes)."""
    return dataclasses.replace(stats, classes=empty_classes(), first=None, first_keep=0)


# -- entries from footers ------------------------------------------------------------------
def _spans(meta) -> tuple[Span, ...]:
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if "benchmark" not in names or "question_id" not in names:
        return tuple(UNKNOWN_SPAN for _ in range(meta.num_row_groups))
    b_col, q_col = names.index("benchmark"), names.index("question_id")
    spans = []
    for i in range(meta.num_row_groups):
        group = meta.row_group(i)
        b, q = group.column(b_col).statistics, group.column(q_col).statistics
        # pyarrow writes no min/max for a value over 4 KiB (a very long question id)
        if not (_string_range(b) and _string_range(q)):
            spans.append(UNKNOWN_SPAN)
        else:
            spans.append((b.min, b.max, q.min, q.max))
    return tuple(spans)


def _string_range(stats) -> bool:
    return (
        stats is not None
        and stats.has_min_max
        and isinstance(stats.min, str)
        and isinstance(stats.max, str)
    )


def read_entry(shard: ShardFile, summary: bool = True) -> tuple[ShardEntry, SampleStats | None]:
    """The entry of ``shard`` and (with ``summary``) its footer summary, from its footer
    (LeashError if the footer cannot be read). Without ``summary`` the entry's
    ``summarised`` only says whether the footer has summary keys."""
    meta = read_footer(shard.path)
    stats = read_summary(meta, shard.path) if summary else None
    if stats is not None:
        stats.source = str(shard.path)
    held = stats is not None if summary else KEY_GROUPS in (meta.metadata or {})
    entry = ShardEntry(
        shard.name,
        shard.size,
        shard.mtime_ns,
        footer_facts(meta),
        _spans(meta),
        held,
        shard.ctime_ns,
        shard.inode,
    )
    return entry, stats


def build(listing: Sequence[ShardFile], previous: ShardIndex | None = None) -> ShardIndex:
    """The index of the shards ``listing``, reusing ``previous`` where it still holds.

    Only footers of shards new or changed since ``previous`` are read when it holds
    merged statistics of unchanged shards; otherwise every summarised shard's footer is
    read again to merge them. A shard that changes while it is read is left out (a
    reader then takes it as added). A sample held twice is a LeashError.
    """
    previous = previous or ShardIndex()
    seen = view(previous, listing)
    entries: dict[str, ShardEntry] = {}
    added: list[SampleStats] = []
    for shard in listing:
        entry = previous.lookup(shard)
        if entry is not None:
            entries[shard.name] = entry
            continue
        entry, summary = read_entry(shard)
        if not unchanged(shard):
            continue
        entries[shard.name] = entry
        if summary is not None:
            added.append(summary)
    try:
        # a stale index's statistics are not decoded (its stream bounds assume its sizes)
        kept = None if seen.stale else previous.stats
    except (ValueError, KeyError, pa.ArrowException):
        kept = None  # statistics that do not decode: merged again from the footers
    if not seen.stale and (kept is not None or not previous.entries):
        parts = [*([kept] if kept is not None else []), *added]
        if overlapping_groups(parts)[0].num_rows == 0:
            merged = merge_stats(parts) if parts else None
            reused = _previous_answers(previous) if kept is not None else None
            return _with_answers(entries, merged, reused, added)
    parts = []
    for shard in listing:
        entry = entries.get(shard.name)
        if entry is None or not entry.summarised:
            continue
        _, summary = read_entry(shard)
        if summary is None or not unchanged(shard):
            entries.pop(shard.name)
            continue
        parts.append(summary)
    check_unique_samples(parts)
    return _with_answers(entries, merge_stats(parts) if parts else None)


def _previous_answers(previous: ShardIndex) -> pa.Table | None:
    try:
        return previous.answer_stats()
    except (ValueError, KeyError, pa.ArrowException):
        return None  # a stream that does not decode: computed again


def _with_answers(
    entries: dict[str, ShardEntry],
    stats: SampleStats | None,
    previous: pa.Table | None = None,
    added: Sequence[SampleStats] = (),
) -> ShardIndex:
    """The index of ``entries`` and ``stats``, with the answer statistics that a report and
    the explorer read at the default N computed once here, by the writer.

    With ``previous`` (the answer statistics of the index before the shards ``added`` were
    merged in), only the groups those shards hold are computed again; every other group
    keeps its row (its classes and first samples are unchanged). At 25 million samples
    with varied answers (16.5 million answer classes) that was most of a refresh's time
    (4.5 of 8 s) when a run adds a shard."""
    answers = None
    if stats is not None and stats.first_keep >= DEFAULT_ENTROPY_SAMPLES:
        answers = _answers_of_added(stats, previous, added) if previous is not None else None
        if answers is None:
            answers = answer_stats_table(stats, DEFAULT_ENTROPY_SAMPLES)
    return ShardIndex(entries, stats, answers=answers)


def _answers_of_added(
    stats: SampleStats, previous: pa.Table, added: Sequence[SampleStats]
) -> pa.Table | None:
    """``previous``'s rows for the groups no part of ``added`` holds, rows computed afresh for
    the others, in the order of ``stats``' groups; None when ``previous`` does not hold every
    group it should (another layout, another N: the caller computes all)."""
    keys = group_keys(stats.keys)
    if added:
        touched = pc.is_in(keys, value_set=pa.concat_arrays([group_keys(a.keys) for a in added]))
        touched = touched.to_numpy(zero_copy_only=False)
    else:
        touched = np.zeros(stats.groups, dtype=bool)
    found = pc.index_in(keys, value_set=group_keys(previous))
    old = ~touched
    if bool((pc.is_null(found).to_numpy(zero_copy_only=False) & old).any()):
        return None
    at = pc.fill_null(found, 0).to_numpy(zero_copy_only=False).astype(np.int64)
    fresh = answer_stats_table(restricted(stats, touched), DEFAULT_ENTROPY_SAMPLES)
    try:
        kept = previous.take(pa.array(at[old])).cast(fresh.schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    order = np.empty(stats.groups, dtype=np.int64)  # the row of each group in kept + fresh
    order[old] = np.arange(int(old.sum()))
    order[touched] = int(old.sum()) + np.arange(int(touched.sum()))
    return pa.concat_tables([kept, fresh]).take(pa.array(order))


def merged_with(
    index: ShardIndex, shards: Iterable[ShardFile], only_groups: bool = False
) -> tuple[SampleStats, list[ShardFile]] | None:
    """The index's merged statistics (``only_groups``: its ``group_stats``) with the footer
    summaries of ``shards`` (added since) merged in, and the shards among them without a
    summary (to be scanned); None when that cannot be decided from summaries alone (a
    group's sample ranges overlap between the index and an added shard: the caller checks
    sample keys the slow way)."""
    own = index.group_stats() if only_groups else index.stats
    if own is None:
        return None
    parts, unsummarised = [own], []
    for shard in shards:
        try:
            _, summary = read_entry(shard)
        except LeashError:
            unsummarised.append(shard)
            continue
        if summary is None:
            unsummarised.append(shard)
        else:
            parts.append(groups_only(summary) if only_groups else summary)
    if overlapping_groups(parts)[0].num_rows:
        return None
    return merge_stats(parts), unsummarised
