"""Folder-level verification: verdicts written back, resumable, consistent across reruns."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.manifest import load_manifest
from sampler.store.shards.writer import append_samples
from sampler.verify.answers.extraction import ExtractionConfig
from sampler.verify.run import verify_results
from sampler.verify.workers.pool import VerifyPool
from tests.support.folder_builders import write_folder
from tests.support.paths import REPO_ROOT
from tests.support.verify_fixtures import PATHOLOGICAL, boxed

REPO = REPO_ROOT

QUESTIONS = [
    {"benchmark": "toy", "question_id": "0", "problem": "p0", "gold": r"\frac{1}{2}"},
    {"benchmark": "toy", "question_id": "1", "problem": "p1", "gold": "27.0"},
    {"benchmark": "toy", "question_id": "2", "problem": "p2", "gold": "(3,4]"},
    {
        "benchmark": "toy",
        "question_id": "3",
        "problem": "p3",
        "gold": "$69$,$84$",
        "metadata": {"is_multiple_answer": True},
    },
    {
        "benchmark": "toy",
        "question_id": "4",
        "problem": "p4",
        "gold": r"\frac{600}{7}",
        "metadata": {"unit": "km/h"},
    },
]

# (question, model, text, expected status, expected stored answer)
SAMPLES = [
    ("0", "base", boxed(r"\dfrac{1}{2}"), "correct", "1/2"),
    ("0", "base", boxed("0.5"), "correct", "1/2"),
    ("0", "base", "I give up.", "no_answer", None),
    ("0", "rl", boxed(r"\frac{1}{3}"), "incorrect", "1/3"),
    ("1", "base", boxed("27"), "correct", "27"),
    ("1", "rl", boxed("28"), "incorrect", "28"),
    ("2", "base", boxed("(3,4]"), "correct", "Interval.Lopen(3, 4)"),
    ("2", "rl", boxed("(3,4)"), "incorrect", "Interval.open(3, 4)"),
    ("3", "base", boxed("84, 69"), "correct", "{69, 84}"),
    ("3", "rl", boxed("69"), "incorrect", "69"),
    ("4", "base", boxed(r"\frac{600}{7} \text{ km/h}"), "correct", "600/7"),
    ("4", "rl", boxed(r"\frac{600}{7}"), "correct", "600/7"),
]


def _rows(samples, start=0):
    counters: dict[tuple[str, str], int] = {}
    rows = []
    for qid, model, text, *_ in samples:
        index = counters.get((qid, model), start)
        counters[(qid, model)] = index + 1
        rows.append(
            {
                "benchmark": "toy",
                "question_id": qid,
                "model": model,
                "sample": index,
                "text": text,
                "n_tokens": len(text),
            }
        )
    return rows


@pytest.fixture(scope="module")
def pool():
    """One warm pool for the module (starting math-verify takes a second or two)."""
    with VerifyPool(workers=2, deadline_s=1.5) as shared:
        yield shared


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    rows = _rows(SAMPLES)
    return write_folder(
        tmp_path / "results", QUESTIONS, [rows[:6], rows[6:]], models=["base", "rl"]
    )


def _table(root: Path):
    table = ResultsFolder.open(root).samples(
        columns=["question_id", "model", "sample", "answer", "correct", "status", "n_tokens"]
    )
    return sorted(
        zip(*(table.column(c).to_pylist() for c in table.column_names), strict=True),
        key=lambda r: (r[0], str(r[1]), r[2]),
    )


def _expected():
    rows = _rows(SAMPLES)
    out = []
    for row, (_, _, text, status, answer) in zip(rows, SAMPLES, strict=True):
        out.append(
            (
                row["question_id"],
                row["model"],
                row["sample"],
                answer,
                status == "correct",
                status,
                len(text),
            )
        )
    return sorted(out, key=lambda r: (r[0], r[1], r[2]))


def test_verdicts_answers_and_statuses_are_written(folder: Path, pool: VerifyPool):
    seen = []
    summary = verify_results(folder, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert _table(folder) == _expected()
    assert summary.verified == summary.samples == len(SAMPLES)
    assert summary.by_status == {
        "correct": 7,
        "incorrect": 4,
        "no_answer": 1,
        "timeout": 0,
        "error": 0,
        "no_gold": 0,
    }
    assert summary.shards_written == 2
    assert seen[-1] == (len(SAMPLES), len(SAMPLES))
    assert summary.verifier_calls + summary.calls_saved == len(SAMPLES) - 1
    stored = load_manifest(folder).verification
    assert stored["extraction"] == ExtractionConfig().to_json()
    assert "pending" not in stored


def test_rerun_touches_nothing_and_new_shards_alone_are_verified(folder: Path, pool: VerifyPool):
    verify_results(folder, pool=pool)
    shards = ResultsFolder.open(folder).shard_paths()
    stamps = {p: p.stat().st_mtime_ns for p in shards}
    again = verify_results(folder, pool=pool)
    assert (again.verified, again.already_verified, again.shards_written) == (0, 12, 0)
    assert {p: p.stat().st_mtime_ns for p in shards} == stamps

    extra = _rows([("1", "base", boxed("27"), "correct", "27")], start=50)
    append_samples(folder, pa.Table.from_pylist(extra))
    third = verify_results(folder, pool=pool)
    assert (third.verified, third.shards_written) == (1, 1)
    assert {p: p.stat().st_mtime_ns for p in shards} == stamps


def test_force_reverifies_everything_and_a_killed_force_run_is_continued(
    folder: Path, pool: VerifyPool
):
    verify_results(folder, pool=pool)
    shards = ResultsFolder.open(folder).shard_paths()
    first_rows = pq.ParquetFile(shards[0]).metadata.num_rows

    def interrupt(done: int, total: int) -> None:
        if done > first_rows:  # the first shard is written; now die in the second
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        verify_results(folder, force=True, pool=pool, batch_samples=1, progress=interrupt)
    pending = load_manifest(folder).verification["pending"]
    assert pending["done"] == [shards[0].name]
    resumed = verify_results(folder, pool=pool)
    assert resumed.verified == len(SAMPLES) - first_rows  # the rest of the forced run, only
    assert "pending" not in load_manifest(folder).verification
    assert _table(folder) == _expected()
    forced = verify_results(folder, force=True, pool=pool)
    assert forced.verified == len(SAMPLES)
    assert _table(folder) == _expected()


def test_extraction_config_is_kept_and_a_change_needs_force(folder: Path, pool: VerifyPool):
    verify_results(folder, pool=pool)
    tags = ExtractionConfig(default=("answer_tags",))
    with pytest.raises(LeashError, match="--force"):
        verify_results(folder, extraction=tags, pool=pool)
    summary = verify_results(folder, extraction=tags, force=True, pool=pool)
    assert summary.by_status["no_answer"] == len(SAMPLES)  # no <answer> tags in these texts
    assert load_manifest(folder).verification["extraction"]["default"] == ["answer_tags"]
    # a later plain run keeps using the stored config

    extra = _rows([("1", "base", "So.\n<answer>27</answer>", "correct", "27")], start=60)
    append_samples(folder, pa.Table.from_pylist(extra))
    assert verify_results(folder, pool=pool).by_status["correct"] == 1


def test_timeouts_are_recorded_and_retried_on_request(tmp_path: Path, pool: VerifyPool):
    rows = _rows(
        [("0", "base", boxed(PATHOLOGICAL), "timeout", None), ("0", "base", boxed("0.5"), "", "")]
    )
    root = write_folder(tmp_path / "r", QUESTIONS[:1], [rows], models=["base"])
    summary = verify_results(root, pool=pool)
    assert summary.by_status["timeout"] == 1
    assert summary.by_status["correct"] == 1
    assert verify_results(root, pool=pool).verified == 0
    retried = verify_results(root, pool=pool, retry=True)
    assert (retried.verified, retried.timeouts) == (1, 1)


def test_a_question_without_gold_gets_status_no_gold_and_is_not_retried(
    tmp_path: Path, pool: VerifyPool
):
    questions = [
        {"benchmark": "toy", "question_id": "0", "problem": "p", "gold": None},
        {"benchmark": "toy", "question_id": "1", "problem": "p", "gold": "1"},
    ]
    texts = [("0", "base", boxed("1")), ("0", "base", "no answer"), ("1", "base", boxed("1"))]
    root = write_folder(tmp_path / "r", questions, [_rows(texts)], models=["base"])
    summary = verify_results(root, pool=pool)
    assert (summary.by_status["no_gold"], summary.by_status["error"], summary.no_gold) == (2, 0, 2)
    samples = ResultsFolder.open(root).samples().to_pylist()
    gold_less = [r for r in samples if r["question_id"] == "0"]
    assert {r["status"] for r in gold_less} == {"no_gold"}
    assert {r["answer"] for r in gold_less} == {"1", None}  # the answer as extracted
    assert verify_results(root, pool=pool, retry=True).verified == 0
    counts = {r["question_id"]: r for r in ResultsFolder.open(root).verdict_counts().to_pylist()}
    assert (counts["0"]["n"], counts["0"]["n_verified"], counts["0"]["n_no_gold"]) == (2, 0, 2)
    assert (counts["1"]["n_verified"], counts["1"]["n_no_gold"]) == (1, 0)


def test_a_second_verify_on_the_same_folder_is_refused(folder: Path, pool: VerifyPool):
    import fcntl

    with open(folder / ".leash-verify.lock", "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        with pytest.raises(LeashError, match="another 'leash verify' is running"):
            verify_results(folder, pool=pool)


# -- killed at any point ----------------------------------------------------------------------

_RUN = """
import sys
from sampler.verify.workers.pool import VerifyPool
from sampler.verify.run import verify_results
verify_results(sys.argv[1], workers=1, deadline_s=1.5, batch_samples=1)
"""


def _verified_shards(root: Path) -> set[str]:
    done = set()
    for path in ResultsFolder.open(root).shard_paths():
        meta = pq.ParquetFile(path).metadata
        column = pq.ParquetFile(path).schema_arrow.names.index("status")
        if all(
            meta.row_group(i).column(column).statistics.null_count == 0
            for i in range(meta.num_row_groups)
        ):
            done.add(path.name)
    return done


def _leftover_processes(parent_pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"sampler.verify.workers.worker" in argv and str(parent_pid).encode() in argv:
            found.append(int(entry.name))
    return found


def test_killed_mid_run_then_rerun_verifies_each_sample_once_and_loses_nothing(
    tmp_path: Path, pool: VerifyPool
):
    # four shards, each with its own slow answer, so the run takes a while per shard
    questions = [
        {"benchmark": "toy", "question_id": str(i), "problem": "p", "gold": f"\\frac{{{i}}}{{7}}"}
        for i in range(1, 5)
    ]
    shards = []
    for i in range(1, 5):
        shards.append(
            _rows(
                [
                    (str(i), "base", boxed(PATHOLOGICAL), "", ""),
                    (str(i), "base", boxed(f"\\frac{{{i}}}{{7}}"), "", ""),
                    (str(i), "base", boxed(f"\\frac{{{i + 1}}}{{7}}"), "", ""),
                ]
            )
        )
    root = write_folder(tmp_path / "r", questions, shards, models=["base"])
    before = ResultsFolder.open(root).samples(
        columns=["benchmark", "question_id", "model", "sample"]
    )
    keys_before = sorted(zip(*(c.to_pylist() for c in before.columns), strict=True))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, "-c", _RUN, str(root)], env=env)
    try:
        deadline = time.monotonic() + 60
        while not _verified_shards(root) and time.monotonic() < deadline:
            assert process.poll() is None, "the run ended before it could be killed"
            time.sleep(0.05)
        written_early = _verified_shards(root)
        assert written_early, "no shard was written within a minute"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    # the zygote and its workers die with the killed run
    for _ in range(100):
        if not _leftover_processes(process.pid):
            break
        time.sleep(0.05)
    assert _leftover_processes(process.pid) == []

    killed_at = _verified_shards(root)
    assert killed_at and len(killed_at) < 4
    stamps = {p.name: p.stat().st_mtime_ns for p in ResultsFolder.open(root).shard_paths()}
    summary = verify_results(root, pool=pool)
    assert summary.verified == 3 * (4 - len(killed_at))  # only what the killed run had not saved
    assert summary.already_verified == 3 * len(killed_at)
    for name in killed_at:
        path = root / "samples" / name
        assert path.stat().st_mtime_ns == stamps[name], "a finished shard was rewritten"

    after = ResultsFolder.open(root).samples(
        columns=["benchmark", "question_id", "model", "sample", "status"]
    )
    keys_after = sorted(
        zip(*(after.column(c).to_pylist() for c in after.column_names[:4]), strict=True)
    )
    assert keys_after == keys_before  # nothing lost, nothing doubled
    statuses = after.column("status").to_pylist()
    assert statuses.count("timeout") == 4
    assert statuses.count("correct") == 4
    assert statuses.count("incorrect") == 4
    others = [p.name for p in (root / "samples").iterdir() if not p.name.startswith("part-")]
    assert all(name.startswith(".tmp-") for name in others)  # a killed write leaves only these
    assert json.loads((root / "manifest.json").read_text())["verification"]["last_run"]


def test_verify_with_a_short_deadline_finishes_promptly_on_looping_completions(tmp_path):
    """issue 14 item 2: a model looping ``\\boxed{x `` (or ``<answer>``) to its length limit;
    extraction took 66 s for two 72 KB samples. Now linear, it is a small part of the run."""
    questions = [{"benchmark": "toy", "question_id": "0", "problem": "p", "gold": "1"}]
    texts = [
        "\\boxed{x " * 8_000,  # 72 KB
        "\\boxed{x " * 111_000,  # 1 MB
        "<answer>x " * 100_000,
        "Answer: \\boxed{x " * 60_000,
    ]
    rows = [
        {"benchmark": "toy", "question_id": "0", "model": "base", "sample": i, "text": t}
        for i, t in enumerate(texts)
    ]
    root = write_folder(tmp_path / "r", questions, [rows], models=["base"])
    config = ExtractionConfig(default=("answer_tags", "answer_line", "boxed"))
    started = time.monotonic()
    summary = verify_results(root, workers=1, deadline_s=1.0, extraction=config)
    assert time.monotonic() - started < 30  # worker start-up included; was minutes
    assert summary.verified == len(texts)
    assert summary.timeouts == 0
    assert summary.no_answer >= 3  # the unclosed boxes and tags give no answer
