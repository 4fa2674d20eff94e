"""All-or-nothing commits into a results folder: a journal of renames, rolled forward.

A writer that must publish several files at once (an import: sample shards, the
questions table, the manifest) prepares them all in its own hidden work directory,
then, holding the folder lock, writes a journal ``.commit-<id>.json`` listing the
renames (and, for a compaction, the shards the new ones replace, to delete after them) and
performs them. Once the journal is on disk the commit is decided: if
the writer is killed half way, whoever next takes the folder lock (``folder_lock``:
every metadata writer) or opens the folder to read it (``settle``) performs the
remaining renames and deletes the journal. Every path a journal names, renamed or
removed, must lie inside the folder (relative, no ``..``, no link on the way), checked
before the first rename; a journal that names one outside is refused. Before the journal
exists nothing is visible; after it is gone everything is. Work directories
(``.staging-*``) whose owner died are removed as stale temporaries are.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import fsync_directory, write_json_atomic
from sampler.store.journals.locks import exclusive_lock, is_locked, refuse_if_locked
from sampler.store.journals.safe_files import inside, loads_json, read_bytes
from sampler.store.schema import LOCK_FILE

JOURNAL_PREFIX = ".commit-"
STAGING_PREFIX = ".staging-"
#: a work directory holds this file locked while its writer lives
OWNER_LOCK = ".owner.lock"
#: a work directory younger than this is never removed (its owner may be taking its lock)
STALE_AFTER_S = 60.0


def journals(root: Path) -> list[Path]:
    """Pending commit journals of ``root`` (normally none)."""
    try:
        names = os.listdir(root)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise LeashError(f"{root}: cannot be listed ({exc})") from exc
    return sorted(
        Path(root) / n for n in names if n.startswith(JOURNAL_PREFIX) and n.endswith(".json")
    )


def _roll_forward(root: Path, journal: Path) -> None:
    try:
        plan = loads_json(read_bytes(journal), journal)
        moves = [(str(a), str(b)) for a, b in plan["moves"]]
        removes = [str(name) for name in plan.get("removes", [])]
        work = str(plan.get("work") or "")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LeashError(f"{journal}: unreadable commit journal ({exc})") from exc
    # every path (renamed or removed) stays inside the folder, checked before the first rename
    paths = [(inside(root, a, journal), inside(root, b, journal)) for a, b in moves]
    targets = [inside(root, name, journal) for name in removes]
    touched = set()
    for src, dst in paths:
        if os.path.lexists(src):
            os.replace(src, dst)
            touched.add(dst.parent)
        elif not dst.exists():
            raise LeashError(f"{journal}: neither {src} nor {dst} exists; the commit is lost")
    for target in targets:  # after every rename: the rows are in their new shards by now
        try:
            target.unlink()  # a link is removed itself, never what it points to
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise LeashError(f"{journal}: cannot remove {target.name!r} ({exc}); refused") from exc
        touched.add(target.parent)
    for directory in touched:
        fsync_directory(directory)
    journal.unlink()
    fsync_directory(root)
    if work and work.startswith(STAGING_PREFIX) and "/" not in work:
        shutil.rmtree(root / work, ignore_errors=True)


def finish_commits(root: Path) -> int:
    """Complete the commits whose writer died (call holding the folder lock)."""
    pending = journals(root)
    for journal in pending:
        _roll_forward(Path(root), journal)
    return len(pending)


@contextlib.contextmanager
def folder_lock(root: Path) -> Iterator[None]:
    """The folder's metadata lock (waiting), with any interrupted commit completed first."""
    root = Path(root)
    with exclusive_lock(root / LOCK_FILE):
        finish_commits(root)
        yield


def settle(root: Path) -> None:
    """Before reading ``root``: wait for a commit in progress, or complete an interrupted one.

    Costs one directory listing when no commit is pending.
    """
    root = Path(root)
    if not journals(root):
        return
    try:
        with folder_lock(root):
            pass
    except OSError as exc:
        raise LeashError(
            f"{root}: an import was interrupted during its commit and cannot be completed"
            f" without write access ({exc}); run any leash import on it with write access"
        ) from exc


def commit_moves(
    root: Path, moves: Sequence[tuple[Path, Path]], work: Path, removes: Sequence[Path] = ()
) -> None:
    """Publish ``moves`` (source, target paths inside ``root``) all or nothing, then delete
    ``removes`` (files inside ``root`` whose rows the moved files now hold).

    Call holding ``folder_lock(root)``; ``work`` (a ``.staging-*`` directory of ``root``)
    is removed afterwards.
    """
    root = Path(root)
    plan = {
        "moves": [[str(a.relative_to(root)), str(b.relative_to(root))] for a, b in moves],
        "removes": [str(Path(p).relative_to(root)) for p in removes],
        "work": str(work.relative_to(root)),
        "started": time.time(),
    }
    journal = root / f"{JOURNAL_PREFIX}{uuid.uuid4().hex[:12]}.json"
    write_json_atomic(journal, plan)
    _roll_forward(root, journal)


def new_work_dir(parent: Path, prefix: str = STAGING_PREFIX) -> Path:
    """A fresh hidden work directory under ``parent`` (unique to this writer)."""
    parent.mkdir(parents=True, exist_ok=True)
    path = parent / f"{prefix}{uuid.uuid4().hex[:12]}"
    path.mkdir()
    return path


def own(work: Path) -> contextlib.AbstractContextManager[None]:
    """Hold ``work``'s owner lock while the writer lives, so it is never taken for stale."""
    return refuse_if_locked(work / OWNER_LOCK, f"{work}: already in use")


def remove_stale_work_dirs(parent: Path, prefix: str = STAGING_PREFIX) -> int:
    """Remove work directories under ``parent`` whose writer died; return how many.

    A directory goes when nobody holds its owner lock and it is older than
    STALE_AFTER_S (a writer takes the lock right after creating it). Directories a
    pending commit journal still names are left for ``finish_commits``.
    """
    removed = 0
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return 0
    named = set()
    for journal in journals(parent):
        with contextlib.suppress(OSError, ValueError, AttributeError, LeashError):
            named.add(str(loads_json(read_bytes(journal), journal).get("work")))
    now = time.time()
    for entry in entries:
        if not entry.name.startswith(prefix) or entry.name in named:
            continue
        with contextlib.suppress(OSError):
            if not entry.is_dir(follow_symlinks=False):
                continue
            if now - entry.stat(follow_symlinks=False).st_mtime < STALE_AFTER_S:
                continue
            if is_locked(Path(entry.path) / OWNER_LOCK):
                continue
            shutil.rmtree(entry.path)
            removed += 1
    return removed
