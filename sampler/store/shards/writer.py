"""Writing a results folder: create it, merge questions, append sample shards.

Samples live in ``samples/`` as immutable Parquet shards (``part-*.parquet``), each
sorted by (benchmark, question_id, model, sample) in row groups of
``SAMPLE_ROW_GROUP_ROWS`` rows. Appending writes a new shard; it never rewrites an
existing one. Verification replaces a shard by an atomic rename of a complete new
file with the same rows and filled verdict columns. All writes are atomic.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path, remove_stale_temporaries
from sampler.store.journals.commit_journal import folder_lock
from sampler.store.journals.safe_files import open_regular, within
from sampler.store.manifest import load_manifest, save_manifest
from sampler.store.schema import (
    MANIFEST_FILE,
    QUESTIONS_FILE,
    QUESTIONS_SCHEMA,
    SAMPLE_ROW_GROUP_ROWS,
    SAMPLE_SORT_KEYS,
    SAMPLES_DIR,
    SAMPLES_SCHEMA,
    Manifest,
)
from sampler.store.shards.duplicate_keys import duplicate_error
from sampler.store.shards.key_stats import DuplicateSample
from sampler.store.shards.shard_summary import stamp_summary, summary_metadata
from sampler.store.side_tables import token_detail

#: string columns stored dictionary-encoded (few distinct values per row group)
SHARD_DICTIONARY_COLUMNS = [
    "benchmark",
    "question_id",
    "model",
    "finish_reason",
    "status",
    "answer",
]


def conform_table(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """Return ``table`` with exactly ``schema``'s columns, in order: missing ones as nulls."""
    columns = []
    for fld in schema:
        if fld.name in table.column_names:
            columns.append(table.column(fld.name).cast(fld.type))
        else:
            columns.append(pa.nulls(table.num_rows, fld.type))
    return pa.Table.from_arrays(columns, schema=schema)


def create_results(root: Path, manifest: Manifest) -> None:
    """Create a new results folder with ``manifest``; refuse an existing one."""
    root = Path(root)
    if (root / MANIFEST_FILE).exists():
        raise LeashError(f"{root}: already a results folder")
    if root.exists() and any(root.iterdir()):
        raise LeashError(f"{root}: exists and is not empty; choose a new folder")
    (root / SAMPLES_DIR).mkdir(parents=True, exist_ok=True)
    save_manifest(root, manifest)


#: Largest questions table a reader opens.
MAX_TABLE_BYTES = 16 * 1024**3


def read_questions(root: Path) -> pa.Table:
    """The questions table, or an empty one when the folder has none yet."""
    path = Path(root) / QUESTIONS_FILE
    if not os.path.lexists(path):
        return QUESTIONS_SCHEMA.empty_table()
    try:
        # ParquetFile, not read_table: read_table imports pyarrow.dataset, and with it pandas;
        # opened without following a link, and only when it is a regular file
        with os.fdopen(open_regular(path, MAX_TABLE_BYTES), "rb") as handle:
            return conform_table(pq.ParquetFile(handle).read(), QUESTIONS_SCHEMA)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc


def merge_questions(root: Path, new: pa.Table) -> int:
    """Add the rows of ``new`` to the questions table; return how many were new.

    A question already present must agree on problem and gold where both are set;
    a missing problem, gold or metadata is filled from the other side. Conflicts
    raise LeashError naming the question and leave the table unchanged.
    """
    root = Path(root)
    with folder_lock(root):
        table, added = merged_questions(root, new)
        if table is not None:
            write_questions_file(root / QUESTIONS_FILE, table)
        return added


def write_questions_file(path: Path, table: pa.Table) -> None:
    """Write a questions table (QUESTIONS_SCHEMA) to ``path`` atomically (an import writes
    it into its work directory, then commits it by rename)."""
    with atomic_path(path) as tmp:
        pq.write_table(conform_table(table, QUESTIONS_SCHEMA), tmp)


def merged_questions(root: Path, new: pa.Table) -> tuple[pa.Table | None, int]:
    """The questions table of ``root`` with the rows of ``new`` merged in (None when
    nothing changes), and how many questions are new; see ``merge_questions``.

    Call holding the folder lock; nothing is written.
    """
    root = Path(root)
    new = conform_table(new, QUESTIONS_SCHEMA)
    existing = read_questions(root)
    rows: dict[tuple[str, str], dict] = {
        (r["benchmark"], r["question_id"]): r for r in existing.to_pylist()
    }
    added = 0
    changed = False
    for row in new.to_pylist():
        key = (row["benchmark"], row["question_id"])
        old = rows.get(key)
        if old is None:
            rows[key] = row
            added += 1
            continue
        for fld in ("problem", "gold", "metadata"):
            if old[fld] is None and row[fld] is not None:
                old[fld] = row[fld]
                changed = True
            elif fld != "metadata" and row[fld] is not None and row[fld] != old[fld]:
                raise LeashError(
                    f"question {key[0]}/{key[1]}: {fld} differs from the one already"
                    f" in {root / QUESTIONS_FILE} ({_clip(old[fld])!r} vs {_clip(row[fld])!r})"
                )
    if not (added or changed):
        return None, 0
    ordered = sorted(rows.values(), key=lambda r: (r["benchmark"], _id_sort_key(r)))
    return pa.Table.from_pylist(ordered, schema=QUESTIONS_SCHEMA), added


