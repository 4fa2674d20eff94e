"""ResultsFolder: opening and creating, sample ranges and key statistics from footers,
the statistics cache, footer probes and the verify lock."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from leash_tui.report.folder_reads import agreement_samples, exact_entropy_samples
from sampler.errors import LeashError
from sampler.store import column_all_null, footer_null_count
from sampler.store.folder import ResultsFolder
from sampler.store.shards import shard_summary, stats_cache
from tests.support.folder_builders import build_folder, sample_rows, samples_table

SPEC = {("alg", "1"): {"base": "C I7 N", "rlvr": "C C ?"}, ("alg", "2"): {"base": "I3 I3"}}


def no_scan(monkeypatch):
    """Make any scan of shard rows fail: what follows must come from footers or the cache."""

    def refuse(*args, **kwargs):
        raise AssertionError("a shard was scanned")

    monkeypatch.setattr(shard_summary, "map_chunks", refuse)


def foreign_shard(root, rows, name="part-foreign.parquet"):
    """A shard written by another tool: the same columns, no leash footer summary."""
    path = root / "samples" / name
    pq.write_table(samples_table(rows), path)
    return path


def test_create_makes_a_folder_and_opens_an_existing_one(tmp_path):
    folder = ResultsFolder.create(tmp_path / "new")
    assert folder.exists() and folder.manifest.models == [] and folder.shard_paths() == []
    assert ResultsFolder.create(tmp_path / "new").root == folder.root  # opened, not refused
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(LeashError, match="not a results folder"):
        ResultsFolder.create(tmp_path / "other")
    with pytest.raises(LeashError):
        ResultsFolder.open(tmp_path / "missing")


def test_sample_ranges_come_from_the_footers(tmp_path, monkeypatch):
    folder = ResultsFolder.open(build_folder(tmp_path / "r", SPEC, shards=2))
    no_scan(monkeypatch)
    assert folder.sample_ranges() == {
        ("alg", "1", "base"): (3, 0, 2),
        ("alg", "1", "rlvr"): (3, 0, 2),
        ("alg", "2", "base"): (2, 0, 1),
    }


def test_sample_ranges_scan_a_shard_without_summary_and_refuse_a_repeated_sample(tmp_path):
    root = build_folder(tmp_path / "r", SPEC)
    foreign_shard(root, sample_rows("alg", "2", "base", "C C", first_sample=2))
    assert ResultsFolder.open(root).sample_ranges()[("alg", "2", "base")] == (4, 0, 3)
    foreign_shard(
        root, sample_rows("alg", "2", "base", "C", first_sample=1), "part-foreign-2.parquet"
    )
    with pytest.raises(LeashError, match="sample=1\\) is also in"):
        ResultsFolder.open(root).sample_ranges()


def test_key_stats_of_a_scanned_folder_are_cached_until_a_shard_changes(tmp_path, monkeypatch):
    root = build_folder(tmp_path / "r", SPEC)
    foreign_shard(root, sample_rows("alg", "3", "base", "C I1"))
    folder = ResultsFolder.open(root)
    first = folder.key_stats()
    assert first is not None and stats_cache.cache_path(root).is_file()
    with monkeypatch.context() as patch:
        no_scan(patch)
        again = folder.key_stats()
        assert again is not None
        assert again.keys.to_pylist() == first.keys.to_pylist()
        assert again.status.tolist() == first.status.tolist()
        assert again.classes.to_pylist() == first.classes.to_pylist()
        assert folder.key_stats(scan=False) is not None
    folder.append_samples(samples_table(sample_rows("alg", "4", "base", "C")))
    with monkeypatch.context() as patch:
        no_scan(patch)
        assert folder.key_stats(scan=False) is None  # the cache is stale: a scan is needed
    grown = folder.key_stats()
    assert grown is not None and grown.groups == first.groups + 1


def test_merged_footer_summaries_of_many_shards_are_cached(tmp_path, monkeypatch):
    """A folder of many small shards (an import of long completions) decodes each footer
    summary once; the next read takes the merged statistics from one cache file."""
    from sampler.store.shards.folder_key_stats import CACHE_FROM_SHARDS

    spec = {("alg", str(q)): {"base": "C I", "rlvr": "I C"} for q in range(CACHE_FROM_SHARDS)}
    root = build_folder(tmp_path / "many", spec, shards=CACHE_FROM_SHARDS)
    folder = ResultsFolder.open(root)
    assert len(folder.shard_paths()) >= CACHE_FROM_SHARDS
    first = folder.key_stats()
    assert first is not None and stats_cache.cache_path(root).is_file()
    with monkeypatch.context() as patch:
        patch.setattr(shard_summary, "decode_stats", lambda *a, **k: pytest.fail("decoded"))
        again = ResultsFolder.open(root).key_stats()
    assert again is not None and again.status.tolist() == first.status.tolist()
    few = build_folder(tmp_path / "few", SPEC)  # a few shards: their footers, no cache file
    assert ResultsFolder.open(few).key_stats() is not None
    assert not stats_cache.cache_path(few).exists()


def test_footer_probes(tmp_path):
    root = build_folder(tmp_path / "r", SPEC)
    folder = ResultsFolder.open(root)
    (shard,) = folder.shard_paths()
    assert column_all_null(folder, "source_correct") and agreement_samples(folder) is None
    assert not column_all_null(folder, "status", shard)
    assert footer_null_count(folder, shard, "status") == 1  # the one unverified sample
    assert exact_entropy_samples(folder) is None
    imported = build_folder(
        tmp_path / "i", SPEC, source_correct={("alg", "1", "rlvr"): [True, False, None]}
    )
    agreement = agreement_samples(ResultsFolder.open(imported))
    assert agreement is not None and agreement.num_rows == 8
    assert pa.types.is_string(agreement.schema.field("model").type)


def test_a_second_verify_lock_is_refused_and_the_rewrite_lock_waits_for_none(tmp_path):
    folder = ResultsFolder.open(build_folder(tmp_path / "r", SPEC))
    with folder.locks.verify():
        with pytest.raises(LeashError, match="another 'leash verify' is running"):
            with ResultsFolder.open(folder.root).locks.verify():
                pass
    with folder.locks.rewrite(), folder.locks.metadata():  # neither is held: no wait
        pass
