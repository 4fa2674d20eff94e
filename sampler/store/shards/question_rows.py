"""One question's samples read narrow, and one sample's wide cells read by row on demand.

A paper-scale question (8,192 samples of 40 KB per model) holds hundreds of MB of
completion text; a screen shows one sample per side. ``read_question_rows`` reads
the question's row groups without the wide columns (``text``, ``verdict_detail``)
and tags every row with where it lives (shard, row group, row within the group);
``read_sample_cells`` (or a ``RowCursor``, for rows read in order) then reads the
wide cells of one row, streaming the row group's pages in small batches (never the
whole column chunk), so memory stays bounded by a batch and a page, whatever k and
completion length are. Shard footers
(large when they carry a summary of varied answers) are parsed once per file version
(``shard_metadata``), not at every question and sample shown.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.schema import SAMPLES_SCHEMA
from sampler.store.shards.writer import conform_table

if TYPE_CHECKING:
    from sampler.store.folder import ResultsFolder

#: Columns too wide to read for every sample of a question.
WIDE_COLUMNS = ("text", "verdict_detail")
#: Location columns added to ``read_question_rows``'s table.
LOCATION_COLUMNS = ("_shard", "_group", "_row")
#: Rows decoded at a time while seeking one row in a row group.
SEEK_BATCH_ROWS = 16
#: Bytes read from disk at a time while seeking (the reader never holds a whole column chunk).
SEEK_BUFFER_BYTES = 1 << 20


@dataclass(frozen=True)
class QuestionRows:
    """A question's narrow rows, sorted by model and sample, and the shards they came from."""

    table: pa.Table  # the asked columns plus LOCATION_COLUMNS
    shards: tuple[Path, ...]  # ``_shard`` indexes this

    def location(self, position: int) -> tuple[Path, int, int]:
        """(shard, row group, row within the group) of row ``position`` of ``table``."""
        cells = self.table.select(list(LOCATION_COLUMNS)).slice(position, 1).to_pylist()[0]
        return self.shards[cells["_shard"]], cells["_group"], cells["_row"]


@lru_cache(maxsize=256)
def _metadata(path: str, version: tuple[int, int, int]) -> pq.FileMetaData:
    return pq.read_metadata(path)


def shard_metadata(path: Path) -> pq.FileMetaData:
    """The footer of shard ``path``, parsed once per version of the file (inode, size and
    modification time: a verified shard is a new file)."""
    info = Path(path).stat()
    return _metadata(str(path), (info.st_ino, info.st_size, info.st_mtime_ns))


def _open(path: Path, **options: Any) -> tuple[pq.ParquetFile, set[str]]:
    """The shard with its cached footer, and its column names."""
    handle = pq.ParquetFile(path, metadata=shard_metadata(path), **options)
    return handle, set(handle.schema_arrow.names)


def _unreadable(path: Path, exc: BaseException) -> LeashError:
    return LeashError(f"{path}: not a readable Parquet file ({exc})")


