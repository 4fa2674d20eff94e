"""A shard whose verdicts were swapped behind an unchanged footer summary (issue #33 item
10): rewritten with leash's own writer settings, every row group the same size, the old
footer metadata kept and the modification time restored. The summary stamps a digest of
the verdicts, so the counts shown are the rows' own, with or without the shard index.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sampler.store.folder import ResultsFolder
from sampler.store.shards import shard_index_file
from sampler.store.shards.key_stats import counts_table
from sampler.store.shards.shard_summary import KEY_INFO, row_group_ends
from sampler.store.shards.writer import SHARD_DICTIONARY_COLUMNS
from tests.support.folder_builders import build_folder

SPEC = {("alg", str(q)): {"base": "C C C C C" if q % 2 else "I I I I I"} for q in range(4)}


def _counts(root, use_cache: bool = True) -> dict:
    stats = ResultsFolder.open(root).key_stats(use_cache=use_cache)
    return {(r["question_id"], r["model"]): r["n_correct"] for r in counts_table(stats).to_pylist()}


def _write(path, table: pa.Table, metadata: dict) -> None:
    with pq.ParquetWriter(
        path,
        table.schema,
        compression="zstd",
        use_dictionary=SHARD_DICTIONARY_COLUMNS,
        write_statistics=True,
    ) as writer:
        writer.write_table(table, row_group_size=table.num_rows)
        writer.add_key_value_metadata(metadata)


def _forge(shard) -> None:
    """Swap the verdicts of question 0's first sample (incorrect) and question 1's first
    (correct), keep the old footer metadata, match every row group's end by the first
    sample's text, write in place, restore the times."""
    info = os.stat(shard)
    meta = pq.read_metadata(shard)
    old = dict(meta.metadata)
    ends = row_group_ends(meta)
    table = pq.read_table(shard).replace_schema_metadata(None)
    status = table.column("status").to_pylist()
    ids = table.column("question_id").to_pylist()
    a, b = ids.index("0"), ids.index("1")
    status[a], status[b] = status[b], status[a]
    table = table.set_column(
        table.schema.get_field_index("status"),
        "status",
        pa.array(status, table.schema.field("status").type),
    )
    texts = table.column("text").to_pylist()
    first = texts[0]
    temporary = shard.with_name("forged.tmp")
    for change in [*range(0, -len(first), -1), *range(1, 400)]:
        texts[0] = first[:change] if change < 0 else first + "x" * change
        column = pa.array(texts, table.schema.field("text").type)
        forged = table.set_column(table.schema.get_field_index("text"), "text", column)
        _write(temporary, forged, old)
        if row_group_ends(pq.read_metadata(temporary)) == ends:
            break
    assert row_group_ends(pq.read_metadata(temporary)) == ends
    assert pq.read_metadata(temporary).metadata[KEY_INFO] == old[KEY_INFO]
    with open(temporary, "rb") as source, open(shard, "r+b") as target:
        target.write(source.read())
        target.truncate()
    temporary.unlink()
    os.utime(shard, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.parametrize("index", [True, False])
def test_swapped_verdicts_behind_an_old_summary_show_the_rows_counts(tmp_path, index):
    root = build_folder(tmp_path / "r", SPEC, shards=1)
    ResultsFolder.open(root).refresh_index()
    before = _counts(root)
    assert before[("0", "base")] == 0 and before[("1", "base")] == 5
    _forge(next((root / "samples").glob("part-*.parquet")))
    if not index:
        (root / shard_index_file.INDEX_FILE).unlink()
    rows = _counts(root, use_cache=False)
    assert rows[("0", "base")] == 1 and rows[("1", "base")] == 4  # the forgery is in the rows
    assert _counts(root) == rows  # and neither the index nor the footer hides it
    verdicts = ResultsFolder.open(root).verdict_counts().to_pylist()
    shown = {(r["question_id"], r["model"]): r["n_correct"] for r in verdicts}
    assert shown == rows
    ResultsFolder.open(root).refresh_index()  # a refresh indexes the rows' counts
    assert _counts(root) == rows
