"""Issue 14: three imports and two verifies on one folder at once end as a sequential run.

Each trial starts, together, `leash import` of one file twice and of another once, and
two `leash verify`, on a folder that already holds a base model. Whatever the order
they reach the folder lock in, one import of the repeated file must win and the other
be refused, a verify may be refused while the other runs, nothing may crash, and after
one more `leash verify` (what a user runs after a refused one) the folder must hold
exactly what the sequential run leaves.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sampler.importers.formats.jsonl import import_jsonl
from tests.importers.test_import_export import export_all
from tests.support.records import sample_records, write_jsonl

TRIALS = 3


def _leash(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "leash_tui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen) -> tuple[int, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out + err


def _state(root: Path) -> tuple:
    from sampler.store.folder import ResultsFolder

    results = ResultsFolder.open(root)
    keep = ("benchmark", "question_id", "model", "sample", "text", "answer", "status")
    rows = sorted(tuple(str(r.get(k)) for k in keep) for r in export_all(root))
    manifest = results.manifest
    models = sorted((m.name, m.role) for m in manifest.models)
    benchmarks = sorted(b.name for b in manifest.benchmarks)
    questions = sorted(map(str, results.questions.to_pylist()))
    hidden = sorted(p.name for p in root.iterdir() if p.name.startswith((".staging", ".commit")))
    return rows, models, benchmarks, questions, hidden


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("stress")
    verdicts = [[True, False, True], [False, False, True], [True, True, True]]
    base = write_jsonl(folder / "base.jsonl", sample_records({"base": verdicts}))
    rl = write_jsonl(folder / "rl.jsonl", sample_records({"rl": verdicts[::-1]}))
    rl2 = write_jsonl(folder / "rl2.jsonl", sample_records({"rl2": verdicts}))
    return base, rl, rl2


def test_three_imports_and_two_verifies_at_once_end_as_a_sequential_run(
    tmp_path: Path, inputs: tuple[Path, Path, Path]
) -> None:
    base, rl, rl2 = inputs
    start = tmp_path / "start"
    import_jsonl([base], start, base="base")
    sequential = tmp_path / "sequential"
    shutil.copytree(start, sequential)
    for path in (rl, rl, rl2):
        subprocess.run(
            [sys.executable, "-m", "leash_tui", "import", str(path), "-o", str(sequential)],
            capture_output=True,
            timeout=120,
        )
    for _ in range(2):
        subprocess.run(
            [sys.executable, "-m", "leash_tui", "verify", str(sequential), "--no-progress"],
            capture_output=True,
            timeout=120,
        )
    expected = _state(sequential)
    assert len(expected[0]) == 27 and all(row[-1] != "None" for row in expected[0])

    for trial in range(TRIALS):
        root = tmp_path / f"trial-{trial}"
        shutil.copytree(start, root)
        imports = [_leash("import", str(p), "-o", str(root)) for p in (rl, rl, rl2)]
        verifies = [_leash("verify", str(root), "--no-progress") for _ in range(2)]
        (rl_a, rl_b, rl2_run), checks = map(_finish, imports), [_finish(v) for v in verifies]
        for _code, said in (rl_a, rl_b, rl2_run, *checks):
            assert "Traceback" not in said, said
        assert rl2_run[0] == 0, rl2_run[1]
        assert sorted([rl_a[0], rl_b[0]]) == [0, 1], (rl_a, rl_b)
        refused = rl_a if rl_a[0] else rl_b
        assert "is already in" in refused[1] and "never overwrites a sample" in refused[1]
        for code, said in checks:
            assert code == 0 or "another 'leash verify' is running" in said, said
        finish = subprocess.run(
            [sys.executable, "-m", "leash_tui", "verify", str(root), "--no-progress"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert finish.returncode == 0, finish.stderr
        assert _state(root) == expected, trial
