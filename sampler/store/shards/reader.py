"""Reading a folder's samples: projections, streams, and one question's samples.

The read half of ``ResultsFolder`` (sampler.store.folder), which inherits it. Reads
are lazy and narrow. One question's completions come from the few row groups whose
statistics can hold it (shards are sorted by benchmark, question id, model, sample),
found through an index of Parquet footers built once per open folder. Unreadable or
corrupt files raise LeashError naming the file.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.safe_files import within
from sampler.store.schema import SAMPLES_DIR, SAMPLES_SCHEMA
from sampler.store.shards import shard_files, shard_index, shard_index_file, shard_listing
from sampler.store.shards.key_stats import chunk_stats, counts_table
from sampler.store.shards.shard_listing import ShardFile
from sampler.store.shards.writer import conform_table

if TYPE_CHECKING:
    import pyarrow.dataset as ds

COUNT_KEYS = ("benchmark", "question_id", "model")
#: a samples folder changed more recently than this is listed again on every ask
LISTING_SETTLE_NS = 2_000_000_000
VERDICT_COUNT_COLUMNS = (
    "n_verified",
    "n_correct",
    "n_incorrect",
    "n_no_answer",
    "n_timeout",
    "n_error",
    "n_trusted",
    "n_no_gold",
)


def count_verdicts(table: pa.Table) -> pa.Table:
    """Verdict counts of sample rows (key columns and ``status``), one row per key.

    A status outside the known ones counts as verified but in no status column; null
    status is unverified. Rows are sorted by (benchmark, question_id, model).
    """
    return counts_table(chunk_stats(table.select([*COUNT_KEYS, "status"])))


@dataclass(frozen=True)
class RowGroupSpan:
    """Where a row group of a shard may hold rows: its benchmark and question id ranges."""

    shard: Path
    index: int
    benchmark_min: str
    benchmark_max: str
    question_min: str
    question_max: str

    def may_hold(self, benchmark: str, question_id: str) -> bool:
        if not (self.benchmark_min <= benchmark <= self.benchmark_max):
            return False
        if self.benchmark_min == self.benchmark_max:
            return self.question_min <= question_id <= self.question_max
        return True  # the group spans benchmarks: question ranges are not comparable


class SampleReads:
    """Reads of the sample shards under ``root`` (the base of ResultsFolder)."""

    root: Path

    # -- files --------------------------------------------------------------------
    def _shard_listing(self) -> list[ShardFile]:
        """Sample shards by name (oldest first) with their size and time, one ``lstat``
        each; temporaries of running writers are skipped, a shard that is a link or a
        special file is refused (LeashError), never read.

        Listed again only when ``samples/`` changed (its time, inode or size: every
        append, replacement by rename and removal changes them) or changed less than
        LISTING_SETTLE_NS ago (a second change within the clock's tick would keep its
        time); a report asks several times, the explorer on every open."""
        directory = self.root / SAMPLES_DIR
        if not os.path.lexists(directory):
            return []
        within(self.root, directory, "the samples folder")
        if not directory.is_dir():
            return []
        info = os.stat(directory)
        key = (info.st_ino, info.st_mtime_ns, info.st_size)
        cached = getattr(self, "_listing_cache", None)
        settled = time.time_ns() - info.st_mtime_ns > LISTING_SETTLE_NS
        if cached is not None and cached[0] == key and settled:
            return list(cached[1])
        listing = shard_listing.list_shards(self.root)
        self._listing_cache = (key, listing)
        return list(listing)

    def shard_paths(self) -> list[Path]:
        """Sample shards, oldest first (see ``shard_listing``)."""
        return [shard.path for shard in self._shard_listing()]

    def _shard_index(self) -> shard_index.ShardIndex | None:
        """The folder's shard index (shards.shard_index), read once per open folder
        and again when the file changes; None when it has none or it cannot be used."""
        path = self.root / shard_index_file.INDEX_FILE
        try:
            info = os.lstat(path)
            stamp = (info.st_size, info.st_mtime_ns, info.st_ino)
        except OSError:
            return None
        cached = getattr(self, "_index_cache", None)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        index = shard_index_file.read(self.root)
        self._index_cache = (stamp, index)
        return index

    def _check_shards(self, paths: Sequence[Path], columns: Sequence[str] = ()) -> None:
        """Find the unreadable shard after a dataset read failed, and name it: first by
        its footer, then by reading ``columns`` (garbage inside a page)."""
        for path in paths:
            try:
                pq.ParquetFile(path).metadata  # noqa: B018 - reading the footer is the check
            except (pa.ArrowException, OSError) as exc:
                raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
        for path in paths if columns else ():
            try:
                handle = pq.ParquetFile(path)
                present = [c for c in columns if c in handle.schema_arrow.names]
                handle.read(columns=present, use_threads=False)
            except (pa.ArrowException, OSError) as exc:
                raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc

    def _dataset(self, paths: Sequence[Path]) -> ds.Dataset:
        import pyarrow.dataset as ds  # imported here: it costs ~0.5 s and pulls in pandas

        fmt = ds.ParquetFileFormat(
            read_options=ds.ParquetReadOptions(dictionary_columns=["benchmark", "model", "status"])
        )
        schema = SAMPLES_SCHEMA
        for name in ("benchmark", "model", "status"):
            idx = schema.get_field_index(name)
            schema = schema.set(idx, pa.field(name, pa.dictionary(pa.int32(), pa.string())))
        return ds.dataset([str(p) for p in paths], schema=schema, format=fmt)

    # -- tables ---------------------------------------------------------------------
    def samples(
        self, columns: Sequence[str] | None = None, filter: pc.Expression | None = None
    ) -> pa.Table:
        """All samples, projected to ``columns`` (dictionary-encoded keys), optionally filtered."""
        paths = self.shard_paths()
        wanted = list(columns) if columns is not None else SAMPLES_SCHEMA.names
        unknown = [c for c in wanted if c not in SAMPLES_SCHEMA.names]
        if unknown:
            raise LeashError(f"unknown sample column(s): {', '.join(unknown)}")
        if not paths:
            return conform_table(SAMPLES_SCHEMA.empty_table(), SAMPLES_SCHEMA).select(wanted)
        try:
            return self._dataset(paths).to_table(columns=wanted, filter=filter)
        except (pa.ArrowException, OSError) as exc:
            self._check_shards(paths, wanted)
            raise LeashError(f"{self.root / SAMPLES_DIR}: cannot read samples ({exc})") from exc

    def iter_shard_batches(
        self,
        columns: Sequence[str] | None = None,
        paths: Sequence[Path] | None = None,
        batch_size: int = 65536,
    ) -> Iterator[tuple[Path, pa.Table]]:
        """Stream (shard, batch) of samples shard by shard (of ``paths``, default every
        shard), in shard sort order, with plain string columns; a column a shard lacks
        is filled with nulls."""
        wanted = list(columns) if columns is not None else SAMPLES_SCHEMA.names
        for path in self.shard_paths() if paths is None else paths:
            for table in shard_files.iter_shard_batches(path, wanted, batch_size):
                yield path, conform_table(table, SAMPLES_SCHEMA).select(wanted)

    # -- one question -----------------------------------------------------------------
    @cached_property
    def _row_group_index(self) -> list[RowGroupSpan]:
        """Each row group's key ranges: from the shard index for the shards it holds
        unchanged, from the footer for the others."""
        index = self._shard_index() or shard_index.ShardIndex()
        spans: list[RowGroupSpan] = []
        for shard in self._shard_listing():
            entry = index.lookup(shard)
            if entry is None:
                entry, _ = shard_index.read_entry(shard, summary=False)
            spans.extend(RowGroupSpan(shard.path, i, *span) for i, span in enumerate(entry.spans))
        return spans

    def question_samples(
        self,
        benchmark: str,
        question_id: str,
        model: str | None = None,
        columns: Sequence[str] | None = None,
    ) -> pa.Table:
        """The samples of one question (optionally one model), sorted by model and sample.

        Only row groups whose statistics can contain the question are read.
        """
        wanted = list(columns) if columns is not None else SAMPLES_SCHEMA.names
        needed = list(dict.fromkeys([*wanted, "benchmark", "question_id", "model", "sample"]))
        pieces = []
        for path, groups in self._question_row_groups(benchmark, question_id).items():
            try:
                handle = pq.ParquetFile(path)
                present = [c for c in needed if c in handle.schema_arrow.names]
                piece = handle.read_row_groups(groups, columns=present)
            except (pa.ArrowException, OSError) as exc:
                raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
            mask = pc.and_(
                pc.equal(piece.column("benchmark"), benchmark),
                pc.equal(piece.column("question_id"), question_id),
            )
            if model is not None:
                mask = pc.and_(mask, pc.equal(piece.column("model"), model))
            pieces.append(conform_table(piece.filter(mask), SAMPLES_SCHEMA))
        if not pieces:
            return SAMPLES_SCHEMA.empty_table().select(wanted)
        table = pa.concat_tables(pieces)
        order = pc.sort_indices(table, sort_keys=[("model", "ascending"), ("sample", "ascending")])
        return table.take(order).select(wanted)

    def _question_row_groups(self, benchmark: str, question_id: str) -> dict[Path, list[int]]:
        """The row groups, by shard, whose statistics can hold the question."""
        by_shard: dict[Path, list[int]] = {}
        for span in self._row_group_index:
            if span.may_hold(benchmark, question_id):
                by_shard.setdefault(span.shard, []).append(span.index)
        return by_shard


def row_groups_touched(folder: SampleReads, benchmark: str, question_id: str) -> int:
    """How many row groups a read of one question touches (for tests and benches)."""
    groups = folder._question_row_groups(benchmark, question_id)
    return sum(len(found) for found in groups.values())
