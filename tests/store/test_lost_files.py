"""Issue 14 item 7: a deleted shard or questions table is reported, not silently absorbed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sampler.store.schema import QUESTIONS_FILE, SAMPLES_DIR
from tests.support.folder_builders import build_folder, counts_spec

SPEC = {
    ("toy", str(q)): {"base": counts_spec(1, 2), "rlvr": counts_spec(2, 2)} for q in range(1, 5)
}


def _leash(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leash_tui", *args], capture_output=True, text=True, timeout=120
    )


def test_a_deleted_shard_is_named_by_info_report_export_and_verify(tmp_path: Path) -> None:
    root = build_folder(tmp_path / "r", SPEC, shards=2)
    sorted((root / SAMPLES_DIR).glob("part-*.parquet"))[0].unlink()  # questions 1 and 3
    for args in (
        ["info", str(root)],
        ["report", str(root)],
        ["export", str(root), "-o", str(tmp_path / "out.jsonl")],
        ["verify", str(root), "--no-progress"],
    ):
        run = _leash(*args)
        assert run.returncode == 0, (args, run.stderr)
        said = " ".join((run.stdout + run.stderr).split())  # rich wraps long lines
        assert "2 question(s) of questions.parquet have no samples of base" in said, args
        assert "a shard deleted?" in said, args
        assert "toy/1, toy/3" in said or "toy/2, toy/4" in said, args
        assert "Traceback" not in said


def test_a_deleted_questions_table_is_noted(tmp_path: Path) -> None:
    root = build_folder(tmp_path / "r", SPEC)
    (root / QUESTIONS_FILE).unlink()
    run = _leash("report", str(root))
    assert run.returncode == 0, run.stderr
    assert "4 question(s) have samples but no row in questions.parquet" in run.stderr


def test_a_model_never_run_on_a_benchmark_is_said_so_not_a_lost_shard(tmp_path: Path) -> None:
    from sampler.store.folder import ResultsFolder
    from sampler.store.shards.coverage import coverage_notes

    spec = {("toy", str(q)): {"base": "C", "rlvr": "I"} for q in (4, 29, 100)}
    spec |= {("extra", str(q)): {"base": "C"} for q in (1, 2)}  # rlvr never run on extra
    root = build_folder(tmp_path / "r", spec)
    results = ResultsFolder.open(root)
    notes = coverage_notes(results.manifest, results.questions, results.verdict_counts())
    assert notes == ["rlvr was never run on extra (2 question(s) without its samples)"]
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    (shard,) = (root / SAMPLES_DIR).glob("part-*.parquet")  # lose rlvr's rows of toy/29
    table = pq.read_table(shard)
    keep = pc.invert(
        pc.and_(pc.equal(table["question_id"], "29"), pc.equal(table["model"], "rlvr"))
    )
    pq.write_table(table.filter(keep), shard)
    results = ResultsFolder.open(root)
    notes = coverage_notes(results.manifest, results.questions, results.verdict_counts())
    assert any("have no samples of rlvr although" in n and "toy/29" in n for n in notes)
