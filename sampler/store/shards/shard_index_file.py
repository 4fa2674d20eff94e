"""``shard-index.arrow``, the shard index as a file: written atomically, read memory-mapped.

One Arrow IPC file (docs/results-format.md): a row per shard (name, size, time, footer
facts, row-group key ranges) and, in the first row of columns of their own, the encoded
streams of the merged summaries (counts, answer classes, first samples) and of the answer
statistics at the default N, so that a reader maps the file and touches only the streams
it decodes. The schema metadata holds its version; a file of another version, damaged, a
link or not a regular file reads as no index.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.journals.safe_files import open_regular
from sampler.store.shards.ipc_bounds import Budget, check_stream, check_uncompressed_file
from sampler.store.shards.shard_files import PROBED_COLUMNS, FooterFacts
from sampler.store.shards.shard_index import ShardEntry, ShardIndex
from sampler.store.shards.shard_summary import (
    KEY_CLASSES,
    KEY_FIRST,
    KEY_GROUPS,
    encode_stats,
    ipc_bytes,
)

INDEX_FILE = "shard-index.arrow"
#: of the streams in the index: lz4 reads 10x and writes 2x faster than zstd (shard_summary)
INDEX_COMPRESSION = "lz4"
#: 3: the encoded streams in columns of their own, the file memory-mapped (1 and 2, with
#: them in the schema metadata, were development layouts: rebuilt). Bump it when what the
#: answer statistics mean changes: a refresh keeps the rows of groups no new shard holds.
INDEX_VERSION = 4  # 4: change time and inode in each row's stamp
_KEY_INFO = b"leash.index"
#: the answer statistics at the default N, an Arrow IPC stream of its own
KEY_ANSWERS = b"leash.index.answers"
_BLOB_KEYS = (KEY_GROUPS, KEY_CLASSES, KEY_FIRST, KEY_ANSWERS)
_STAMP_COLUMNS = ("size", "mtime_ns", "ctime_ns", "inode")
SPAN_COLUMNS = ("benchmark_min", "benchmark_max", "question_min", "question_max")
#: entries an IndexedEntries builds one at a time before it converts the rest at once
_BUILT_ONE_BY_ONE = 64
#: the streams of an index may claim to decode to at most this many times the bytes of
#: the shards it indexes, plus DECODE_FLOOR (issue 33: an lz4 bomb of 2.5 MB claimed 600
#: MB); summaries of the shards' rows that claim more are not leash's: the index is refused
DECODE_RATIO = 64
DECODE_FLOOR = 16 << 20


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
            "ctime_ns": pa.array([e.ctime_ns for e in entries], pa.int64()),
            "inode": pa.array([e.inode for e in entries], pa.uint64()),
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
        blobs.update(encode_stats(stats, INDEX_COMPRESSION))
        info["first_keep"] = stats.first_keep
        answers = index.answer_stats()
        if answers is not None:
            blobs[KEY_ANSWERS] = ipc_bytes(answers, INDEX_COMPRESSION)
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
            data = _mapped(fd).read_buffer()  # zero copy of a map
            check_uncompressed_file(data)
            table = ipc.open_file(data).read_all()
        finally:
            os.close(fd)
        metadata = table.schema.metadata or {}
        info = json.loads(metadata[_KEY_INFO])
        if info.get("version") != INDEX_VERSION:
            return None
        streams = _streams(table) if info.get("stats") else {}
        _check_streams(table, streams)
        blobs = None
        if all(k in streams for k in (KEY_GROUPS, KEY_CLASSES, KEY_FIRST)):
            blobs = {k: streams[k] for k in (KEY_GROUPS, KEY_CLASSES, KEY_FIRST)}
        keep = int(info.get("first_keep", 0))
        answers = streams.get(KEY_ANSWERS)
        return ShardIndex(IndexedEntries(table), blobs=blobs, first_keep=keep, answers=answers)
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
        return None


def _check_streams(table: pa.Table, streams: Mapping[bytes, pa.Buffer]) -> None:
    """ValueError when the streams claim more than the shards the index lists allow: each
    stream at most as many rows as those shards' samples, buffers no larger than their
    rows need, and all of them at most DECODE_RATIO times the shards' bytes (read from
    each message's header and each buffer's first bytes; nothing is decompressed). The
    sizes are the index's own, so a reader compares them with the shards before it
    decodes a stream (shard_index.view)."""
    rows = pc.sum(table.column("rows")).as_py() or 0
    size = pc.sum(table.column("size")).as_py() or 0
    budget = Budget(rows=int(rows), bytes=DECODE_RATIO * max(0, int(size)) + DECODE_FLOOR)
    for data in streams.values():
        check_stream(data, budget)


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
        stamps = zip(*(table.column(c).to_pylist() for c in _STAMP_COLUMNS), strict=True)
        self._stamps = dict(zip(names, stamps, strict=True))
        self._summarised = dict(zip(names, table.column("summarised").to_pylist(), strict=True))
        self._built: dict[str, ShardEntry] = {}

    def stamp(self, name: str) -> tuple[int, int, int, int] | None:
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

    def null_verdicts(self, column: str) -> dict[str, bool]:
        """{shard name: whether its facts show ``column`` all null or absent} for every
        shard whose facts decide it, computed on the columns whole (a report asks this
        of thousands of shards; building their entries one by one took a fifth of a
        second). A shard holding ``column`` with no null count is left out."""
        table = self._table
        n = table.num_rows
        lists = table.column("columns").combine_chunks()
        flat = pc.list_flatten(lists).to_numpy(zero_copy_only=False)
        parents = pc.list_parent_indices(lists).to_numpy()
        holds = np.zeros(n, dtype=bool)
        holds[parents[flat == column]] = True
        empty, known = ~holds, ~holds
        if f"nulls.{column}" in table.column_names:
            nulls = table.column(f"nulls.{column}")
            rows = table.column("rows").to_numpy()
            counted = pc.is_valid(nulls).to_numpy(zero_copy_only=False)
            values = pc.fill_null(nulls, 0).to_numpy()
            empty = empty | (holds & counted & (values == rows))
            known = known | counted
        names = table.column("name").to_pylist()
        return {names[i]: bool(empty[i]) for i in np.flatnonzero(known)}

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
            size, mtime_ns, ctime_ns, inode = self._stamps[name]
            self._built[name] = ShardEntry(
                name,
                int(size),
                int(mtime_ns),
                facts,
                tuple(zip(*(part[i] for part in spans), strict=True)),
                self.summarised(name),
                int(ctime_ns),
                int(inode),
            )

    def _entry(self, i: int) -> ShardEntry:
        cell = partial(self._cell, row=i)
        nulls = {c: cell(f"nulls.{c}") for c in PROBED_COLUMNS}
        facts = FooterFacts(int(cell("rows")), frozenset(cell("columns")), nulls)
        parts = [cell(c) for c in SPAN_COLUMNS]
        spans = tuple(zip(*parts, strict=True))
        name = cell("name")
        size, mtime_ns, ctime_ns, inode = self._stamps[name]
        summarised = self.summarised(name)
        return ShardEntry(
            name, int(size), int(mtime_ns), facts, spans, summarised, int(ctime_ns), int(inode)
        )
