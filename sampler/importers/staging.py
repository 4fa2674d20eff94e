"""Sample rows of an import in progress, buffered by column and written as hidden shards.

Memory stays bounded whatever the input size: the buffer becomes a sorted Parquet
shard in the staging folder whenever it holds ``STAGE_ROWS`` rows or
``STAGE_TEXT_CHARS`` characters of completion text. Nothing here is visible to
readers of the results folder until ``ImportSession.commit`` moves the shards in.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa

from sampler.store import SAMPLES_SCHEMA, write_shard_file

#: A staged shard is written when the buffer holds this many rows ...
STAGE_ROWS = 100_000
#: ... or this many characters of completion text, whichever comes first.
STAGE_TEXT_CHARS = 32 * 1024 * 1024


class StagedShards:
    """Sample rows buffered column by column, written as hidden Parquet shards."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.columns: dict[str, list[Any]] = {name: [] for name in SAMPLES_SCHEMA.names}
        self.rows = 0
        self.text_chars = 0
        self.files: list[Path] = []

    def add(self, row: dict[str, Any]) -> None:
        for name, values in self.columns.items():
            values.append(row.get(name))
        self.rows += 1
        self.text_chars += len(row["text"])
        if self.rows >= STAGE_ROWS or self.text_chars >= STAGE_TEXT_CHARS:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        arrays = [pa.array(self.columns[f.name], type=f.type) for f in SAMPLES_SCHEMA]
        for values in self.columns.values():
            values.clear()
        self.rows = self.text_chars = 0
        table = pa.Table.from_arrays(arrays, schema=SAMPLES_SCHEMA)
        del arrays
        path = self.folder / f"stage-{len(self.files):05d}.parquet"
        write_shard_file(path, table)
        self.files.append(path)

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