def read_question_rows(
    results: ResultsFolder, benchmark: str, question_id: str, columns: Sequence[str]
) -> QuestionRows:
    """The samples of one question in ``columns`` (wide ones refused), with their locations.

    Only row groups whose statistics can contain the question are read, and only the
    asked columns of them.
    """
    wide = [c for c in columns if c in WIDE_COLUMNS]
    if wide:
        raise ValueError(f"read wide columns by row (read_sample_cells): {', '.join(wide)}")
    wanted = list(columns)
    needed = list(dict.fromkeys([*wanted, "benchmark", "question_id", "model", "sample"]))
    schema = pa.schema([SAMPLES_SCHEMA.field(c) for c in needed])
    shards: list[Path] = []
    pieces = []
    for path, groups in results._question_row_groups(benchmark, question_id).items():
        try:
            handle, names = _open(path)
            present = [c for c in needed if c in names]
            for group in groups:
                piece = handle.read_row_group(group, columns=present)
                mask = pc.and_(
                    pc.equal(piece.column("benchmark"), benchmark),
                    pc.equal(piece.column("question_id"), question_id),
                )
                rows = np.flatnonzero(pc.fill_null(mask, False).to_numpy(zero_copy_only=False))
                if rows.size == 0:
                    continue
                if path not in shards:
                    shards.append(path)
                kept = conform_table(piece.take(pa.array(rows)), schema)
                n = rows.size
                shard = np.full(n, shards.index(path))
                kept = kept.append_column("_shard", pa.array(shard, pa.int32()))
                kept = kept.append_column("_group", pa.array(np.full(n, group), pa.int32()))
                kept = kept.append_column("_row", pa.array(rows, pa.int64()))
                pieces.append(kept)
        except (pa.ArrowException, OSError) as exc:
            raise _unreadable(path, exc) from exc
    out_columns = [*wanted, *LOCATION_COLUMNS]
    if not pieces:
        empty = pa.schema([*(schema.field(c) for c in wanted), *_location_fields()])
        return QuestionRows(empty.empty_table(), ())
    table = pa.concat_tables(pieces)
    order = pc.sort_indices(table, sort_keys=[("model", "ascending"), ("sample", "ascending")])
    return QuestionRows(table.take(order).select(out_columns), tuple(shards))


def _location_fields() -> list[pa.Field]:
    return [
        pa.field("_shard", pa.int32()),
        pa.field("_group", pa.int32()),
        pa.field("_row", pa.int64()),
    ]


class RowCursor:
    """Reads rows of one row group in increasing order without going back to its start.

    The row group is streamed in batches of ``SEEK_BATCH_ROWS`` rows through a buffered
    reader and every batch before the row asked is dropped, so memory is a batch and a
    page, not the column chunk. A row at or after the last one read continues the
    stream (stepping through samples reads each page once); an earlier row starts it
    again. A column the shard lacks reads as None.
    """

    def __init__(self, path: Path, group: int, columns: Sequence[str] = WIDE_COLUMNS):
        self.path, self.group, self.columns = Path(path), group, tuple(columns)
        self._batches: Iterator[pa.RecordBatch] | None = None
        self._batch: pa.RecordBatch | None = None
        self._start = 0  # row of the group where ``_batch`` starts

    def _restart(self) -> None:
        handle, names = _open(self.path, pre_buffer=False, buffer_size=SEEK_BUFFER_BYTES)
        present = [c for c in self.columns if c in names]
        self._batches = (
            handle.iter_batches(
                batch_size=SEEK_BATCH_ROWS,
                row_groups=[self.group],
                columns=present,
                use_threads=False,
            )
            if present
            else None
        )
        self._batch, self._start = None, 0

    def read(self, row: int) -> dict[str, Any]:
        """The cells of row ``row`` of the row group."""
        try:
            if self._batches is None or row < self._start:
                self._restart()
            if self._batches is None:
                return dict.fromkeys(self.columns)
            while self._batch is None or row >= self._start + self._batch.num_rows:
                if self._batch is not None:
                    self._start += self._batch.num_rows
                self._batch = next(self._batches, None)
                if self._batch is None:
                    self._batches = None
                    raise LeashError(
                        f"{self.path}: row group {self.group} has no row {row} (the shard changed?)"
                    )
            cells = self._batch.slice(row - self._start, 1).to_pylist()[0]
        except (pa.ArrowException, OSError) as exc:
            self._batches = None
            raise _unreadable(self.path, exc) from exc
        return {c: cells.get(c) for c in self.columns}


def read_sample_cells(
    path: Path, group: int, row: int, columns: Sequence[str] = WIDE_COLUMNS
) -> dict[str, Any]:
    """The ``columns`` of row ``row`` of row group ``group`` of shard ``path`` (one read;
    ``RowCursor`` for several)."""
    return RowCursor(path, group, columns).read(row)
