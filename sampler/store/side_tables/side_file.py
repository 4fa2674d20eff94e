"""Opening a side table of a results folder the way every folder file is opened.

A side table (``perplexity.parquet``, ``adaptive_stops.parquet``, ``token_detail/part-*``) may
sit in a folder someone else wrote: it is opened without following a link, only when it is a
regular file of a sane size (a FIFO would hang the reader, ``/dev/zero`` fill its memory), and
its directory must lie inside the folder (store.journals.safe_files). ``read_side_table`` and
``merge_side_table`` are the read and the locked, atomic merge that every keyed side table
(perplexity, adaptive stops) shares.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.journals.locks import exclusive_lock
from sampler.store.journals.safe_files import open_regular, within
from sampler.store.schema import LOCK_FILE

#: The largest side table a reader opens.
MAX_SIDE_TABLE_BYTES = 16 * 1024**3


@contextmanager
def open_side_table(root: Path, path: Path) -> Iterator[BinaryIO]:
    """A binary handle on side table ``path`` of the folder at ``root`` (see the module)."""
    if path.parent != Path(root):
        within(Path(root), path.parent, "a side-table directory")
    with os.fdopen(open_regular(path, MAX_SIDE_TABLE_BYTES), "rb") as handle:
        yield handle


def read_side_table(
    root: Path,
    name: str,
    schema: pa.Schema,
    what: str,
    columns: Sequence[str] | None = None,
    filters: list[tuple[str, str, str]] | None = None,
) -> pa.Table:
    """Side table ``name`` of the folder at ``root`` as ``schema`` (projected to ``columns``,
    rows by ``filters``): an empty table when it is missing, a LeashError naming the file and
    ``what`` it is when it cannot be read."""
    path = Path(root) / name
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not os.path.lexists(path):
        return schema.empty_table()
    try:
        with open_side_table(Path(root), path) as handle:
            if filters is None:
                return pq.ParquetFile(handle).read(columns=columns).cast(schema)
            return pq.read_table(handle, columns=columns, filters=filters).cast(schema)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable {what} ({exc})") from exc


def merge_side_table(
    root: Path,
    name: str,
    schema: pa.Schema,
    keys: Sequence[str],
    read: Callable[[Path], pa.Table],
    rows: list[dict],
) -> None:
    """Add ``rows`` (``schema`` dicts) to side table ``name``, replacing the rows of the same
    ``keys``, sorted by them: read (``read``), merged and rewritten atomically under the
    folder lock."""
    if not rows:
        return
    with exclusive_lock(Path(root) / LOCK_FILE):
        merged = {tuple(r[k] for k in keys): r for r in read(root).to_pylist()}
        for row in rows:
            merged[tuple(row[k] for k in keys)] = row
        table = pa.Table.from_pylist([merged[key] for key in sorted(merged)], schema=schema)
        with atomic_path(Path(root) / name) as tmp:
            pq.write_table(table, tmp, compression="zstd")
