"""The folder's shard index: an open reads one file, not a footer per shard, and is never wrong.

Whatever happened to the shards since the index was written (added, rewritten, removed,
the index damaged or replaced by a link), the statistics equal a count from the rows.
"""

from __future__ import annotations

import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sampler.errors import LeashError
from sampler.store import column_all_null
from sampler.store.folder import ResultsFolder
from sampler.store.shards import shard_files, shard_index, shard_index_file
from sampler.store.shards.answer_summary import answer_stats_table
from sampler.store.shards.key_stats import counts_table
from sampler.store.shards.reader import row_groups_touched
from sampler.store.shards.writer import append_samples, replace_shard
from tests.support.folder_builders import build_folder, counts_spec, sample_rows, samples_table


def _spec(questions: int) -> dict:
    return {
        ("alg", str(q)): {
            "base": counts_spec(q % 3, 4) + " I7",
            "rlvr": counts_spec((q + 1) % 4, 4) + " N",
        }
        for q in range(questions)
    }


def _folder(tmp_path, shards: int = 12, questions: int = 24):
    root = build_folder(tmp_path / "r", _spec(questions), shards=shards)
    folder = ResultsFolder.open(root)
    folder.refresh_index()
    return ResultsFolder.open(root)


def _rows_count(root) -> tuple[list, list]:
    """The statistics counted from the rows, ignoring index, footers and cache."""
    stats = ResultsFolder.open(root).key_stats(use_cache=False)
    return counts_table(stats).to_pylist(), answer_stats_table(stats).to_pylist()


def _indexed(root) -> tuple[list, list]:
    stats = ResultsFolder.open(root).key_stats()
    return counts_table(stats).to_pylist(), answer_stats_table(stats).to_pylist()


class FooterReads:
    """Counts Parquet footer reads (the cost that grew with the shard count)."""

    def __init__(self, monkeypatch):
        self.paths: list[str] = []
        real = pq.read_metadata

        def counted(where, *args, **kwargs):
            self.paths.append(os.path.basename(str(where)))
            return real(where, *args, **kwargs)

        monkeypatch.setattr(pq, "read_metadata", counted)


def test_an_indexed_folder_opens_without_reading_any_footer(tmp_path, monkeypatch):
    folder = _folder(tmp_path, shards=12)
    assert (folder.root / shard_index_file.INDEX_FILE).is_file()
    expected = _rows_count(folder.root)
    reads = FooterReads(monkeypatch)
    fresh = ResultsFolder.open(folder.root)
    assert _indexed(folder.root) == expected
    assert fresh.verdict_counts().to_pylist() == counts_table(fresh.key_stats()).to_pylist()
    assert column_all_null(fresh, "source_correct")
    assert not column_all_null(fresh, "status")
    assert fresh.sample_ranges()[("alg", "3", "base")] == (5, 0, 4)
    assert reads.paths == []


def test_shards_added_since_are_read_alone_and_merged_in(tmp_path, monkeypatch):
    folder = _folder(tmp_path, shards=6, questions=12)
    rows = sample_rows("alg", "99", "base", "C C I5") + sample_rows("alg", "99", "rlvr", "I5")
    added = append_samples(folder.root, samples_table(rows))  # a run still going: no refresh
    reads = FooterReads(monkeypatch)
    assert _indexed(folder.root) == _rows_count(folder.root)
    # only the new shard's footer was read for the indexed statistics (the row count
    # read its rows, not footers, apart from its own handles)
    assert set(reads.paths) <= {added.name}
    assert ("alg", "99", "base") in ResultsFolder.open(folder.root).sample_ranges()


def test_a_rewritten_or_removed_shard_is_never_taken_from_the_index(tmp_path):
    folder = _folder(tmp_path, shards=6, questions=12)
    first, second = folder.shard_paths()[:2]
    table = pq.read_table(first)
    status = ["incorrect"] * table.num_rows
    replace_shard(first, table.set_column(table.schema.get_field_index("status"), "status",
                                          pa.array(status)))  # fmt: skip
    assert _indexed(folder.root) == _rows_count(folder.root)
    second.unlink()
    assert _indexed(folder.root) == _rows_count(folder.root)
    ResultsFolder.open(folder.root).refresh_index()
    index = shard_index_file.read(folder.root)
    assert second.name not in index.entries
    assert _indexed(folder.root) == _rows_count(folder.root)


def test_a_sample_copied_into_a_second_shard_is_refused_as_without_an_index(tmp_path):
    folder = _folder(tmp_path, shards=3, questions=6)
    again = pq.read_table(folder.shard_paths()[0])
    append_samples(folder.root, again.slice(0, 1))
    with pytest.raises(LeashError, match="twice|also in"):
        ResultsFolder.open(folder.root).key_stats()
    with pytest.raises(LeashError, match="twice|also in"):
        ResultsFolder.open(folder.root).refresh_index()


