"""``token_detail/part-*.parquet``: the per-token entropies of some samples (``--token-detail``).

Columns benchmark, question_id, model, sample, token_entropy (list<float32>). A file
is written atomically just before the samples shard that holds the same samples and
takes that shard's name, so a sample never appears without its detail.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import atomic_path
from sampler.store.side_tables.side_file import open_side_table

TOKEN_DETAIL_DIR = "token_detail"
TOKEN_DETAIL_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("sample", pa.int32(), nullable=False),
        pa.field("token_entropy", pa.list_(pa.float32())),
    ]
)


def write_token_detail(root: Path, name: str, table: pa.Table) -> Path:
    """Write ``table`` (TOKEN_DETAIL_SCHEMA) as ``token_detail/NAME`` atomically."""
    path = Path(root) / TOKEN_DETAIL_DIR / name
    with atomic_path(path) as tmp:
        pq.write_table(table.cast(TOKEN_DETAIL_SCHEMA), tmp, compression="zstd")
    return path


def read_token_detail(root: Path) -> pa.Table:
    """Every token-detail row of the folder (an empty table when there are none)."""
    paths = sorted((Path(root) / TOKEN_DETAIL_DIR).glob("part-*.parquet"))
    tables = []
    for path in paths:
        try:
            with open_side_table(Path(root), path) as handle:
                tables.append(pq.ParquetFile(handle).read().cast(TOKEN_DETAIL_SCHEMA))
        except (pa.ArrowException, OSError) as exc:
            raise LeashError(f"{path}: not a readable token-detail table ({exc})") from exc
    return pa.concat_tables(tables) if tables else TOKEN_DETAIL_SCHEMA.empty_table()
