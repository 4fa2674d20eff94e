"""``leash compact``: many small shards become few, with the same samples and statistics;
an interrupted commit is finished by the next reader; a running verify refuses it."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.store import compact, shards_without_summary
from sampler.store.folder import ResultsFolder
from sampler.store.shards.compaction import plan_runs
from sampler.store.shards.shard_summary import shard_summary
from tests.support.folder_builders import build_folder, sample_rows, samples_table

SPEC = {
    ("alg", str(i)): {"base": "C I7 N ?", "rlvr": "C C I3 T"} for i in range(12)
}  # fmt: skip
KEYS = ["benchmark", "question_id", "model", "sample", "status", "answer", "text"]


def rows_of(folder: ResultsFolder) -> list[tuple]:
    table = folder.samples(columns=KEYS)
    return sorted(zip(*(table.column(c).cast("string").to_pylist() for c in KEYS), strict=True))


def test_compaction_keeps_every_sample_and_statistic_in_fewer_shards(tmp_path):
    folder = ResultsFolder.open(build_folder(tmp_path / "r", SPEC, shards=6))
    before_rows, before_counts = rows_of(folder), folder.verdict_counts()
    assert len(folder.shard_paths()) == 6
    summary = compact(folder)
    assert (summary.shards_before, summary.shards_after, summary.rewritten) == (6, 1, 6)
    assert summary.samples == len(before_rows)
    after = ResultsFolder.open(folder.root)
    (shard,) = after.shard_paths()
    assert shard_summary(shard) is not None  # the new shard carries its footer summary
    assert rows_of(after) == before_rows
    assert after.verdict_counts().equals(before_counts)
    assert not list(after.root.glob(".staging-*")) and not list(after.root.glob(".commit-*"))
    assert compact(folder).written == 0  # nothing left to do


def test_runs_respect_the_row_limit_and_a_lone_shard_without_summary_is_rewritten(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, shards=4)
    foreign = root / "samples" / "part-0-foreign.parquet"
    pq.write_table(samples_table(sample_rows("geo", "1", "base", "C I2")), foreign)
    folder = ResultsFolder.open(root)
    rows = sum(folder.footer_facts(p).rows for p in folder.shard_paths())
    summary = compact(folder, target_rows=rows // 2)
    assert summary.shards_before == 5 and 2 <= summary.shards_after < 5
    after = ResultsFolder.open(folder.root)
    assert shards_without_summary(after) == 0  # the foreign shard was rewritten too
    assert all(after.footer_facts(p).rows <= rows // 2 for p in after.shard_paths())
    assert int(after.verdict_counts().column("n").to_numpy().sum()) == rows


def test_plan_leaves_summarised_lone_shards_alone():
    class S:
        def __init__(self, rows, summarised=True):
            self.rows, self.bytes, self.summarised, self.path = rows, rows, summarised, None

    big, small = S(100), S(10)
    assert plan_runs([big, big], 150, 10**9) == []
    assert plan_runs([small, small, big], 100, 10**9) == [[small, small]]
    assert plan_runs([small, small, big], 10**9, 25) == [[small, small]]  # bytes bound too
    lone = S(10, summarised=False)
    assert plan_runs([big, lone, big], 50, 10**9) == [[lone]]


def test_an_interrupted_compaction_commit_is_finished_by_the_next_reader(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, shards=2)
    folder = ResultsFolder.open(root)
    old = folder.shard_paths()
    expected = rows_of(folder)
    # a compaction killed after writing its journal: the merged shard is staged, the old
    # shards are still in place
    work = root / ".staging-killed"
    work.mkdir()
    merged = work / "part-merged.parquet"
    table = pa.concat_tables([folder.read_shard(p, conform=True) for p in old])
    folder.journal.stage_shard(merged, table)
    journal = {
        "moves": [[str(merged.relative_to(root)), "samples/part-merged.parquet"]],
        "removes": [str(p.relative_to(root)) for p in old],
        "work": work.name,
    }
    (root / ".commit-killed.json").write_text(json.dumps(journal))
    reopened = ResultsFolder.open(root)  # settles the commit before reading
    assert [p.name for p in reopened.shard_paths()] == ["part-merged.parquet"]
    assert rows_of(reopened) == expected
    assert not work.exists()


def test_compact_is_refused_while_verify_runs_and_reports_from_the_command_line(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, shards=3)
    with ResultsFolder.open(root).locks.verify():
        with pytest.raises(LeashError, match="compact once it has ended"):
            compact(ResultsFolder.open(root))
    result = CliRunner().invoke(cli, ["compact", str(root)])
    assert result.exit_code == 0, result.output
    assert (
        result.output
        == f"3 shards -> 1: 3 rewritten as 1 ({len(rows_of(ResultsFolder.open(root))):,} samples)\n"
    )
    again = CliRunner().invoke(cli, ["compact", str(root)])
    assert again.output == "1 shards: nothing to compact\n"


def test_index_only_writes_the_shard_index_and_rewrites_no_shard(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, shards=3)  # the builder writes no index
    shards = ResultsFolder.open(root).shard_paths()
    stamps = [p.stat().st_mtime_ns for p in shards]
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert "3 shard(s)" in info.output and "shard index" not in info.output  # few: no note
    rows = sample_rows("alg", "90", "base", "C")
    for _ in range(70):  # many small shards, as an import of long completions writes
        rows = [dict(r, sample=r["sample"] + 1) for r in rows]
        ResultsFolder.open(root).append_samples(samples_table(rows))
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert "no shard index: opens read their footers" in info.output
    result = CliRunner().invoke(cli, ["compact", str(root), "--index-only"])
    assert result.exit_code == 0, result.output
    assert result.output == f"{root / 'shard-index.arrow'}: written (73 shard(s))\n"
    assert [p.stat().st_mtime_ns for p in shards] == stamps
    assert len(ResultsFolder.open(root).shard_paths()) == 73
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert "shard index" not in info.output
    ResultsFolder.open(root).append_samples(samples_table([dict(rows[0], sample=500)]))
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert "1 shard(s) not in the shard index" in info.output
    again = CliRunner().invoke(cli, ["compact", str(root), "--index-only"])
    assert again.output == f"{root / 'shard-index.arrow'}: written (74 shard(s))\n"