def _id_sort_key(row: dict) -> tuple[int, int, str]:
    """Integer ids in numeric order, then the others; ASCII digits only (``"²".isdigit()``
    is true but ``int("²")`` fails), compared by length first so that no id, however
    long, is turned into an int."""
    qid = row["question_id"]
    if qid.isascii() and qid.isdigit():
        digits = qid.lstrip("0") or "0"
        return (0, len(digits), digits)
    return (1, 0, qid)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def questions_table(rows: list[dict]) -> pa.Table:
    """Build a questions table from dicts with benchmark, question_id, problem, gold, metadata."""
    prepared = []
    for r in rows:
        meta = r.get("metadata")
        prepared.append(
            {
                "benchmark": r["benchmark"],
                "question_id": str(r["question_id"]),
                "problem": r.get("problem"),
                "gold": None if r.get("gold") is None else str(r["gold"]),
                "metadata": json.dumps(meta, ensure_ascii=False, sort_keys=True) if meta else None,
            }
        )
    return pa.Table.from_pylist(prepared, schema=QUESTIONS_SCHEMA)


def sort_samples(table: pa.Table) -> pa.Table:
    """Sort sample rows by the shard sort order."""
    if table.num_rows == 0:
        return table
    return table.take(
        pc.sort_indices(table, sort_keys=[(k, "ascending") for k in SAMPLE_SORT_KEYS])
    )


def new_shard_path(root: Path) -> Path:
    """A fresh, unique, time-ordered shard name under ``samples/``."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    within(Path(root), Path(root) / SAMPLES_DIR, "the samples folder")
    return Path(root) / SAMPLES_DIR / f"part-{stamp}-{os.getpid()}-{uuid.uuid4().hex[:12]}.parquet"


def write_shard_file(path: Path, table: pa.Table) -> None:
    """Write sorted samples to ``path`` atomically, in the standard row-group layout.

    The footer carries the shard's summary statistics (sampler.store.shards.shard_summary), so
    readers need not scan the rows for counts; file and summary are published by the
    same rename.
    """
    table = sort_samples(conform_table(table, SAMPLES_SCHEMA))
    row_groups = -(-table.num_rows // SAMPLE_ROW_GROUP_ROWS)
    try:
        summary = summary_metadata(table, row_groups)
    except DuplicateSample as exc:
        raise duplicate_error(exc.key, [path]) from None
    with atomic_path(path) as tmp:
        with pq.ParquetWriter(
            tmp,
            table.schema,
            compression="zstd",
            use_dictionary=SHARD_DICTIONARY_COLUMNS,
            write_statistics=True,
        ) as writer:
            ends = []  # where each row group's bytes end: the summary's stamp
            for start in range(0, table.num_rows, SAMPLE_ROW_GROUP_ROWS):
                piece = table.slice(start, SAMPLE_ROW_GROUP_ROWS)
                try:
                    writer.write_table(piece, row_group_size=SAMPLE_ROW_GROUP_ROWS)
                except pa.ArrowInvalid as exc:  # a required column missing from its rows
                    raise LeashError(f"{path}: cannot be written as a shard ({exc})") from exc
                ends.append(os.path.getsize(tmp))
            if summary:
                writer.add_key_value_metadata(stamp_summary(summary, ends))


def append_samples(
    root: Path, table: pa.Table, token_detail_table: pa.Table | None = None
) -> Path | None:
    """Append ``table`` as a new shard; existing shards are never touched. Returns its path.
    ``token_detail_table``: its samples' token detail, written first under the shard's name."""
    if table.num_rows == 0:
        return None
    root = Path(root)
    load_manifest(root)  # refuse to write into a folder we cannot read
    path = new_shard_path(root)
    if token_detail_table is not None and token_detail_table.num_rows:
        token_detail.write_token_detail(root, path.name, token_detail_table)
    write_shard_file(path, table)
    return path


def replace_shard(path: Path, table: pa.Table) -> None:
    """Atomically replace shard ``path`` by ``table`` (same rows, updated columns)."""
    write_shard_file(Path(path), table)


def clean_stale_files(root: Path) -> int:
    """Remove temporaries left by killed writers (older than an hour)."""
    root = Path(root)
    return remove_stale_temporaries(root) + remove_stale_temporaries(root / SAMPLES_DIR)
