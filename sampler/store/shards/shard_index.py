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

``INDEX_FILE`` (at the folder root; an Arrow IPC file) holds one row per shard (its
name, size and modification time in ns when read; the facts readers ask before
reading rows: rows, columns, null counts of the probed columns, whether its footer
held a trustworthy summary; the benchmark and question-id range of each row group,
which the one-question reader prunes by) and, in the schema metadata, the merged
footer summaries of the summarised shards (shard_summary.encode_stats), with
their smallest ``first_keep``.

Writers bring it up to date (``refresh``) at the end of every command that changes
shards (import, sample, verify, entropy, compact, demo), under the folder lock,
reading only the footers of shards that are new or changed since. Readers list the
shards (one ``lstat`` each) and compare: shards whose name, size and modification
time match use the index; shards added since (a run still going) are read from
their footers and merged in; a shard changed or removed since makes the merged
statistics unusable (the reader falls back to footers and the statistics cache), but
the per-shard facts of the unchanged ones still serve. A folder copied with its
times (``cp -a``, ``rsync -a``) keeps its index valid; the inode is not part of it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.journals.safe_files import open_regular
from sampler.store.schema import SAMPLES_DIR
from sampler.store.shards.answer_summary import answer_stats_table
from sampler.store.shards.duplicate_keys import check_unique_samples, overlapping_groups
from sampler.store.shards.key_stats import SampleStats, empty_classes, merge_stats
from sampler.store.shards.shard_files import (
    PROBED_COLUMNS,
    FooterFacts,
    footer_facts,
    read_footer,
)
from sampler.store.shards.shard_summary import (
    KEY_CLASSES,
    KEY_FIRST,
    KEY_GROUPS,
    decode_group_stats,
    decode_stats,
    encode_stats,
    ipc_bytes,
    ipc_table,
    read_summary,
)
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES

INDEX_FILE = "shard-index.arrow"
#: the answer statistics at the default N, an Arrow IPC stream in the schema metadata
KEY_ANSWERS = b"leash.index.answers"
_BLOB_KEYS = (KEY_GROUPS, KEY_CLASSES, KEY_FIRST, KEY_ANSWERS)
#: 3: the encoded streams in columns of their own, the file memory-mapped (1 and 2, with
#: them in the schema metadata, were development layouts: rebuilt)
INDEX_VERSION = 3
_KEY_INFO = b"leash.index"
#: (benchmark min, max, question id min, max) of one row group; "" .. U+10FFFF when unknown
Span = tuple[str, str, str, str]
UNKNOWN_SPAN: Span = ("", "\U0010ffff", "", "\U0010ffff")
SPAN_COLUMNS = ("benchmark_min", "benchmark_max", "question_min", "question_max")
#: entries an IndexedEntries builds one at a time before it converts the rest at once
_BUILT_ONE_BY_ONE = 64


@dataclass(frozen=True, slots=True)
class ShardFile:
    """A shard as listed: its path and name, and size and modification time when listed."""

    path: Path
    name: str
    size: int
    mtime_ns: int
    inode: int


@dataclass(frozen=True)
class ShardEntry:
    """What the index knows of one shard (as it was at ``size`` and ``mtime_ns``)."""

    name: str
    size: int
    mtime_ns: int
    facts: FooterFacts
    spans: tuple[Span, ...]
    #: its footer held a trustworthy summary, merged into ShardIndex.stats
    summarised: bool

    def matches(self, shard: ShardFile) -> bool:
        return (self.size, self.mtime_ns) == (shard.size, shard.mtime_ns)


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

    def stamp(self, name: str) -> tuple[int, int] | None:
        """(size, modification time in ns) of shard ``name`` when indexed (None: not)."""
        if isinstance(self.entries, IndexedEntries):
            return self.entries.stamp(name)
        entry = self.entries.get(name)
        return (entry.size, entry.mtime_ns) if entry is not None else None

    def summarised(self, name: str) -> bool:
        """Whether shard ``name``'s summary is among the merged statistics."""
        if isinstance(self.entries, IndexedEntries):
            return self.entries.summarised(name)
        entry = self.entries.get(name)
        return entry is not None and entry.summarised

    def lookup(self, shard: ShardFile) -> ShardEntry | None:
        """The entry of ``shard`` if it is unchanged since indexed, else None."""
        if self.stamp(shard.name) != (shard.size, shard.mtime_ns):
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
        elif stamp == (shard.size, shard.mtime_ns):
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


# -- listing ------------------------------------------------------------------------------
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
            path = directory / name
            if entry.is_symlink():
                raise LeashError(
                    f"{path}: a sample shard is a symbolic link; refused (it is not followed)"
                )
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                raise LeashError(f"{path}: a sample shard is not a regular file; refused")
            shards.append(ShardFile(path, name, info.st_size, info.st_mtime_ns, info.st_ino))
    shards.sort(key=lambda s: s.name)
    return shards


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
    stats = read_summary(meta) if summary else None
    if stats is not None:
        stats.source = str(shard.path)
    held = stats is not None if summary else KEY_GROUPS in (meta.metadata or {})
    entry = ShardEntry(
        shard.name, shard.size, shard.mtime_ns, footer_facts(meta), _spans(meta), held
    )
    return entry, stats


