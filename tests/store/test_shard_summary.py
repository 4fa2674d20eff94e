"""Shard summaries in Parquet footers: same numbers as a scan, never trusted when stale."""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leash_tui.report.data import REPORT_COLUMNS, load_report_data
from sampler.store.folder import ResultsFolder
from sampler.store.shards import key_groups, shard_summary
from sampler.store.shards.answer_summary import answer_stats_table
from sampler.store.shards.key_stats import counts_table
from sampler.store.shards.shard_summary import folder_stats
from sampler.store.shards.writer import replace_shard
from tests.support.folder_builders import build_folder, sample_rows, samples_table


def _block_row_reads(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a shard's rows were read")

    monkeypatch.setattr(key_groups, "read_chunk", refuse)


def _scan_only(monkeypatch) -> None:
    monkeypatch.setattr(shard_summary, "shard_summary", lambda path: None)


def _tables(root):
    stats = folder_stats(ResultsFolder.open(root).shard_paths(), REPORT_COLUMNS)
    return counts_table(stats).to_pylist(), answer_stats_table(stats).to_pylist()


def _same_rows(left: list[dict], right: list[dict]) -> None:
    assert len(left) == len(right)
    for a, b in zip(left, right, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            if isinstance(a[key], float) and isinstance(b[key], float):
                assert math.isclose(a[key], b[key], rel_tol=1e-12, abs_tol=1e-12), key
            else:
                assert a[key] == b[key], key


token = st.sampled_from(["C", "I7", "I8", "N", "?", "T", "T7", "E", "C42"])


@settings(max_examples=25, deadline=None)
@given(
    spec=st.dictionaries(
        st.tuples(st.sampled_from(["alg", "geo"]), st.sampled_from(["1", "2", "10", "x"])),
        st.fixed_dictionaries(
            {
                "base": st.lists(token, min_size=1, max_size=8).map(" ".join),
                "rlvr": st.lists(token, min_size=1, max_size=8).map(" ".join),
            }
        ),
        min_size=1,
        max_size=5,
    ),
    shards=st.integers(1, 3),
)
def test_summaries_give_exactly_what_a_scan_gives(tmp_path_factory, spec, shards):
    root = build_folder(tmp_path_factory.mktemp("r") / "r", spec, shards=shards)
    with pytest.MonkeyPatch.context() as mp:
        _block_row_reads(mp)
        from_footers = _tables(root)
    with pytest.MonkeyPatch.context() as mp:
        _scan_only(mp)
        scanned = _tables(root)
    _same_rows(from_footers[0], scanned[0])
    _same_rows(from_footers[1], scanned[1])


def test_opening_a_folder_reads_no_rows_when_every_shard_has_a_summary(tmp_path, monkeypatch):
    spec = {("alg", "1"): {"base": "C C I7 N", "rlvr": "C ? C T"}, ("geo", "2"): {"base": "I"}}
    root = build_folder(tmp_path / "r", spec, shards=2)
    _block_row_reads(monkeypatch)
    counts = {
        (r["question_id"], r["model"]): r
        for r in ResultsFolder.open(root).verdict_counts().to_pylist()
    }
    assert (counts["1", "base"]["n"], counts["1", "base"]["n_correct"]) == (4, 2)
    assert (counts["1", "rlvr"]["n_verified"], counts["1", "rlvr"]["n_timeout"]) == (3, 1)
    data = load_report_data(root)  # the (private, empty) report cache does not hold it
    assert data.counts.num_rows == 3
    with pytest.raises(AssertionError, match="rows were read"):
        load_report_data(root, use_cache=False)  # --no-cache: every row is counted again


def test_shards_without_a_summary_are_scanned(tmp_path):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I", "rlvr": "C C"}})
    plain = root / "samples" / "part-0-other-tool.parquet"
    table = samples_table(sample_rows("alg", "2", "base", "C C C ?"))
    pq.write_table(table, plain)  # another writer: no leash summary in the footer
    assert shard_summary.shard_summary(plain) is None
    counts = ResultsFolder.open(root).verdict_counts().to_pylist()
    by_key = {(r["question_id"], r["model"]): (r["n"], r["n_correct"]) for r in counts}
    assert by_key == {("1", "base"): (2, 1), ("1", "rlvr"): (2, 2), ("2", "base"): (4, 3)}


def test_a_stale_summary_kept_by_another_tool_is_not_trusted(tmp_path):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "? ? ? C"}})
    (shard,) = ResultsFolder.open(root).shard_paths()
    table = pq.ParquetFile(shard).read()  # this read carries the footer metadata along
    assert shard_summary.KEY_INFO in table.schema.metadata
    status = pa.array(["incorrect", "correct", "incorrect", "correct"])
    rewritten = table.set_column(table.schema.get_field_index("status"), "status", status)
    pq.write_table(rewritten, shard, row_group_size=4096)  # the old summary comes along
    assert shard_summary.KEY_INFO in pq.ParquetFile(shard).metadata.metadata
    assert shard_summary.shard_summary(shard) is None  # 3 unverified claimed, 0 in the file
    (row,) = ResultsFolder.open(root).verdict_counts().to_pylist()
    assert (row["n_verified"], row["n_correct"], row["n_incorrect"]) == (4, 2, 2)


def test_a_summary_from_another_row_group_layout_is_not_trusted(tmp_path):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I C"}})
    (shard,) = ResultsFolder.open(root).shard_paths()
    table = pq.ParquetFile(shard).read()
    pq.write_table(table, shard, row_group_size=1)
    assert shard_summary.shard_summary(shard) is None


