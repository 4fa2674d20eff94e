"""A per-folder cache of the folder's key statistics, outside the folder.

Counting 3 million samples takes about a second; the result is a few thousand
groups. When some shard has no trustworthy footer summary (older folders, other
writers) the merged key statistics (key_stats.SampleStats, encoded as footer
summaries are: shard_summary.encode_stats) are kept in ``$XDG_CACHE_HOME/leash/summaries/``
(default ``~/.cache/leash/summaries/``; ``LEASH_CACHE_DIR`` overrides), one Arrow IPC
file per results folder, stamped with a fingerprint of the folder's shards (name,
size, modification time in ns, inode), the columns and the cache version. Shards are
immutable and verification replaces one by renaming a new file over it, so any change
to the samples changes the fingerprint and the statistics are recomputed. The results
folder itself is never written. A cache that cannot be read or written is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc

from sampler.store.journals.atomic_io import atomic_path
from sampler.store.shards.key_stats import SampleStats
from sampler.store.shards.shard_summary import decode_stats, encode_stats

#: 3: the key statistics themselves (SampleStats), not a report's tables; 4: a status slot
#: for ``no_gold``
CACHE_VERSION = 4
_KEY = b"leash.fingerprint"
_KEEP = b"leash.first_keep"


def cache_dir() -> Path:
    override = os.environ.get("LEASH_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "leash" / "summaries"


def cache_path(root: Path) -> Path:
    name = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:32]
    return cache_dir() / f"{name}.arrow"


def fingerprint(root: Path, shards: Sequence[Path], columns: Sequence[str]) -> str:
    """A digest that changes whenever any shard is added, removed or rewritten."""
    entries = []
    for path in shards:
        st = path.stat()
        entries.append([path.name, st.st_size, st.st_mtime_ns, st.st_ino])
    payload = {
        "version": CACHE_VERSION,
        "root": str(Path(root).resolve()),
        "columns": list(columns),
        "shards": entries,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def load(root: Path, stamp: str) -> SampleStats | None:
    """The cached statistics of ``root`` if their fingerprint is ``stamp``, else None."""
    path = cache_path(root)
    try:
        with pa.memory_map(str(path)) as source:
            table = ipc.open_file(source).read_all()
        metadata = table.schema.metadata or {}
        if metadata.get(_KEY) != stamp.encode() or table.num_rows != 1:
            return None
        entries = {name.encode(): table.column(name)[0].as_py() for name in table.column_names}
        return decode_stats(entries, int(metadata.get(_KEEP, b"0")))
    except (OSError, ValueError, KeyError, pa.ArrowException):
        return None


def store(root: Path, stamp: str, stats: SampleStats) -> None:
    """Save ``stats`` for ``root`` under ``stamp``; failures (read-only home...) are ignored."""
    path = cache_path(root)
    entries = encode_stats(stats)
    table = pa.table(
        {key.decode(): pa.array([value], pa.large_binary()) for key, value in entries.items()}
    )
    table = table.replace_schema_metadata(
        {_KEY: stamp.encode(), _KEEP: str(stats.first_keep).encode()}
    )
    with contextlib.suppress(OSError, pa.ArrowException):
        with atomic_path(path) as tmp, ipc.new_file(str(tmp), table.schema) as writer:
            writer.write_table(table)