def _unchanged(shard: ShardFile) -> bool:
    try:
        info = os.lstat(shard.path)
    except OSError:
        return False
    return (info.st_size, info.st_mtime_ns) == (shard.size, shard.mtime_ns)


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
        if not _unchanged(shard):
            continue
        entries[shard.name] = entry
        if summary is not None:
            added.append(summary)
    try:
        kept = previous.stats
    except (ValueError, KeyError, pa.ArrowException):
        kept = None  # statistics that do not decode: merged again from the footers
    if not seen.stale and (kept is not None or not previous.entries):
        parts = [*([kept] if kept is not None else []), *added]
        if overlapping_groups(parts)[0].num_rows == 0:
            return _with_answers(entries, merge_stats(parts) if parts else None)
    parts = []
    for shard in listing:
        entry = entries.get(shard.name)
        if entry is None or not entry.summarised:
            continue
        _, summary = read_entry(shard)
        if summary is None or not _unchanged(shard):
            entries.pop(shard.name)
            continue
        parts.append(summary)
    check_unique_samples(parts)
    return _with_answers(entries, merge_stats(parts) if parts else None)


def _with_answers(entries: dict[str, ShardEntry], stats: SampleStats | None) -> ShardIndex:
    """The index of ``entries`` and ``stats``, with the answer statistics that a report and
    the explorer read at the default N computed once here, by the writer."""
    answers = None
    if stats is not None and stats.first_keep >= DEFAULT_ENTROPY_SAMPLES:
        answers = answer_stats_table(stats, DEFAULT_ENTROPY_SAMPLES)
    return ShardIndex(entries, stats, answers=answers)


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


# -- the file --------------------------------------------------------------------------------
def _nulls_column(entries: Sequence[ShardEntry], column: str) -> pa.Array:
    return pa.array([e.facts.nulls.get(column) for e in entries], pa.int64())


def _span_column(entries: Sequence[ShardEntry], part: int) -> pa.Array:
    return pa.array([[s[part] for s in e.spans] for e in entries], pa.list_(pa.string()))


def write(root: Path, index: ShardIndex) -> Path | None:
    """Write ``index`` as the folder's INDEX_FILE, atomically; returns its path. A link or
    special file in its place is left as it is (never renamed over; readers ignore it):
    None."""
    path = Path(root) / INDEX_FILE
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except FileNotFoundError:
        pass
    entries = list(index.entries.values())
    table = pa.table(
        {
            "name": pa.array([e.name for e in entries], pa.string()),
            "size": pa.array([e.size for e in entries], pa.int64()),
            "mtime_ns": pa.array([e.mtime_ns for e in entries], pa.int64()),
            "rows": pa.array([e.facts.rows for e in entries], pa.int64()),
            "columns": pa.array([sorted(e.facts.columns) for e in entries], pa.list_(pa.string())),
            **{f"nulls.{c}": _nulls_column(entries, c) for c in PROBED_COLUMNS},
            "summarised": pa.array([e.summarised for e in entries], pa.bool_()),
            "benchmark_min": _span_column(entries, 0),
            "benchmark_max": _span_column(entries, 1),
            "question_min": _span_column(entries, 2),
            "question_max": _span_column(entries, 3),
        }
    )
    stats = index.stats if entries else None
    info = {"version": INDEX_VERSION, "first_keep": 0, "stats": stats is not None}
    blobs: dict[bytes, bytes] = {}
    if stats is not None:
        blobs.update(encode_stats(stats))
        info["first_keep"] = stats.first_keep
        answers = index.answer_stats()
        if answers is not None:
            blobs[KEY_ANSWERS] = ipc_bytes(answers)
    # each stream in the first row of a column of its own: a reader maps the file and
    # touches only the streams it decodes (an explorer's first paint: the counts)
    padding = [None] * max(0, len(entries) - 1)
    for key in _BLOB_KEYS:
        values = [blobs.get(key), *padding] if entries else []
        table = table.append_column(_blob_column(key), pa.array(values, pa.large_binary()))
    table = table.replace_schema_metadata({_KEY_INFO: json.dumps(info).encode()})
    with atomic_path(path) as tmp, ipc.new_file(str(tmp), table.schema) as writer:
        writer.write_table(table)
    return path


def _blob_column(key: bytes) -> str:
    return "stream " + key.decode()


def _mapped(fd: int) -> pa.NativeFile:
    """The file open at ``fd`` (checked regular, opened without following links) memory
    mapped through /proc, so that only the pages read are resident; read whole where
    /proc is missing."""
    try:
        return pa.memory_map(f"/proc/self/fd/{fd}")
    except (OSError, pa.ArrowException):
        with os.fdopen(os.dup(fd), "rb") as handle:
            return pa.BufferReader(handle.read())


