"""Parquet input files of the formats that write Parquet (lighteval, verl, TRL), read only.

The one place outside the store that opens Parquet for the importers: ``open_parquet``
turns a file that is not Parquet into a LeashError naming it, and ``parquet_rows`` yields a
file's rows a few at a time, with only the columns asked for, numbered from 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError


def parquet_rows(
    handle: pq.ParquetFile, columns: list[str], path: Path, batch_rows: int
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row number, row) of the ``columns`` of a Parquet file, ``batch_rows`` at a time."""
    number = 0
    try:
        for batch in handle.iter_batches(batch_size=batch_rows, columns=columns):
            for record in batch.to_pylist():
                number += 1
                yield number, record
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: cannot read row {number + 1} ({exc})") from exc


def open_parquet(path: Path) -> pq.ParquetFile:
    """A Parquet file opened for reading; a file that is not one is a LeashError."""
    try:
        return pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
