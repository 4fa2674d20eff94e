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
import pyarrow.compute as pc
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


#: Most rows, and most bytes the decoded string columns, a side table's reader accepts (a
#: footer may lie: a dictionary of one long text repeated decodes to far more than the file).
MAX_SIDE_TABLE_ROWS = 50_000_000
MAX_DECODED_BYTES = 2 * 1024**3


def _decoded_bytes(table: pa.Table) -> int:
    """Bytes the string columns of ``table`` (read as dictionaries) hold once decoded."""
    total = 0
    for column in table.columns:
        for chunk in column.chunks:
            if pa.types.is_dictionary(chunk.type):
                lengths = pc.binary_length(chunk.dictionary).fill_null(0)
                total += int(pc.sum(pc.take(lengths, chunk.indices)).as_py() or 0)
            elif pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type):
                total += int(pc.sum(pc.binary_length(chunk)).as_py() or 0)
    return total


def read_side_table(
    root: Path,
    name: str,
    schema: pa.Schema,
    what: str,
    columns: Sequence[str] | None = None,
    filters: list[tuple[str, str, str]] | None = None,
    absent_nullable: bool = False,
) -> pa.Table:
    """Side table ``name`` of the folder at ``root`` as ``schema`` (projected to ``columns``,
    rows by ``filters``): an empty table when it is missing, a LeashError naming the file and
    ``what`` it is when it cannot be read. String columns are read as dictionaries first:
    a footer claiming more than MAX_SIDE_TABLE_ROWS rows, or strings that would decode to
    more than MAX_DECODED_BYTES, is refused before anything is expanded. With
    ``absent_nullable``, a nullable column the file lacks (it was written before the column
    existed) is read as nulls."""
    path = Path(root) / name
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not os.path.lexists(path):
        return schema.empty_table()
    strings = [
        f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    try:
        with open_side_table(Path(root), path) as handle:
            rows = pq.ParquetFile(handle).metadata.num_rows
            if rows > MAX_SIDE_TABLE_ROWS:
                raise LeashError(
                    f"{path}: its footer claims {rows:,} rows, more than"
                    f" {MAX_SIDE_TABLE_ROWS:,}; refused"
                )
            handle.seek(0)
            table = pq.read_table(
                handle,
                columns=None if columns is None else list(columns),
                filters=filters,
                read_dictionary=strings,
            )
        if _decoded_bytes(table) > MAX_DECODED_BYTES:
            raise LeashError(
                f"{path}: its strings would decode to more than {MAX_DECODED_BYTES:,} bytes;"
                " refused"
            )
        if absent_nullable:
            for f in schema:
                if f.nullable and f.name not in table.column_names:
                    table = table.append_column(f.name, pa.nulls(table.num_rows, f.type))
            table = table.select(schema.names)
        return table.cast(schema)
    except (pa.ArrowException, OSError, TypeError, ValueError) as exc:
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
