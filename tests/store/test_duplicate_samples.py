"""Issue 14 item 1 (read side): a folder where a sample key appears twice is refused, not
counted twice, whichever way the counts are read (footer summaries, scans, old summaries)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from leash_tui.report.data import load_report_data
from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.schema import SAMPLES_DIR
from sampler.store.shards.writer import append_samples
from tests.support.folder_builders import build_folder, counts_spec

SPEC = {
    ("toy", "1"): {"base": counts_spec(2, 4), "rlvr": counts_spec(3, 4)},
    ("toy", "2"): {"base": counts_spec(1, 4), "rlvr": counts_spec(0, 4)},
}


def _folder(tmp_path: Path) -> Path:
    return build_folder(tmp_path / "r", SPEC, shards=2)


def _copy_shard(root: Path, strip: set[bytes] | None = None) -> Path:
    """Copy the first shard under a later name; ``strip`` drops those footer keys."""
    first = sorted((root / SAMPLES_DIR).glob("part-*.parquet"))[0]
    copy = root / SAMPLES_DIR / "part-99991231T000000-1-duplicate.parquet"
    if strip is None:
        shutil.copy(first, copy)
        return copy
    handle = pq.ParquetFile(first)
    table = handle.read()
    kept = {k: v for k, v in (handle.metadata.metadata or {}).items() if k not in strip}
    table = table.replace_schema_metadata(kept)
    pq.write_table(table, copy, row_group_size=4096)
    return copy


def _refused(root: Path) -> None:
    with pytest.raises(LeashError, match=r"model=base, sample=0\) is also in part-"):
        ResultsFolder.open(root).verdict_counts()
    with pytest.raises(LeashError, match="would count it twice"):
        load_report_data(root)


def test_a_copied_shard_is_refused_from_footer_summaries(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    assert int(pa.compute.sum(ResultsFolder.open(root).verdict_counts().column("n")).as_py()) == 16
    _copy_shard(root)
    _refused(root)


def test_a_copied_shard_without_summary_is_refused_by_the_scan(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    _copy_shard(root, strip={b"leash.summary", b"leash.summary.groups"})
    _refused(root)


def test_a_copied_shard_with_a_summary_older_than_sample_ranges_is_refused(
    tmp_path: Path,
) -> None:
    from sampler.store.shards import shard_summary

    root = _folder(tmp_path)
    copy = _copy_shard(root)
    # rewrite the copy's summary as a leash without sample ranges wrote it
    handle = pq.ParquetFile(copy)
    meta = dict(handle.metadata.metadata)
    groups = shard_summary.ipc_table(meta[shard_summary.KEY_GROUPS])
    meta[shard_summary.KEY_GROUPS] = shard_summary.ipc_bytes(
        groups.drop_columns(["sample_min", "sample_max"])
    )
    table = handle.read().replace_schema_metadata(meta)
    pq.write_table(table, copy, row_group_size=4096)
    # stamped for its new layout, as leash would have (the same write lays it out the same)
    ends = shard_summary.row_group_ends(pq.ParquetFile(copy).metadata)
    table = table.replace_schema_metadata(shard_summary.stamp_summary(meta, ends))
    pq.write_table(table, copy, row_group_size=4096)
    assert shard_summary.shard_summary(copy) is not None
    _refused(root)


def test_interleaved_samples_of_one_question_in_two_shards_are_not_duplicates(
    tmp_path: Path,
) -> None:
    root = _folder(tmp_path)
    rows = [
        {"benchmark": "toy", "question_id": "1", "model": "base", "sample": s, "text": "x"}
        for s in (10, 12, 14)
    ]
    append_samples(root, pa.Table.from_pylist(rows))
    rows = [{**r, "sample": r["sample"] + 1} for r in rows]
    append_samples(root, pa.Table.from_pylist(rows))
    counts = ResultsFolder.open(root).verdict_counts().to_pylist()
    base_1 = next(r for r in counts if r["question_id"] == "1" and r["model"] == "base")
    assert base_1["n"] == 10
    load_report_data(root)


def test_a_shard_repeating_a_key_inside_itself_is_never_written(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    row = {"benchmark": "toy", "question_id": "1", "model": "base", "sample": 40, "text": "x"}
    with pytest.raises(LeashError, match="sample=40\\) is twice in this shard"):
        append_samples(root, pa.Table.from_pylist([row, row]))