def _streams(table: pa.Table) -> dict[bytes, pa.Buffer]:
    """The encoded streams held in the first row of the stream columns (zero copy)."""
    out = {}
    for key in _BLOB_KEYS:
        name = _blob_column(key)
        if name not in table.column_names or not table.num_rows:
            continue
        cells = table.column(name).chunk(0)  # large_binary: validity, int64 offsets, data
        if not pa.types.is_large_binary(cells.type) or not cells.is_valid()[0].as_py():
            continue
        _, offsets, data = cells.buffers()
        start, end = np.frombuffer(offsets, np.int64, count=2, offset=cells.offset * 8)
        out[key] = data.slice(int(start), int(end - start))  # a scalar would copy it
    return out


def read(root: Path) -> ShardIndex | None:
    """The folder's index, or None when it has none or it cannot be trusted to be one
    (another version's, damaged, a link or special file: readers then use footers)."""
    path = Path(root) / INDEX_FILE
    try:
        fd = open_regular(path)
    except (FileNotFoundError, LeashError, OSError):
        return None
    try:
        try:
            table = ipc.open_file(_mapped(fd)).read_all()
        finally:
            os.close(fd)
        metadata = table.schema.metadata or {}
        info = json.loads(metadata[_KEY_INFO])
        if info.get("version") != INDEX_VERSION:
            return None
        streams = _streams(table) if info.get("stats") else {}
        blobs = None
        if all(k in streams for k in (KEY_GROUPS, KEY_CLASSES, KEY_FIRST)):
            blobs = {k: streams[k] for k in (KEY_GROUPS, KEY_CLASSES, KEY_FIRST)}
        keep = int(info.get("first_keep", 0))
        answers = streams.get(KEY_ANSWERS)
        return ShardIndex(IndexedEntries(table), blobs=blobs, first_keep=keep, answers=answers)
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
        return None


class IndexedEntries(Mapping[str, ShardEntry]):
    """The entries of an index file by shard name, each built when first asked for: an
    open compares names, sizes and times of thousands of shards (``stamp``) and needs the
    facts of few (a tenth of a second for 8,138 entries built at once)."""

    def __init__(self, table: pa.Table):
        self._table = table
        names = table.column("name").to_pylist()
        for name in names:
            if not isinstance(name, str) or "/" in name or not name.startswith("part-"):
                raise ValueError(f"not a shard name: {name!r}")
        self._row = {name: i for i, name in enumerate(names)}
        sizes, times = table.column("size").to_pylist(), table.column("mtime_ns").to_pylist()
        self._stamps = dict(zip(names, zip(sizes, times, strict=True), strict=True))
        self._summarised = dict(zip(names, table.column("summarised").to_pylist(), strict=True))
        self._built: dict[str, ShardEntry] = {}

    def stamp(self, name: str) -> tuple[int, int] | None:
        return self._stamps.get(name)

    def summarised(self, name: str) -> bool:
        return bool(self._summarised.get(name))

    def __getitem__(self, name: str) -> ShardEntry:
        entry = self._built.get(name)
        if entry is None:
            if len(self._built) >= _BUILT_ONE_BY_ONE:
                self._build_all()  # a reader walking every shard: convert columns whole
                return self._built[name]
            entry = self._built[name] = self._entry(self._row[name])
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._row)

    def __len__(self) -> int:
        return len(self._row)

    def _cell(self, column: str, row: int) -> Any:
        if column not in self._table.column_names:
            return None  # a probed column the writer did not know: the footer's
        return self._table.column(column)[row].as_py()

    def _build_all(self) -> None:
        table = self._table
        columns = {c: table.column(c).to_pylist() for c in ("name", "rows", "columns")}
        unknown = [None] * table.num_rows
        nulls = {
            c: table.column(f"nulls.{c}").to_pylist()
            if f"nulls.{c}" in table.column_names
            else unknown
            for c in PROBED_COLUMNS
        }
        spans = [table.column(c).to_pylist() for c in SPAN_COLUMNS]
        for i, name in enumerate(columns["name"]):
            if name in self._built:
                continue
            facts = FooterFacts(
                int(columns["rows"][i]),
                frozenset(columns["columns"][i]),
                {c: nulls[c][i] for c in PROBED_COLUMNS},
            )
            size, mtime_ns = self._stamps[name]
            self._built[name] = ShardEntry(
                name,
                int(size),
                int(mtime_ns),
                facts,
                tuple(zip(*(part[i] for part in spans), strict=True)),
                self.summarised(name),
            )

    def _entry(self, i: int) -> ShardEntry:
        cell = partial(self._cell, row=i)
        nulls = {c: cell(f"nulls.{c}") for c in PROBED_COLUMNS}
        facts = FooterFacts(int(cell("rows")), frozenset(cell("columns")), nulls)
        parts = [cell(c) for c in SPAN_COLUMNS]
        spans = tuple(zip(*parts, strict=True))
        name = cell("name")
        size, mtime_ns = self._stamps[name]
        return ShardEntry(name, int(size), int(mtime_ns), facts, spans, self.summarised(name))
