"""The shard index cannot be fooled by a shard rewritten to the same size with its time
restored (issue #33 item 6): entries are stamped with the change time and inode too,
which ``utime`` cannot set, so the counts are the rows' own.
"""

from __future__ import annotations

import os
import random
import string

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.store.folder import ResultsFolder
from sampler.store.shards.key_stats import counts_table
from sampler.store.shards.writer import write_shard_file
from tests.support.folder_builders import build_folder

SPEC = {("alg", str(q)): {"base": "C C C C C" if q % 2 else "I I I I I"} for q in range(4)}


def _counts(root, use_cache: bool = True) -> dict:
    stats = ResultsFolder.open(root).key_stats(use_cache=use_cache)
    rows = counts_table(stats).to_pylist()
    return {"correct": sum(r["n_correct"] for r in rows), "samples": sum(r["n"] for r in rows)}


def _with_texts(table: pa.Table, texts: list[str]) -> pa.Table:
    column = pa.array(texts, table.schema.field("text").type)
    return table.set_column(table.schema.get_field_index("text"), "text", column)


def _same_size_forgery(path, table: pa.Table) -> None:
    """Rewrite ``path`` with ``table`` by leash's own writer to exactly its size (the first
    sample's text cut or grown until it fits), in place (same inode), then restore its
    access and modification times, as the issue's forger did."""
    info = os.stat(path)
    temporary = path.with_name("forged.tmp")
    texts = table.column("text").to_pylist()
    first = texts[0]
    filler = "".join(random.Random(1).choices(string.ascii_letters, k=200))
    for change in [*range(0, -150, -1), *range(1, 200)]:
        texts[0] = first[:change] if change < 0 else first + filler[:change]
        write_shard_file(temporary, _with_texts(table, texts))
        if temporary.stat().st_size == info.st_size:
            break
    assert temporary.stat().st_size == info.st_size
    with open(temporary, "rb") as source, open(path, "r+b") as target:
        target.write(source.read())
    temporary.unlink()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert (os.stat(path).st_size, os.stat(path).st_mtime_ns) == (info.st_size, info.st_mtime_ns)


def test_a_same_size_rewrite_with_its_time_restored_is_seen(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, shards=1)
    shard = sorted((root / "samples").glob("part-*.parquet"))[0]
    table = pq.read_table(shard)
    noise = random.Random(0)
    texts = ["".join(noise.choices(string.ascii_letters, k=300)) for _ in range(table.num_rows)]
    table = _with_texts(table, texts)  # texts with room to cut, written by leash's writer
    write_shard_file(shard, table)
    ResultsFolder.open(root).refresh_index()
    before = _counts(root)
    # the forger swaps questions 0 and 1 (their rows, verdicts and all): the same bytes moved
    ids = [
        "1" if q == "0" else "0" if q == "1" else q for q in table.column("question_id").to_pylist()
    ]
    column = pa.array(ids, table.schema.field("question_id").type)
    forged = table.set_column(table.schema.get_field_index("question_id"), "question_id", column)
    _same_size_forgery(shard, forged)
    rows = _per_question(root, use_cache=False)
    assert rows["0"] == 5 and rows["1"] == 0  # the forgery is in the rows
    assert _per_question(root) == rows  # and the index does not hide it
    assert _counts(root) == before  # (the totals alone could not tell)


def _per_question(root, use_cache: bool = True) -> dict:
    stats = ResultsFolder.open(root).key_stats(use_cache=use_cache)
    return {r["question_id"]: r["n_correct"] for r in counts_table(stats).to_pylist()}
