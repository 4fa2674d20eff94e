"""Crafted folders give one line, not a traceback (issue #33 item 9): ``leash verify`` on a
shard without a ``text`` column names the shard; ``leash report --format json`` on a shard
whose ``token_entropy`` is infinite reports (a non-finite entropy is no measurement, as a
null is) instead of failing on JSON that cannot hold it.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from leash_tui.cli import cli
from tests.support.folder_builders import build_folder

SPEC = {("b", "q1"): {"base": "C C I I", "rlvr": "C C C I"}}


def _shard(root):
    return next((root / "samples").glob("part-*.parquet"))


def test_verify_on_a_shard_without_text_is_one_line_naming_it(tmp_path):
    root = build_folder(tmp_path / "run", SPEC)
    shard = _shard(root)
    pq.write_table(pq.read_table(shard).drop(["text"]), shard)
    result = CliRunner().invoke(cli, ["verify", str(root), "--no-progress", "--force"])
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and shard.name in lines[0] and "text" in lines[0], lines


def test_report_json_with_an_infinite_token_entropy_reports(tmp_path):
    root = build_folder(tmp_path / "run", SPEC)
    shard = _shard(root)
    table = pq.read_table(shard)
    values = pa.array([float("inf")] + [1.5] * (table.num_rows - 1), pa.float64())
    index = table.schema.get_field_index("token_entropy")
    pq.write_table(table.set_column(index, "token_entropy", values), shard)
    result = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "Infinity" not in result.stdout and json.loads(result.stdout)["rows"]
