"""Writing finished questions as shards and reading back what a folder already holds.

These run without any engine: the shards are written by the same ``ShardBuffer`` the
worker processes use, and bad input must be refused before an engine would start.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from sampler.errors import LeashError
from sampler.sample.engines.base import SampleRecord, WorkItem
from sampler.sample.run_folder import existing_samples
from sampler.sample.shard_buffer import TOKEN_DETAIL_DIR, ShardBuffer
from sampler.sample.token_entropy import SampleEntropy
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import write_folder
from tests.support.paths import REPO_ROOT

ROOT = REPO_ROOT


def item(qid: str, first: int = 0, n: int = 3) -> WorkItem:
    return WorkItem("toy", qid, (1, 2, 3), first, n, seed=0, max_tokens=8)


def records(first: int, n: int, detail_below: int = 0) -> list[SampleRecord]:
    return [
        SampleRecord(
            sample=s,
            text=f"\\boxed{{{s}}}",
            n_tokens=2,
            finish_reason="stop",
            cumulative_logprob=-1.5,
            entropy=SampleEntropy(0.5, 0.5, 0.75),
            token_entropies=np.array([0.25, 0.75], np.float32) if s < detail_below else None,
        )
        for s in range(first, first + n)
    ]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_folder(tmp_path / "results")


def test_buffer_writes_whole_questions_and_what_was_written_is_found(folder):
    buffer = ShardBuffer(ResultsFolder.open(folder), "base", flush_rows=4, flush_seconds=3600)
    buffer.add(item("q0"), records(0, 3))
    assert buffer.shards_written == 0  # 3 rows < 4: still buffered
    buffer.add(item("q1"), records(0, 3))
    assert buffer.shards_written == 1 and buffer.buffered == 0  # both questions, one shard
    buffer.add(item("q2", first=3), records(3, 2))
    buffer.flush()
    shards = sorted((folder / "samples").glob("part-*.parquet"))
    assert len(shards) == 2
    table = pq.read_table(shards).to_pylist()
    assert {(r["question_id"], r["sample"]) for r in table} == {
        ("q0", 0),
        ("q0", 1),
        ("q0", 2),
        ("q1", 0),
        ("q1", 1),
        ("q1", 2),
        ("q2", 3),
        ("q2", 4),
    }
    row = next(r for r in table if r["question_id"] == "q0" and r["sample"] == 1)
    assert row["token_entropy"] == 0.5 and row["token_entropy_upper"] == 0.75
    assert row["status"] is None and row["answer"] is None  # verification fills these
    found = existing_samples(folder)
    assert found[("toy", "q0", "base")] == (3, 0, 2)
    assert found[("toy", "q2", "base")] == (2, 3, 4)


def test_time_based_flush_writes_each_question_when_asked(folder):
    buffer = ShardBuffer(ResultsFolder.open(folder), "base", flush_rows=10_000, flush_seconds=0)
    buffer.add(item("q0"), records(0, 3))
    buffer.add(item("q1"), records(0, 3))
    assert buffer.shards_written == 2


def test_token_detail_is_written_beside_the_samples(folder):
    buffer = ShardBuffer(ResultsFolder.open(folder), "base", flush_rows=10_000, flush_seconds=3600)
    buffer.add(item("q0"), records(0, 3, detail_below=2))
    buffer.flush()
    detail = pq.read_table(sorted((folder / TOKEN_DETAIL_DIR).glob("part-*.parquet")))
    rows = detail.to_pylist()
    assert [(r["sample"], r["token_entropy"]) for r in rows] == [
        (0, [0.25, 0.75]),
        (1, [0.25, 0.75]),
    ]


def test_duplicate_sample_indices_are_reported(folder):
    for _ in range(2):
        buffer = ShardBuffer(ResultsFolder.open(folder), "base", flush_rows=1, flush_seconds=3600)
        buffer.add(item("q0"), records(0, 2))
    with pytest.raises(LeashError, match=r"question_id=q0, model=base, sample=0\) is also in"):
        existing_samples(folder)


def run_sample(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leash_tui", "sample", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bad_benchmark_file_is_named_before_anything_starts(tmp_path):
    bench = tmp_path / "bench.jsonl"
    bench.write_text(json.dumps({"problem": "1+1?", "answer": "2"}) + "\n{not json\n")
    out = tmp_path / "out"
    result = run_sample("--model", f"m={tmp_path}", "--bench", f"toy={bench}", "-o", str(out))
    assert result.returncode != 0
    assert f"{bench} line 2: not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_unknown_model_path_is_named_before_anything_starts(tmp_path):
    bench = tmp_path / "bench.jsonl"
    bench.write_text(json.dumps({"problem": "1+1?", "answer": "2"}) + "\n")
    out = tmp_path / "out"
    missing = tmp_path / "no-such-checkpoint"
    result = run_sample(
        "--model",
        f"base={missing}",
        "--model",
        f"rl={tmp_path}",
        "--base",
        "base",
        "--bench",
        f"toy={bench}",
        "-o",
        str(out),
    )
    assert result.returncode != 0
    assert f"model 'base': no such folder {missing}" in result.stderr
    not_a_checkpoint = run_sample(
        "--model", f"base={tmp_path}", "--bench", f"toy={bench}", "-o", str(out)
    )
    assert "has no config.json" in not_a_checkpoint.stderr
    assert "Traceback" not in result.stderr + not_a_checkpoint.stderr
    assert not out.exists()