@pytest.mark.parametrize(
    "damage", ["garbage", "truncated", "link", "fifo", "other version", "bad statistics"]
)
def test_a_damaged_or_foreign_index_is_ignored(tmp_path, damage):
    folder = _folder(tmp_path, shards=4, questions=8)
    path = folder.root / shard_index_file.INDEX_FILE
    expected = _rows_count(folder.root)
    if damage == "garbage":
        path.write_bytes(b"not an arrow file" * 10)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    elif damage == "link":
        target = tmp_path / "elsewhere.arrow"
        shutil.move(path, target)
        path.symlink_to(target)
    elif damage == "fifo":
        path.unlink()
        os.mkfifo(path)
    else:
        table = pa.ipc.open_file(path).read_all()
        meta = dict(table.schema.metadata)
        if damage == "other version":
            meta[b"leash.index"] = b'{"version": 999, "stats": true, "first_keep": 32}'
        else:  # every encoded stream garbage: groups, classes, first samples, answers
            for i, name in enumerate(table.column_names):
                if name.startswith("stream "):
                    cells = [b"\x00" * 64] + [None] * (table.num_rows - 1)
                    table = table.set_column(i, name, pa.array(cells, pa.large_binary()))
        table = table.replace_schema_metadata(meta)
        with pa.ipc.new_file(str(path), table.schema) as writer:
            writer.write_table(table)
    if damage != "bad statistics":
        assert shard_index_file.read(folder.root) is None
    assert _indexed(folder.root) == expected
    assert ResultsFolder.open(folder.root).verdict_counts().to_pylist() == expected[0]
    ResultsFolder.open(folder.root).refresh_index()  # a writer mends it, or leaves it be
    assert _indexed(folder.root) == expected
    if damage == "link":
        assert path.is_symlink()  # never renamed over
    elif damage == "fifo":
        assert path.is_fifo()
    else:
        assert shard_index_file.read(folder.root) is not None


def test_a_copy_with_its_times_is_right_and_indexed_again_by_its_next_writer(tmp_path, monkeypatch):
    """Index entries are stamped with change times and inodes (issue #33 item 6), which a
    copy cannot keep: its index is stale (footers are read) until a writer refreshes it."""
    folder = _folder(tmp_path, shards=5, questions=10)
    copy = tmp_path / "copy"
    shutil.copytree(folder.root, copy)  # copy2: times kept, as cp -a and rsync -a do
    assert _indexed(copy) == _rows_count(folder.root)
    ResultsFolder.open(copy).refresh_index()
    reads = FooterReads(monkeypatch)
    assert _indexed(copy) == _rows_count(folder.root)
    assert reads.paths == []


def test_one_question_is_found_through_the_index_spans(tmp_path, monkeypatch):
    folder = _folder(tmp_path, shards=8, questions=16)
    expected = ResultsFolder.open(folder.root).question_samples("alg", "7").to_pylist()
    groups = row_groups_touched(ResultsFolder.open(folder.root), "alg", "7")
    (folder.root / shard_index_file.INDEX_FILE).unlink()
    without = ResultsFolder.open(folder.root)
    assert without.question_samples("alg", "7").to_pylist() == expected
    assert row_groups_touched(without, "alg", "7") == groups
    assert len(expected) == 10


def test_refresh_reads_only_new_footers(tmp_path, monkeypatch):
    folder = _folder(tmp_path, shards=6, questions=12)
    rows = sample_rows("alg", "50", "base", "C")
    added = append_samples(folder.root, samples_table(rows))
    reads = FooterReads(monkeypatch)
    ResultsFolder.open(folder.root).refresh_index()
    assert reads.paths == [added.name]
    assert set(shard_index_file.read(folder.root).entries) == {p.name for p in folder.shard_paths()}


def test_a_shard_that_is_a_link_is_refused_by_the_listing(tmp_path):
    folder = _folder(tmp_path, shards=2, questions=4)
    outside = tmp_path / "outside.parquet"
    shutil.copy(folder.shard_paths()[0], outside)
    (folder.root / "samples" / "part-zzzz.parquet").symlink_to(outside)
    with pytest.raises(LeashError, match="symbolic link"):
        ResultsFolder.open(folder.root).key_stats()


def test_entries_read_back_as_written_one_by_one_or_all_at_once(tmp_path):
    folder = _folder(tmp_path, shards=70, questions=70)
    listing = folder._shard_listing()
    built = shard_index.build(listing)
    for walk in (listing[:3], listing):  # a few (one by one), then every shard (at once)
        index = shard_index_file.read(folder.root)
        for shard in walk:
            assert index.lookup(shard) == built.entries[shard.name]
    assert len(shard_index_file.read(folder.root).entries) == 70


