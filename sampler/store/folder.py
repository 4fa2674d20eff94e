"""``ResultsFolder``: the one door to a results folder, through which every stage reads and writes.

A folder is opened (``open``: an existing one, read once any import committing into
it has finished), created (``create``: an empty or missing directory becomes a folder;
with a manifest, a new folder holding it) or named before it exists (``ResultsFolder(root)``:
an import builds a new folder beside it and renames it into place). The door offers the
reads and writes of the format and nothing one consumer alone needs: the manifest and
questions; the shards with their reads (SampleReads), appends, rewrites and footer facts;
the per-key statistics (shard index, else footers, else a scan, else the cache) and the
sample ranges a resumed run extends; the side tables (perplexity, token detail, adaptive
stops, triage journal); the locks (``locks``) and the commit journal of staged writes
(``journal``, store.folder_parts). A stage's own query (an adaptive run's first successes,
a report's grading agreement) is a function of that stage built on these reads; the
folder-wide probes several stages share live in store.probes. Stages hold a ResultsFolder,
never a bare path, import only ``sampler.store`` (an import-linter contract) and no
``pyarrow.parquet`` (tests/store/test_store_door.py).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.folder_parts import CommitJournal, FolderLocks
from sampler.store.journals import commit_journal, locks
from sampler.store.journals.triage_journal import TriageJournal
from sampler.store.manifest import load_manifest, new_manifest, save_manifest, update_manifest
from sampler.store.schema import LOCK_FILE, MANIFEST_FILE, SAMPLES_DIR, Manifest
from sampler.store.shards import shard_files, shard_index, shard_index_file, writer
from sampler.store.shards.folder_key_stats import folder_key_stats
from sampler.store.shards.key_stats import SampleStats, counts_table
from sampler.store.shards.reader import SampleReads
from sampler.store.shards.shard_files import FooterFacts
from sampler.store.shards.shard_listing import ShardFile, file_stamp
from sampler.store.shards.shard_summary import folder_stats
from sampler.store.side_tables import adaptive_stops, perplexity_table, token_detail
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES

#: (count, smallest, largest sample index) of one (benchmark, question_id, model)
SampleRange = tuple[int, int, int]


class ResultsFolder(SampleReads):
    """A results folder: open with ``open``, make with ``create``, name with the constructor."""

    def __init__(self, root: Path | str, manifest: Manifest | None = None):
        self.root = Path(root)
        self._manifest = manifest
        self._questions: pa.Table | None = None
        #: footer facts per shard, with the (size, mtime, inode) they were read at
        self._facts: dict[Path, tuple[tuple[int, int, int, int] | None, FooterFacts]] = {}
        self._index_cache: tuple[tuple[int, int, int], shard_index.ShardIndex | None] | None = None
        self._listing_cache: tuple[tuple[int, int, int], list[ShardFile]] | None = None
        #: the folder's locks, and the commit journal of staged writes (store.folder_parts)
        self.locks = FolderLocks(self.root)
        self.journal = CommitJournal(self.root)

    # -- opening ----------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path | str) -> ResultsFolder:
        """Open an existing folder, once any import committing into it has finished;
        a missing folder or manifest, or an unknown format, is a LeashError."""
        root = Path(root)
        if root.is_dir():
            commit_journal.settle(root)
        return cls(root, load_manifest(root))

    @classmethod
    def create(cls, root: Path | str, manifest: Manifest | None = None) -> ResultsFolder:
        """Make ``root`` a results folder (a new manifest) if it is missing or empty, and
        open it; an existing folder is opened; another non-empty directory is refused.
        With ``manifest``: a new folder holding it (an existing or non-empty one is refused)."""
        if manifest is not None:
            writer.create_results(Path(root), manifest)
            return cls(root, manifest)
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        if not root.is_dir():
            raise LeashError(f"{root}: not a folder")
        with locks.exclusive_lock(root / LOCK_FILE):
            if not (root / MANIFEST_FILE).exists():
                others = [
                    p.name
                    for p in root.iterdir()
                    if not p.name.startswith(".leash") and p.name != SAMPLES_DIR
                ]
                if others:
                    raise LeashError(
                        f"{root}: exists, is not empty and is not a results folder;"
                        " choose a new folder"
                    )
                (root / SAMPLES_DIR).mkdir(exist_ok=True)
                save_manifest(root, new_manifest())
        return cls.open(root)

    def exists(self) -> bool:
        """Whether the folder has a manifest."""
        return (self.root / MANIFEST_FILE).exists()

    def file(self, name: str) -> Path:
        """The path of ``name`` inside the folder, for messages and side files."""
        return self.root / name

    # -- manifest and questions -------------------------------------------------------
    @property
    def manifest(self) -> Manifest:
        if self._manifest is None:
            self._manifest = load_manifest(self.root)
        return self._manifest

    def update_manifest(self, change: Callable[[Manifest], None]) -> Manifest:
        """Apply ``change`` under the folder lock and save it atomically; returns it."""
        self._manifest = update_manifest(self.root, change)
        return self._manifest

    @property
    def questions(self) -> pa.Table:
        """The questions table (benchmark, question_id, problem, gold, metadata)."""
        if self._questions is None:
            self._questions = writer.read_questions(self.root)
        return self._questions

    def merge_questions(self, table: pa.Table) -> int:
        """Merge question rows in under the folder lock (writer.merge_questions)."""
        self._questions = None
        return writer.merge_questions(self.root, table)

    # -- shards -------------------------------------------------------------------------
    def append_samples(
        self, table: pa.Table, token_detail_table: pa.Table | None = None
    ) -> Path | None:
        """Append ``table`` as a new shard (with its footer summary); returns its path.
        ``token_detail_table``: the token detail of its samples, written first under the
        shard's name (side_tables.token_detail)."""
        return writer.append_samples(self.root, table, token_detail_table)

    def replace_shard(self, path: Path, table: pa.Table) -> None:
        """Atomically replace shard ``path`` by ``table`` (same rows, updated columns)."""
        writer.replace_shard(path, table)

    def read_shard(
        self, path: Path, columns: Sequence[str] | None = None, conform: bool = False
    ) -> pa.Table:
        """Shard ``path`` (``columns`` of it); ``conform``: cast to the samples schema."""
        return shard_files.read_shard(path, columns, conform)

    def footer_facts(self, path: Path) -> FooterFacts:
        """Row count, columns and probed null counts of a shard by its footer: from the
        shard index while the file is as indexed, else read once per open folder while
        the file is unchanged (LeashError if it cannot be read)."""
        stamp = _stamp(path)
        if stamp is not None:
            entry = self._indexed_entry(path, stamp)
            if entry is not None:
                return entry.facts
        cached = self._facts.get(path)
        if stamp is not None and cached is not None and cached[0] == stamp:
            return cached[1]
        return self._remember(path, shard_files.read_footer(path), stamp)

    def _indexed_entry(
        self, path: Path, stamp: tuple[int, int, int, int]
    ) -> shard_index.ShardEntry | None:
        index = self._shard_index()
        if index is None or path.parent != self.root / SAMPLES_DIR:
            return None
        if index.stamp(path.name) != stamp:
            return None
        return index.entries[path.name]

    def _remember(
        self, path: Path, meta: pq.FileMetaData, stamp: tuple[int, int, int, int] | None = None
    ) -> FooterFacts:
        facts = shard_files.footer_facts(meta)
        self._facts[path] = (stamp if stamp is not None else _stamp(path), facts)
        return facts

    def shards_with_values(self, column: str, stop_at_first: bool = False) -> list[Path]:
        """The shards whose footer statistics do not show ``column`` all null (from the
        shard index for shards unchanged since it was written; unreadable ones included)."""
        index = self._shard_index()
        verdicts = index.null_verdicts(column) if index is not None else {}
        found = []
        for shard in self._shard_listing():
            empty = verdicts.get(shard.name)
            if empty is None or index.stamp(shard.name) != shard.stamp:
                entry = index.lookup(shard) if index is not None else None
                try:
                    facts = entry.facts if entry is not None else self.footer_facts(shard.path)
                    empty = self._all_null(column, shard.path, facts)
                except (LeashError, OSError):
                    empty = False
            if not empty:
                found.append(shard.path)
                if stop_at_first:
                    break
        return found

    @staticmethod
    def _all_null(column: str, path: Path, facts: FooterFacts) -> bool:
        if column in facts.nulls or column not in facts.columns:
            return facts.all_null(column)
        return shard_files.column_all_null(path, column)

    def refresh_index(self) -> None:
        """Bring the folder's shard index (shards.shard_index) up to date with its shards,
        under the folder lock, reading only the footers of shards new or changed since
        it was written; every command that changes shards calls it as it ends. A folder
        that cannot be written (read-only media) keeps its index as it was."""
        with self.locks.metadata():
            listing = self._shard_listing()
            previous = shard_index_file.read(self.root)
            if previous is not None and shard_index.up_to_date(previous, listing):
                return
            index = shard_index.build(listing, previous)
            with contextlib.suppress(PermissionError, OSError):
                shard_index_file.write(self.root, index)
        self._index_cache = None

    # -- statistics -----------------------------------------------------------------------
    def key_stats(
        self, use_cache: bool = True, scan: bool = True, keep: int = DEFAULT_ENTROPY_SAMPLES
    ) -> SampleStats | None:
        """Per-key statistics of every sample: the shard index (with the footers of shards
        added since it was written), else footers, else a scan, else the cache
        (folder_key_stats); None only when ``scan`` is false and a scan was needed.
        Without ``use_cache`` every sample is counted again from the rows."""
        listing = self._shard_listing()
        if use_cache:
            indexed = self._indexed_stats(listing, keep)
            if indexed is not None:
                return indexed
        paths = [shard.path for shard in listing]
        return folder_key_stats(self.root, paths, use_cache, scan, keep, seen=self._remember)

    def _indexed_stats(
        self, listing: Sequence[ShardFile], keep: int, only_groups: bool = False
    ) -> SampleStats | None:
        """The key statistics from the shard index when it covers every shard listed
        (unchanged since, or added and summarised in their footers), else None;
        ``only_groups``: without answer classes and first samples (a few ms to decode)."""
        index = self._shard_index()
        if index is None or not index.has_stats or index.first_keep < keep:
            return None
        seen = shard_index.view(index, listing)
        if seen.stale or any(not index.summarised(s.name) for s in seen.current):
            return None
        try:
            merged = shard_index.merged_with(index, seen.added, only_groups)
        except (ValueError, KeyError, pa.ArrowException):
            return None  # the index's statistics cannot be decoded: the footers decide
        if merged is None or merged[1]:
            return None
        return copy.copy(merged[0])

    def indexed_answer_stats(
        self, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES
    ) -> pa.Table | None:
        """Per-group answer statistics (answer_summary.ANSWER_STATS_COLUMNS) as the shard
        index keeps them, computed by the writer at the default N, while the index holds
        every shard as it is now (and all with summaries); else None: the caller computes
        them from ``key_stats`` (answer classes and first samples decoded or scanned)."""
        if entropy_samples != DEFAULT_ENTROPY_SAMPLES:
            return None
        index = self._shard_index()
        if index is None:
            return None
        listing = self._shard_listing()
        if not shard_index.up_to_date(index, listing):
            return None
        if any(not index.summarised(s.name) for s in listing):
            return None
        try:
            return index.answer_stats()
        except (ValueError, KeyError, pa.ArrowException):
            return None

    def verdict_counts(self) -> pa.Table:
        """Per (benchmark, question_id, model): samples, verified, and counts per status.

        From the shard index or the shards' footer summaries; shards without one are
        scanned (key and status columns only). Columns: benchmark, question_id, model,
        n, n_verified, n_correct, n_incorrect, n_no_answer, n_timeout, n_error, n_trusted
        (verdicts that are trusted source verdicts, ``leash import --trust-verdicts``),
        n_no_gold (samples of questions without a gold: status ``no_gold``).
        """
        indexed = self._indexed_stats(self._shard_listing(), 0, only_groups=True)
        if indexed is not None:
            return counts_table(indexed)
        return counts_table(folder_stats(self.shard_paths(), ["status", "verdict_source"]))

    def sample_ranges(self) -> dict[tuple[str, str, str], SampleRange]:
        """(benchmark, question_id, model) -> (count, smallest, largest sample index), from
        the footer summaries (a scan of key columns where a shard has none, or one that
        predates ranges); a sample key held twice is a LeashError."""
        listing = self._shard_listing()
        if not listing:
            return {}
        paths = [shard.path for shard in listing]
        stats = self._indexed_stats(listing, 0, only_groups=True) or folder_stats(paths, ["status"])
        if stats.sample_min is None or stats.sample_max is None:
            stats = folder_stats(paths, ["status"], summaries=False)
        assert stats.sample_min is not None and stats.sample_max is not None
        counts = stats.status.sum(axis=1).astype(np.int64)
        keys = zip(
            *(stats.keys.column(k).to_pylist() for k in stats.keys.column_names), strict=True
        )
        return {
            key: (int(n), int(low), int(high))
            for key, n, low, high in zip(
                keys, counts, stats.sample_min, stats.sample_max, strict=True
            )
        }

    # -- side tables ---------------------------------------------------------------------
    def perplexity(
        self, question: tuple[str, str] | None = None, columns: Sequence[str] | None = None
    ) -> pa.Table:
        """perplexity.parquet rows (of one (benchmark, question_id) when given)."""
        return perplexity_table.read_perplexity(self.root, question, columns)

    def merge_perplexity(self, rows: list[dict]) -> None:
        """Merge perplexity rows in (rows of the same trace replaced)."""
        perplexity_table.merge_perplexity(self.root, rows)

    def token_detail(self) -> pa.Table:
        """The token detail side table (per-token entropies of the first samples)."""
        return token_detail.read_token_detail(self.root)

    def adaptive_stops(self) -> pa.Table:
        """adaptive_stops.parquet rows (empty when never sampled adaptively)."""
        return adaptive_stops.read_stops(self.root)

    def merge_adaptive_stops(self, rows: list[dict]) -> None:
        """Merge stop rows in under the folder lock (rows of the same key replaced)."""
        adaptive_stops.merge_stops(self.root, rows)

    def triage_journal(self) -> TriageJournal:
        """The triage journal (tags and notes on questions)."""
        return TriageJournal(self.root)


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return file_stamp(st)


def as_folder(folder: ResultsFolder | Path | str) -> ResultsFolder:
    """``folder`` if it is a ResultsFolder, else the folder opened at that path (for entry
    points that callers still give a path)."""
    return folder if isinstance(folder, ResultsFolder) else ResultsFolder.open(folder)
