"""Two parts of the door that few stages use: a folder's locks and its commit journal.

``ResultsFolder.locks`` (FolderLocks) holds the folder's locks by their purpose: the
metadata lock every metadata writer takes, the verify lock (one ``leash verify`` or
compaction at a time), the rewrite lock ``leash entropy`` waits for, and the lock of
one ``leash sample --shard``. ``ResultsFolder.journal`` (CommitJournal) is what a writer
that publishes several files at once (an import) needs: the manifest as it is on disk
now, files written into its work directory in the folder's format, and the journaled
renames that publish them (store.journals.commit_journal).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyarrow as pa

from sampler.errors import LeashError
from sampler.store.journals import commit_journal, locks
from sampler.store.manifest import load_manifest, save_manifest
from sampler.store.schema import MANIFEST_FILE, SAMPLE_LOCK_PREFIX, VERIFY_LOCK_FILE, Manifest
from sampler.store.shards import writer


class FolderLocks:
    """The locks of the folder at ``root``."""

    def __init__(self, root: Path):
        self.root = root

    def metadata(self) -> contextlib.AbstractContextManager[None]:
        """The metadata lock (waiting), with an interrupted commit completed first."""
        return commit_journal.folder_lock(self.root)

    def verify(self, busy: str | None = None) -> contextlib.AbstractContextManager[None]:
        """Only one ``leash verify`` (or compaction) per folder at a time; a second one
        fails at once with ``busy``."""
        default = (
            f"{self.root}: another 'leash verify' is running on this folder; wait for it to end"
        )

        def named(holder: str) -> str:  # what holds it (locks.holder), when not another verify
            command = holder.split(" (pid")[0].split()[1:2]
            if busy is None and command and command != ["verify"]:
                return f"{self.root}: {holder} holds this folder's verify lock; wait for it to end"
            return busy or default

        return locks.refuse_if_locked(self.root / VERIFY_LOCK_FILE, named)

    def verify_held(self) -> bool:
        """Whether some process holds the verify lock now."""
        return locks.is_locked(self.root / VERIFY_LOCK_FILE)

    def rewrite(self) -> contextlib.AbstractContextManager[None]:
        """The shard rewrite lock that ``leash verify`` holds, waited for (``leash entropy``)."""
        return locks.exclusive_lock(self.root / VERIFY_LOCK_FILE)

    @contextlib.contextmanager
    def sample_shard(self, index: int, count: int, label: str) -> Iterator[None]:
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


class CommitJournal:
    """Staged writes of the folder at ``root`` and their all-or-nothing publication."""

    def __init__(self, root: Path):
        self.root = root

    def settle(self) -> None:
        """Wait for a commit in progress, or complete an interrupted one."""
        commit_journal.settle(self.root)

    def manifest_now(self) -> Manifest:
        """The manifest as it is on disk now (read it under ``locks.metadata``)."""
        return load_manifest(self.root)

    def stage_manifest(self, work: Path, manifest: Manifest) -> Path:
        """``manifest`` written atomically into the work directory ``work``; its path."""
        save_manifest(work, manifest)
        return work / MANIFEST_FILE

    def stage_questions(self, path: Path, table: pa.Table) -> None:
        """A questions table written to ``path`` (a work directory's, committed by rename)."""
        writer.write_questions_file(path, table)

    def stage_shard(self, path: Path, table: pa.Table) -> None:
        """Sorted samples written to ``path`` in the shard layout (a staged shard)."""
        writer.write_shard_file(path, table)

    def merged_questions(self, table: pa.Table) -> tuple[pa.Table | None, int]:
        """The questions table with ``table`` merged in (None: unchanged), and how many are new."""
        return writer.merged_questions(self.root, table)

    def new_shard_path(self) -> Path:
        """A fresh shard name in ``samples/`` (nothing is written)."""
        return writer.new_shard_path(self.root)

    def commit_moves(self, moves: Sequence[tuple[Path, Path]], work: Path) -> None:
        """Publish prepared files by journaled renames (call under ``locks.metadata``)."""
        commit_journal.commit_moves(self.root, moves, work)

    def clean_stale_files(self) -> int:
        """Remove temporaries left by killed writers (older than an hour)."""
        return writer.clean_stale_files(self.root)