def test_answer_statistics_come_from_the_index_without_decoding_answer_classes(
    tmp_path, monkeypatch
):
    from leash_tui.report.data import report_tables
    from sampler.store.shards import shard_summary

    folder = _folder(tmp_path, shards=6, questions=12)
    expected = _rows_count(folder.root)

    decode = shard_summary.decode_stats

    def refuse(entries, *args, **kwargs):
        if shard_summary.KEY_CLASSES in entries:
            raise AssertionError("answer classes were decoded")
        return decode(entries, *args, **kwargs)

    monkeypatch.setattr(shard_index, "decode_stats", refuse)
    monkeypatch.setattr(shard_summary, "decode_stats", refuse)
    counts, answers = report_tables(ResultsFolder.open(folder.root))
    assert (counts.to_pylist(), answers.to_pylist()) == expected
    fresh = ResultsFolder.open(folder.root)
    assert fresh.indexed_answer_stats(8) is None  # another N: computed by the caller
    monkeypatch.undo()
    rows = sample_rows("alg", "77", "base", "C I3") + sample_rows("alg", "77", "rlvr", "C")
    append_samples(folder.root, samples_table(rows))  # not yet in the index
    later = ResultsFolder.open(folder.root)
    assert later.indexed_answer_stats() is None
    assert [t.to_pylist() for t in report_tables(later)] == list(_rows_count(folder.root))


def test_one_open_folder_sees_shards_added_and_removed_while_it_is_open(tmp_path):
    folder = _folder(tmp_path, shards=3, questions=6)
    samples = folder.root / "samples"
    old = samples.stat().st_mtime_ns - 60 * 10**9
    os.utime(samples, ns=(old, old))  # settled a minute ago: the listing is kept
    first = folder._shard_listing()
    assert folder._shard_listing() == first
    added = folder.append_samples(samples_table(sample_rows("alg", "70", "base", "C")))
    assert {s.name for s in folder._shard_listing()} == {s.name for s in first} | {added.name}
    added.unlink()
    assert folder._shard_listing() == first
    assert _indexed(folder.root) == _rows_count(folder.root)


def test_which_shards_hold_a_column_is_answered_from_the_index_columns_whole(tmp_path, monkeypatch):
    """``shards_with_values`` (what report, info and the explorer ask of every shard) gives
    what the footers give, from the index file's columns without building an entry each."""
    folder = _folder(tmp_path, shards=8, questions=16)
    rows = sample_rows("alg", "99", "base", "C I3")
    for row in rows:
        row["source_correct"] = True
    append_samples(folder.root, samples_table(rows))
    ResultsFolder.open(folder.root).refresh_index()
    listing = folder._shard_listing()
    built = shard_index.build(listing)
    columns = (*shard_files.PROBED_COLUMNS, "problem", "no_such_column")
    for column in columns:
        from_file = shard_index_file.read(folder.root).null_verdicts(column)
        assert from_file == built.null_verdicts(column), column
    from_index = {
        column: ResultsFolder.open(folder.root).shards_with_values(column) for column in columns
    }
    (folder.root / shard_index_file.INDEX_FILE).unlink()
    footers = {
        column: ResultsFolder.open(folder.root).shards_with_values(column) for column in columns
    }
    assert from_index == footers
    assert len(footers["source_correct"]) == 1 and footers["no_such_column"] == []
    assert len(footers["status"]) == 9


def test_a_refresh_computes_answer_statistics_again_only_for_the_groups_added_to(
    tmp_path, monkeypatch
):
    """A run that adds a shard (an adaptive round, a resumed sampler) touches a few groups:
    the refresh computes their answer statistics afresh and keeps every other group's row,
    and the result is what computing all of them from the rows gives."""
    folder = _folder(tmp_path, shards=6, questions=12)
    rows = sample_rows("alg", "3", "base", "C C I2 I9 I9", first_sample=100)  # more of a group
    rows += sample_rows("alg", "77", "rlvr", "I4 C I4")  # a group of its own
    append_samples(folder.root, samples_table(rows))
    computed: list[int] = []
    real = shard_index.answer_stats_table

    def counted(stats, *args):
        computed.append(stats.groups)
        return real(stats, *args)

    monkeypatch.setattr(shard_index, "answer_stats_table", counted)
    ResultsFolder.open(folder.root).refresh_index()
    assert computed == [2]  # ("alg", "3", "base") and ("alg", "77", "rlvr")
    index = shard_index_file.read(folder.root)
    expected = answer_stats_table(ResultsFolder.open(folder.root).key_stats(use_cache=False))
    assert index.answer_stats().to_pylist() == expected.to_pylist()
    computed.clear()
    (folder.root / shard_index_file.INDEX_FILE).unlink()  # no previous index: all of them
    ResultsFolder.open(folder.root).refresh_index()
    assert computed == [expected.num_rows]
    assert shard_index_file.read(folder.root).answer_stats().to_pylist() == expected.to_pylist()
