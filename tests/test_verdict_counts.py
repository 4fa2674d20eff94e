"""Verdict counts: equal to a plain count of the samples, across shards, slices and the cache."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import leash_tui.verdict_counts as vc
from leash_tui.results_reader import Results
from sampler.results_manifest import new_manifest
from sampler.results_schema import STATUSES, ModelEntry
from sampler.results_writer import append_samples, create_results, replace_shard


def _samples(rng: np.random.Generator, questions: int, per: int, models=("b", "t")) -> pa.Table:
    rows = []
    for q in range(questions):
        for m in models:
            for s in range(per):
                status = rng.choice([*STATUSES, None])
                rows.append(
                    {
                        "benchmark": f"bench{q % 3}",
                        "question_id": str(q),
                        "model": m,
                        "sample": s,
                        "text": "x",
                        "status": status,
                    }
                )
    return pa.Table.from_pylist(rows)


def _naive(table: pa.Table) -> dict[tuple, dict]:
    out: dict[tuple, Counter] = {}
    for r in table.to_pylist():
        c = out.setdefault((r["benchmark"], r["question_id"], r["model"]), Counter())
        c["n"] += 1
        if r["status"] is not None:
            c["n_verified"] += 1
            c[f"n_{r['status']}"] += 1
    return out


def _as_dict(counts: pa.Table) -> dict[tuple, dict]:
    out = {}
    for r in counts.to_pylist():
        key = (r.pop("benchmark"), r.pop("question_id"), r.pop("model"))
        out[key] = Counter({k: v for k, v in r.items() if v})
    return out


@pytest.fixture
def folder(tmp_path: Path) -> tuple[Path, pa.Table]:
    rng = np.random.default_rng(5)
    root = tmp_path / "res"
    create_results(root, new_manifest(models=[ModelEntry("b", "base"), ModelEntry("t", "target")]))
    first = _samples(rng, 40, 70)  # > 4096 rows: runs cross row groups
    second = _samples(rng, 5, 3, models=("t",))  # same questions again in a second shard
    second = second.set_column(3, "sample", pa.array([100 + i for i in range(second.num_rows)]))
    append_samples(root, first)
    append_samples(root, second)
    return root, pa.concat_tables([first, second])


def test_counts_equal_a_plain_count(folder, monkeypatch) -> None:
    root, table = folder
    monkeypatch.setattr(vc, "ROW_GROUPS_PER_SLICE", 1)  # runs cross slices too
    counts = Results.open(root).verdict_counts()
    assert _as_dict(counts) == _naive(table)
    keys = list(zip(*(counts.column(k).to_pylist() for k in vc.KEYS), strict=True))
    assert keys == sorted(keys)


def test_cache_is_used_and_follows_replaced_shards(folder, monkeypatch) -> None:
    root, _ = folder
    results = Results.open(root)
    first = results.verdict_counts(cache=True)
    assert (root / vc.CACHE_DIR / vc.CACHE_FILE).exists()

    def refuse(path):
        raise AssertionError(f"recounted {path}")

    with monkeypatch.context() as m:
        m.setattr(vc, "shard_counts", refuse)
        assert results.verdict_counts(cache=True).equals(first)

    # verification replaces a shard: its counts must be taken again
    shard = results.shard_paths()[1]
    changed = pa.Table.from_pylist(
        [{**r, "status": "correct"} for r in pa.parquet.read_table(shard).to_pylist()]
    )
    replace_shard(shard, changed)
    os.utime(shard, ns=(1, 1))  # a new fingerprint even on a coarse-clock filesystem
    expected = _naive(
        pa.concat_tables(
            [
                pa.parquet.read_table(p).select(["benchmark", "question_id", "model", "status"])
                for p in results.shard_paths()
            ]
        )
    )
    assert _as_dict(results.verdict_counts(cache=True)) == expected


def test_damaged_cache_is_ignored(folder) -> None:
    root, table = folder
    path = root / vc.CACHE_DIR / vc.CACHE_FILE
    path.parent.mkdir()
    path.write_bytes(b"not parquet")
    assert _as_dict(Results.open(root).verdict_counts(cache=True)) == _naive(table)


def test_read_only_folder_counts_without_cache(folder) -> None:
    root, table = folder
    os.chmod(root, 0o555)
    try:
        if os.access(root, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        assert _as_dict(Results.open(root).verdict_counts(cache=True)) == _naive(table)
    finally:
        os.chmod(root, 0o755)


def test_empty_folder(tmp_path: Path) -> None:
    create_results(tmp_path / "e", new_manifest(models=[ModelEntry("b", "base")]))
    counts = Results.open(tmp_path / "e").verdict_counts(cache=True)
    assert counts.num_rows == 0 and counts.column_names[:3] == list(vc.KEYS)
