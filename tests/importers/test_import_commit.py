"""Issue 14 items 1, 3, 4 and 10: imports that run at once, die in their commit, or race to
create one folder never double, lose or half-write samples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sampler.errors import LeashError
from sampler.importers import core
from sampler.importers.core import ImportSession
from sampler.importers.formats.jsonl import import_jsonl, read_jsonl_file
from sampler.store.folder import ResultsFolder
from tests.importers.test_import_export import canonical, export_all
from tests.support.paths import REPO_ROOT
from tests.support.records import sample_records, write_jsonl

REPO = REPO_ROOT


def _files(tmp_path: Path) -> tuple[Path, Path]:
    base = write_jsonl(
        tmp_path / "base.jsonl", sample_records({"base": [[True, False]] * 3}, benchmark="toy")
    )
    rl = write_jsonl(
        tmp_path / "rl.jsonl", sample_records({"rl": [[True, True, False]] * 3}, benchmark="toy")
    )
    return base, rl


def _state(root: Path) -> tuple:
    """What a folder holds: its samples, models, benchmarks and questions."""
    results = ResultsFolder.open(root)
    manifest = results.manifest
    return (
        canonical(export_all(root)),
        sorted((m.name, m.role) for m in manifest.models),
        sorted(b.name for b in manifest.benchmarks),
        sorted(map(str, results.questions.to_pylist()), key=str),
    )


def _leftovers(root: Path) -> list[str]:
    hidden = [p.name for p in root.iterdir() if p.name.startswith((".staging", ".commit"))]
    hidden += [p.name for p in root.parent.iterdir() if ".import" in p.name]
    return hidden


# -- item 1: the check and the commit under one lock -------------------------------------------
def test_two_imports_of_the_same_file_at_once_add_it_once(tmp_path: Path, monkeypatch) -> None:
    base, rl = _files(tmp_path)
    root = tmp_path / "r"
    import_jsonl([base], root, base="base")
    checked = core.ImportSession._check_not_in_folder
    both_checked = threading.Barrier(2)

    def check_then_linger(self, *args):
        checked(self, *args)
        try:  # let the other import check too, if it can (it could when the check was unlocked)
            both_checked.wait(timeout=2)
        except threading.BrokenBarrierError:
            pass

    monkeypatch.setattr(core.ImportSession, "_check_not_in_folder", check_then_linger)
    outcomes: list[str] = []

    def run() -> None:
        try:
            import_jsonl([rl], root)
            outcomes.append("ok")
        except LeashError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert outcomes.count("ok") == 1, outcomes
    refused = next(o for o in outcomes if o != "ok")
    assert "is already in" in refused and "import never overwrites a sample" in refused
    counts = ResultsFolder.open(root).verdict_counts().to_pylist()
    assert {(r["model"], r["n"]) for r in counts} == {("base", 2), ("rl", 3)}


# -- item 3: killed at any instant of the commit -----------------------------------------------
KILLER = """
import os, sys
sys.path.insert(0, {repo!r})
import sampler.importers.staging as staging
staging.STAGE_ROWS = 4
real, calls = os.replace, [0]
def replace(a, b, **kw):
    calls[0] += 1
    if calls[0] == {kill_at}:
        os._exit(9)
    return real(a, b, **kw)
os.replace = replace
from sampler.importers.formats.jsonl import import_jsonl
import_jsonl([{path!r}], {root!r})
print("renames", calls[0])
"""


def _import_killed_at(root: Path, path: Path, kill_at: int) -> subprocess.CompletedProcess:
    code = KILLER.format(repo=str(REPO), kill_at=kill_at, path=str(path), root=str(root))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_an_import_killed_anywhere_in_its_commit_is_absent_or_complete(tmp_path: Path) -> None:
    import shutil

    base, rl = _files(tmp_path)
    clean = tmp_path / "clean"
    import_jsonl([base], clean, base="base")
    before = _state(clean)
    done = tmp_path / "done"
    shutil.copytree(clean, done)
    import_jsonl([rl], done)
    after = _state(done)
    trial = tmp_path / "trial"
    shutil.copytree(clean, trial)
    run = _import_killed_at(trial, rl, kill_at=10_000)
    assert run.returncode == 0, run.stderr
    renames = int(run.stdout.split()[-1])
    assert renames >= 4  # three staged shards (9 samples, 4 a shard), questions, manifest...
    for kill_at in range(1, renames + 1):
        trial = tmp_path / f"trial-{kill_at}"
        shutil.copytree(clean, trial)
        run = _import_killed_at(trial, rl, kill_at)
        assert run.returncode == 9, (kill_at, run.stderr)
        state = _state(trial)  # readable, and either untouched or complete
        assert state in (before, after), kill_at
        try:  # a rerun completes it, or finds it complete
            import_jsonl([rl], trial)
        except LeashError as exc:
            assert state == after and "is already in" in str(exc), (kill_at, exc)
        assert _state(trial) == after, kill_at
        assert not [n for n in _leftovers(trial) if n.startswith(".commit")], kill_at


# -- item 4: two imports creating the same new folder --------------------------------------------
def test_two_imports_creating_one_folder_do_not_share_their_staging(tmp_path: Path) -> None:
    base, rl = _files(tmp_path)
    root = tmp_path / "new"
    first, second = ImportSession(root, "base"), ImportSession(root, "rl")
    with first, second:
        read_jsonl_file(first, base)
        read_jsonl_file(second, rl)
        first._staging.flush()
        second._staging.flush()
        first.commit()
        first.__exit__(None, None, None)
        assert all(path.exists() for path in second._staging.files)  # not the first's to delete
        with pytest.raises(LeashError, match="created by another import while this one ran"):
            second.commit()
    assert {(m.name, m.role) for m in ResultsFolder.open(root).manifest.models} == {
        ("base", "base")
    }
    assert {r["n"] for r in ResultsFolder.open(root).verdict_counts().to_pylist()} == {2}
    assert _leftovers(root) == []


# -- item 10: staging of killed imports is cleaned -------------------------------------------
def test_staging_left_by_a_killed_import_is_removed_by_the_next_one(tmp_path: Path) -> None:
    from sampler.store.journals.commit_journal import OWNER_LOCK, own

    base, rl = _files(tmp_path)
    root = tmp_path / "r"
    import_jsonl([base], root, base="base")
    stale = root / ".staging-deadbeef0000"
    (stale / "stage").mkdir(parents=True)
    (stale / "stage" / "stage-00000.parquet").write_bytes(b"x")
    live = root / ".staging-alive0000000"
    live.mkdir()
    old = time.time() - 7200
    for path in (stale, live):
        os.utime(path, (old, old))
    with own(live):
        import_jsonl([rl], root)
        assert not stale.exists()
        assert live.exists() and (live / OWNER_LOCK).exists()


def test_an_interrupted_commit_is_completed_when_the_folder_is_next_read(tmp_path: Path) -> None:
    base, rl = _files(tmp_path)
    root = tmp_path / "r"
    import_jsonl([base], root, base="base")
    killed = _import_killed_at(root, rl, kill_at=6)
    assert killed.returncode == 9
    journals = [p for p in root.iterdir() if p.name.startswith(".commit-")]
    if journals:  # the kill fell after the journal: the reader finishes the commit
        plan = json.loads(journals[0].read_text())
        assert plan["moves"]
    counts = ResultsFolder.open(root).verdict_counts().to_pylist()
    assert {(r["model"], r["n"]) for r in counts} in (
        {("base", 2)},
        {("base", 2), ("rl", 3)},
    )
    assert not [p for p in root.iterdir() if p.name.startswith(".commit-")]