def test_verification_rewrites_refresh_the_summary(tmp_path, monkeypatch):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "? ? ?", "rlvr": "? ?"}})
    (shard,) = ResultsFolder.open(root).shard_paths()
    table = pq.ParquetFile(shard).read()
    verdicts = ["correct", "incorrect", "no_answer", "correct", "timeout"]
    replace_shard(shard, table.set_column(table.schema.get_field_index("status"), "status",
                                          pa.array(verdicts)))  # fmt: skip
    _block_row_reads(monkeypatch)
    counts = {r["model"]: r for r in ResultsFolder.open(root).verdict_counts().to_pylist()}
    assert (counts["base"]["n_correct"], counts["base"]["n_no_answer"]) == (1, 1)
    assert (counts["rlvr"]["n_correct"], counts["rlvr"]["n_timeout"]) == (1, 1)


def test_an_oversized_summary_is_left_out_and_the_shard_scanned(tmp_path, monkeypatch):
    monkeypatch.setattr(shard_summary, "MAX_SUMMARY_BYTES", 10)
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I7 I8"}})
    (shard,) = ResultsFolder.open(root).shard_paths()
    assert shard_summary.KEY_INFO not in (pq.ParquetFile(shard).metadata.metadata or {})
    (row,) = ResultsFolder.open(root).verdict_counts().to_pylist()
    assert (row["n"], row["n_correct"], row["n_incorrect"]) == (3, 1, 2)


def test_the_explorer_opens_on_counts_and_gets_entropies_from_footers_alone(tmp_path, monkeypatch):
    from leash_tui.explorer.model.explorer_model import load_answer_stats, open_counts

    spec = {("alg", "1"): {"base": "C I7 I7 N", "rlvr": "C C I8 ?"}}
    entropy = {("alg", "1", "base"): [0.5, 1.0, 1.5, 2.0]}
    root = build_folder(tmp_path / "r", spec, token_entropy=entropy)
    with pytest.MonkeyPatch.context() as mp:
        _block_row_reads(mp)
        counts, stats = open_counts(ResultsFolder.open(root))
        assert counts.column("n").to_pylist() == [4, 4]
        assert stats is None  # answer statistics come after the first paint
        stats = load_answer_stats(ResultsFolder.open(root))
    base = next(r for r in stats.to_pylist() if r["model"] == "base")
    assert (base["token_entropy_sum"], base["token_entropy_n"]) == (5.0, 4)
    assert base["answer_classes"] == 3  # correct, "7", no answer


def test_the_explorer_defers_entropies_when_a_shard_must_be_scanned(tmp_path):
    from leash_tui.explorer.model.explorer_model import open_counts

    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I", "rlvr": "C C"}})
    pq.write_table(samples_table(sample_rows("alg", "2", "base", "C ?")),
                   root / "samples" / "part-0-plain.parquet")  # fmt: skip
    counts, stats = open_counts(ResultsFolder.open(root))
    assert stats is None  # computed after the first paint, from every answer
    assert sorted(counts.column("n").to_pylist()) == [2, 2, 2]


def test_a_summary_of_an_older_version_is_ignored_and_the_shard_scanned(tmp_path):
    """Version 1 summaries had no first-samples table for answer entropy at a fixed N."""
    import json

    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I7 I7", "rlvr": "C C I8"}})
    (shard,) = ResultsFolder.open(root).shard_paths()
    assert shard_summary.shard_summary(shard) is not None
    table = pq.ParquetFile(shard).read()
    metadata = dict(table.schema.metadata)
    info = json.loads(metadata[shard_summary.KEY_INFO])
    metadata[shard_summary.KEY_INFO] = json.dumps({**info, "version": 1}).encode()
    pq.write_table(table.replace_schema_metadata(metadata), shard, row_group_size=4096)
    assert shard_summary.shard_summary(shard) is None
    scanned = load_report_data(root).answer_stats.to_pylist()
    assert [row["answer_entropy"] for row in scanned] == [
        pytest.approx(-(1 / 3) * math.log(1 / 3) - (2 / 3) * math.log(2 / 3)),
        pytest.approx(-(1 / 3) * math.log(1 / 3) - (2 / 3) * math.log(2 / 3)),
    ]


def test_answer_classes_merge_across_parts_as_one_scan_counts_them():
    """A question whose samples sit in two shards: its classes are summed; the others kept."""
    from sampler.store.shards.key_stats import chunk_stats, merge_stats

    def rows(question, answers, first=0):
        return pa.table(
            {
                "benchmark": ["b"] * len(answers),
                "question_id": [question] * len(answers),
                "model": ["m"] * len(answers),
                "sample": list(range(first, first + len(answers))),
                "status": ["incorrect"] * len(answers),
                "answer": answers,
            }
        )

    one = pa.concat_tables([rows("1", ["7", "8", "7"]), rows("2", ["5"])])
    two = pa.concat_tables([rows("1", ["8", "9"], first=3), rows("3", ["4", "4"])])
    merged = merge_stats([chunk_stats(one), chunk_stats(two)])
    whole = chunk_stats(pa.concat_tables([one, two]).sort_by("question_id"))

    def counted(stats):
        keys = stats.keys.column("question_id").to_pylist()
        classes = stats.classes.to_pylist()
        return sorted((keys[c["group"]], c["kind"], c["answer"], c["count"]) for c in classes)

    assert counted(merged) == counted(whole)
    by_answer = {(q, a): n for q, _, a, n in counted(merged)}
    assert by_answer[("1", "8")] == 2 and by_answer[("1", "7")] == 2 and by_answer[("3", "4")] == 2
