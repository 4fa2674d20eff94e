"""A ``shard-index.arrow`` that decodes to far more than it weighs (issue #33 item 7): the
lengths its streams claim are checked against their schema, their rows and the indexed
shards' bytes before anything is decompressed, and an index that claims more is taken
as damaged: the report's numbers come from the footers, the bomb is never decoded.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder
from sampler.store.shards import shard_index, shard_index_file, shard_summary
from sampler.store.shards.key_stats import counts_table
from sampler.store.shards.shard_summary import KEY_CLASSES, KEY_GROUPS, ipc_bytes
from tests.support.folder_builders import build_folder

SPEC = {("alg", str(q)): {"base": "C C I I I", "rlvr": "C C C C I"} for q in range(6)}
ROWS = 1_000_000  # of the rows bomb: 124 MB decoded
BOMB_BYTES = 64 << 20  # over DECODE_FLOOR + DECODE_RATIO x a few KB of shards


def _report(root) -> dict:
    result = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _rewrite_index(root, replace) -> None:
    """The folder's index with its table passed through ``replace`` (table -> table)."""
    path = root / shard_index_file.INDEX_FILE
    table = ipc.open_file(pa.py_buffer(path.read_bytes())).read_all()  # not mapped: rewritten
    table, options = replace(table)
    with ipc.new_file(str(path), table.schema, options=options) as writer:
        writer.write_table(table)


def _with_stream(key: bytes, data: bytes):
    def replace(table: pa.Table):
        name = "stream " + key.decode()
        cells = [data, *([None] * (table.num_rows - 1))]
        column = pa.array(cells, pa.large_binary())
        table = table.set_column(table.schema.get_field_index(name), name, column)
        return table, None

    return replace


def _string_bomb() -> bytes:
    """An answer-classes stream of one row whose answer is 64 MB of one letter."""
    answer = pa.array(["x" * BOMB_BYTES], pa.large_string()).cast(pa.string())
    table = pa.table(
        {
            "group": pa.array([0], pa.int64()),
            "kind": pa.array([0], pa.int8()),
            "answer": answer,
            "count": pa.array([1], pa.int64()),
        }
    )
    return ipc_bytes(table, "lz4")


def _rows_bomb(groups: pa.Table) -> bytes:
    """A groups stream of a million rows of zeros and empty keys (124 MB decoded), of the
    schema of the true one."""
    rows = ROWS
    columns = [
        pa.array([""] * rows, field.type)
        if pa.types.is_string(field.type)
        else pa.array(np.zeros(rows), pa.float64()).cast(field.type)
        for field in groups.schema
    ]
    return ipc_bytes(pa.Table.from_arrays(columns, schema=groups.schema), "lz4")


def _decodes(monkeypatch) -> list[int]:
    """Bytes of every stream the index decodes, recorded."""
    sizes: list[int] = []
    real = shard_summary.ipc_table

    def recorded(data):
        table = real(data)
        sizes.append(table.nbytes)
        return table

    monkeypatch.setattr(shard_summary, "ipc_table", recorded)
    monkeypatch.setattr(shard_index, "ipc_table", recorded)
    return sizes


@pytest.fixture
def folder(tmp_path):
    root = build_folder(tmp_path / "run", SPEC, shards=3)
    ResultsFolder.open(root).refresh_index()
    assert shard_index_file.read(root) is not None
    return root


def _groups(root) -> pa.Table:
    index = shard_index_file.read(root)
    return shard_summary.ipc_table(index._blobs[KEY_GROUPS])


@pytest.mark.parametrize("bomb", ["string", "rows", "file"])
def test_a_bomb_in_the_index_is_refused_unread(folder, monkeypatch, bomb):
    expected = _report(folder)
    counts = counts_table(ResultsFolder.open(folder).key_stats(use_cache=False)).to_pylist()
    if bomb == "string":
        _rewrite_index(folder, _with_stream(KEY_CLASSES, _string_bomb()))
    elif bomb == "rows":
        _rewrite_index(folder, _with_stream(KEY_GROUPS, _rows_bomb(_groups(folder))))
    else:  # the file's own batch lz4-compressed, its names padded to 64 MB of one letter

        def replace(table: pa.Table):
            names = table.column("name").to_pylist()
            names[0] = names[0] + "x" * BOMB_BYTES
            column = pa.array(names, pa.string())
            table = table.set_column(table.schema.get_field_index("name"), "name", column)
            return table, ipc.IpcWriteOptions(compression="lz4")

        _rewrite_index(folder, replace)
    assert (folder / shard_index_file.INDEX_FILE).stat().st_size < 2_000_000
    decoded = _decodes(monkeypatch)
    assert shard_index_file.read(folder) is None  # damaged: the footers decide
    assert _report(folder) == expected
    stats = ResultsFolder.open(folder).key_stats()
    assert counts_table(stats).to_pylist() == counts
    assert max(decoded, default=0) < 1 << 20  # no stream decoded past a megabyte


def test_a_true_index_passes_the_checks(folder, monkeypatch):
    decoded = _decodes(monkeypatch)
    index = shard_index_file.read(folder)
    assert index is not None and index.stats is not None
    assert decoded  # its streams are decoded: the check refused nothing leash wrote
    rows = counts_table(ResultsFolder.open(folder).key_stats(use_cache=False)).to_pylist()
    assert counts_table(index.stats).to_pylist() == rows
