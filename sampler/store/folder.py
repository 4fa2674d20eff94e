"""``ResultsFolder``: the one door to a results folder, through which every stage reads and writes.

A folder is opened (``open``: an existing one, read once any import committing into
it has finished), created (``create``: an empty or missing directory becomes a folder;
an existing folder is opened) or named before it exists (``at``: an import builds a
new folder beside it and renames it into place). The object owns every fact of the
format that a stage needs: the manifest and questions; the shards with their reads
(SampleReads), rewrites and footer probes; the per-key statistics (footers, else a
scan, else the cache) and the sample ranges a resumed run extends; the side tables
(perplexity, token detail, triage journal); the locks and their names; the commit
journal; and every write. Stages hold a ResultsFolder, never a bare path, and import
no ``pyarrow.parquet`` (tests/store/test_store_door.py).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals import commit_journal, locks
from sampler.store.journals.triage_journal import TriageJournal
from sampler.store.manifest import load_manifest, new_manifest, save_manifest, update_manifest
from sampler.store.schema import (
    LOCK_FILE,
    MANIFEST_FILE,
    SAMPLE_LOCK_PREFIX,
    SAMPLES_DIR,
    VERIFY_LOCK_FILE,
    Manifest,
)
from sampler.store.shards import compaction, shard_files, shard_index, shard_index_file, writer
from sampler.store.shards.coverage import coverage_notes
from sampler.store.shards.first_success import first_success_table
from sampler.store.shards.folder_key_stats import folder_key_stats
from sampler.store.shards.key_stats import SampleStats, counts_table
from sampler.store.shards.reader import SampleReads
from sampler.store.shards.shard_files import FooterFacts
from sampler.store.shards.shard_listing import ShardFile
from sampler.store.shards.shard_summary import folder_stats, shard_summary
from sampler.store.side_tables import perplexity_table, token_detail
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES

#: the columns of grading agreement (leash's verdict against an imported source verdict)
AGREEMENT_COLUMNS = ("benchmark", "question_id", "model", "status", "source_correct")
#: the columns of exact token-entropy sums (``leash entropy``)
EXACT_ENTROPY_COLUMNS = ("benchmark", "question_id", "model", "token_entropy_exact")
#: (count, smallest, largest sample index) of one (benchmark, question_id, model)
SampleRange = tuple[int, int, int]


class ResultsFolder(SampleReads):
    """A results folder: open with ``open``, make with ``create``, name with ``at``."""

    def __init__(self, root: Path | str, manifest: Manifest | None = None):
        self.root = Path(root)
        self._manifest = manifest
        self._questions: pa.Table | None = None
        #: footer facts per shard, with the (size, mtime, inode) they were read at
        self._facts: dict[Path, tuple[tuple[int, int, int] | None, FooterFacts]] = {}
        self._index_cache: tuple[tuple[int, int, int], shard_index.ShardIndex | None] | None = None
        self._listing_cache: tuple[tuple[int, int, int], list[ShardFile]] | None = None

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
    def at(cls, root: Path | str) -> ResultsFolder:
        """The folder at ``root``, which may not exist yet; nothing is read."""
        return cls(root)

    @classmethod
    def create(cls, root: Path | str) -> ResultsFolder:
        """Make ``root`` a results folder (a new manifest) if it is missing or empty, and
        open it; an existing folder is opened; another non-empty directory is refused."""
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

    @classmethod
    def create_with(cls, root: Path | str, manifest: Manifest) -> ResultsFolder:
        """A new folder holding ``manifest``; an existing or non-empty one is refused."""
        writer.create_results(Path(root), manifest)
        return cls(root, manifest)

    def reopened(self) -> ResultsFolder:
        """The folder as it is on disk now (manifest and questions read again)."""
        return ResultsFolder.open(self.root)

    def exists(self) -> bool:
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

    def merged_questions(self, table: pa.Table) -> tuple[pa.Table | None, int]:
        """The questions table with ``table`` merged in (None: unchanged), and how many are new."""
        return writer.merged_questions(self.root, table)

    # -- shards -------------------------------------------------------------------------
    def new_shard_path(self) -> Path:
        return writer.new_shard_path(self.root)

    def append_samples(self, table: pa.Table) -> Path | None:
        """Append ``table`` as a new shard (with its footer summary); returns its path."""
        return writer.append_samples(self.root, table)

    def replace_shard(self, path: Path, table: pa.Table) -> None:
        """Atomically replace shard ``path`` by ``table`` (same rows, updated columns)."""
        writer.replace_shard(path, table)

    def read_shard(
        self, path: Path, columns: Sequence[str] | None = None, conform: bool = False
    ) -> pa.Table:
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
        self, path: Path, stamp: tuple[int, int, int]
    ) -> shard_index.ShardEntry | None:
        index = self.shard_index()
        if index is None or path.parent != self.root / SAMPLES_DIR:
            return None
        if index.stamp(path.name) != stamp[:2]:
            return None
        return index.entries[path.name]

    def _remember(
        self, path: Path, meta: pq.FileMetaData, stamp: tuple[int, int, int] | None = None
    ) -> FooterFacts:
        facts = shard_files.footer_facts(meta)
        self._facts[path] = (stamp if stamp is not None else _stamp(path), facts)
        return facts

    def shard_columns(self, path: Path) -> frozenset[str]:
        return self.footer_facts(path).columns

    def shard_rows(self, path: Path) -> int:
        return self.footer_facts(path).rows

    def footer_null_count(self, path: Path, column: str) -> int | None:
        """Nulls of ``column`` in a shard by its footer statistics (None: unknown)."""
        facts = self.footer_facts(path)
        if column in facts.nulls:
            return facts.nulls[column]
        return shard_files.footer_null_count(path, column)

    def column_all_null(self, column: str, path: Path | None = None) -> bool:
        """Whether the footer statistics show ``column`` all null in shard ``path`` (or in
        every shard when None): the one such check. Unknown or unreadable counts as not."""
        if path is not None:
            try:
                return self._all_null(column, path, self.footer_facts(path))
            except (LeashError, OSError):
                return False
        return not self.shards_with_values(column, stop_at_first=True)

    def shards_with_values(self, column: str, stop_at_first: bool = False) -> list[Path]:
        """The shards whose footer statistics do not show ``column`` all null (from the
        shard index for shards unchanged since it was written; unreadable ones included)."""
        index = self.shard_index()
        verdicts = index.null_verdicts(column) if index is not None else {}
        found = []
        for shard in self.shard_listing():
            empty = verdicts.get(shard.name)
            if empty is None or index.stamp(shard.name) != (shard.size, shard.mtime_ns):
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
        with self.folder_lock():
            listing = self.shard_listing()
            previous = shard_index_file.read(self.root)
            if previous is not None and shard_index.up_to_date(previous, listing):
                return
            index = shard_index.build(listing, previous)
            with contextlib.suppress(PermissionError, OSError):
                shard_index_file.write(self.root, index)
        self._index_cache = None

    def iter_key_batches(
        self, paths: Sequence[Path], columns: Sequence[str]
    ) -> Iterator[tuple[Path, pa.Table]]:
        """(shard, table) of ``columns`` of each of ``paths`` in batches, keys as strings."""
        for path in paths:
            for table in shard_files.iter_shard_batches(path, columns):
                yield path, table

    def compact(
        self,
        target_rows: int = compaction.DEFAULT_TARGET_ROWS,
        max_bytes: int = compaction.DEFAULT_MAX_BYTES,
        progress: Callable[[int, int], None] | None = None,
    ) -> compaction.CompactSummary:
        """Rewrite runs of small shards as large ones (shards.compaction), holding the
        verify lock; a verify running is a LeashError."""
        busy = (
            f"{self.root}: a 'leash verify' (or another compaction) is running on this folder;"
            " compact once it has ended"
        )
        with self.verify_lock(busy):
            self.clean_stale_files()
            summary = compaction.compact_shards(
                self.root, self.shard_paths(), self.folder_lock, target_rows, max_bytes, progress
            )
            self.refresh_index()
            return summary

    def clean_stale_files(self) -> int:
        """Remove temporaries left by killed writers (older than an hour)."""
        return writer.clean_stale_files(self.root)

    # -- statistics -----------------------------------------------------------------------
    def key_stats(
        self, use_cache: bool = True, scan: bool = True, keep: int = DEFAULT_ENTROPY_SAMPLES
    ) -> SampleStats | None:
        """Per-key statistics of every sample: the shard index (with the footers of shards
        added since it was written), else footers, else a scan, else the cache
        (folder_key_stats); None only when ``scan`` is false and a scan was needed.
        Without ``use_cache`` every sample is counted again from the rows."""
        listing = self.shard_listing()
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
        index = self.shard_index()
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
        index = self.shard_index()
        if index is None:
            return None
        listing = self.shard_listing()
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
        indexed = self._indexed_stats(self.shard_listing(), 0, only_groups=True)
        if indexed is not None:
            return counts_table(indexed)
        return counts_table(folder_stats(self.shard_paths(), ["status", "verdict_source"]))

    def sample_ranges(self) -> dict[tuple[str, str, str], SampleRange]:
        """(benchmark, question_id, model) -> (count, smallest, largest sample index), from
        the footer summaries (a scan of key columns where a shard has none, or one that
        predates ranges); a sample key held twice is a LeashError."""
        listing = self.shard_listing()
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

    def first_success(self, first: int) -> pa.Table:
        """Per key: samples, first verified success, verified prefix, verified and correct
        among the first ``first`` samples, tokens (``shards.first_success``)."""
        return first_success_table(self.shard_paths(), first)

    def shards_without_summary(self) -> int:
        """Shards whose footer holds no trustworthy summary (they are scanned); the shard
        index answers for the shards unchanged since it was written."""
        index = self.shard_index()
        missing = 0
        for shard in self.shard_listing():
            if index is not None and index.stamp(shard.name) == (shard.size, shard.mtime_ns):
                missing += not index.summarised(shard.name)
            else:
                missing += shard_summary(shard.path) is None
        return missing

    def shards_not_indexed(self) -> int | None:
        """Shards the shard index does not hold as they are now (added, rewritten; plus any
        it holds that are gone); None when the folder has no usable index."""
        index = self.shard_index()
        if index is None:
            return None
        listing = self.shard_listing()
        current = sum(index.stamp(s.name) == (s.size, s.mtime_ns) for s in listing)
        return (len(listing) - current) + (len(index.entries) - current)

    def coverage_notes(self, counts: pa.Table | None = None) -> list[str]:
        """Notes on listed questions a model has no sample of, and unlisted sampled ones."""
        counts = counts if counts is not None else self.verdict_counts()
        return coverage_notes(self.manifest, self.questions, counts)

    def agreement_samples(self) -> pa.Table | None:
        """AGREEMENT_COLUMNS of every sample as plain strings and bools, or None when the
        footer statistics show ``source_correct`` all null (nothing imported with one)."""
        if self.column_all_null("source_correct"):
            return None
        table = self.samples(columns=list(AGREEMENT_COLUMNS))
        return pa.table(
            {
                name: (
                    table.column(name).cast(pa.string())
                    if pa.types.is_dictionary(table.column(name).type)
                    else table.column(name)
                )
                for name in AGREEMENT_COLUMNS
            }
        )

    def exact_entropy_samples(self) -> pa.Table | None:
        """EXACT_ENTROPY_COLUMNS of the shards whose footer statistics show an exact token
        entropy (``leash entropy``), or None when no shard has one."""
        pieces = [
            shard_files.read_shard(path, EXACT_ENTROPY_COLUMNS)
            for path in self.shards_with_values("token_entropy_exact")
        ]
        if not pieces:
            return None
        table = pa.concat_tables([p.cast(pieces[0].schema) for p in pieces])
        return table.select(list(EXACT_ENTROPY_COLUMNS))

    # -- side tables ---------------------------------------------------------------------
    def perplexity(
        self, question: tuple[str, str] | None = None, columns: Sequence[str] | None = None
    ) -> pa.Table:
        """perplexity.parquet rows (of one (benchmark, question_id) when given)."""
        return perplexity_table.read_perplexity(self.root, question, columns)

    def merge_perplexity(self, rows: list[dict]) -> None:
        perplexity_table.merge_perplexity(self.root, rows)

    def write_token_detail(self, shard_name: str, table: pa.Table) -> Path:
        """Token detail of the samples of the shard about to be written as ``shard_name``."""
        return token_detail.write_token_detail(self.root, shard_name, table)

    def token_detail(self) -> pa.Table:
        return token_detail.read_token_detail(self.root)

    def triage_journal(self) -> TriageJournal:
        return TriageJournal(self.root)

    # -- locks ------------------------------------------------------------------------------
    def folder_lock(self) -> contextlib.AbstractContextManager[None]:
        """The metadata lock (waiting), with an interrupted commit completed first."""
        return commit_journal.folder_lock(self.root)

    def verify_lock(self, busy: str | None = None) -> contextlib.AbstractContextManager[None]:
        """Only one ``leash verify`` (or compaction) per folder at a time; a second one
        fails at once with ``busy``."""
        busy = busy or (
            f"{self.root}: another 'leash verify' is running on this folder; wait for it to end"
        )
        return locks.refuse_if_locked(self.root / VERIFY_LOCK_FILE, busy)

    def rewrite_lock(self) -> contextlib.AbstractContextManager[None]:
        """The shard rewrite lock that ``leash verify`` holds, waited for (``leash entropy``)."""
        return locks.exclusive_lock(self.root / VERIFY_LOCK_FILE)

    @contextlib.contextmanager
    def shard_lock(self, index: int, count: int, label: str) -> Iterator[None]:
        """Refuse a second ``leash sample`` on shard ``index`` of ``count`` (``label`` as the
        user wrote it), or one of another shard layout."""
        root = self.root
        mine = root / f"{SAMPLE_LOCK_PREFIX}{index}-of-{count}.lock"
        for other in root.glob(f"{SAMPLE_LOCK_PREFIX}*.lock"):
            if not other.name.endswith(f"-of-{count}.lock") and locks.is_locked(other):
                raise LeashError(
                    f"{root}: a leash sample with another --shard layout ({other.name}) is"
                    " running; shards of different layouts would overlap"
                )
        busy = f"{root}: another leash sample is already running shard {label} of this folder"
        with locks.refuse_if_locked(mine, busy):
            yield

    # -- the commit journal -----------------------------------------------------------
    def settle(self) -> None:
        """Wait for a commit in progress, or complete an interrupted one."""
        commit_journal.settle(self.root)

    def commit_moves(self, moves: Sequence[tuple[Path, Path]], work: Path) -> None:
        """Publish prepared files by journaled renames (call under ``folder_lock``)."""
        commit_journal.commit_moves(self.root, moves, work)

    def write_questions_file(self, path: Path, table: pa.Table) -> None:
        """A questions table written to ``path`` (a work directory's, committed by rename)."""
        writer.write_questions_file(path, table)

    def write_shard_file(self, path: Path, table: pa.Table) -> None:
        """Sorted samples written to ``path`` in the shard layout (a staged shard)."""
        writer.write_shard_file(path, table)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def as_folder(folder: ResultsFolder | Path | str) -> ResultsFolder:
    """``folder`` if it is a ResultsFolder, else the folder opened at that path (for entry
    points that callers still give a path)."""
    return folder if isinstance(folder, ResultsFolder) else ResultsFolder.open(folder)
