"""The layering of docs/architecture.md holds: the import-linter contracts in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO_ROOT

ROOT = REPO_ROOT


def lint_imports() -> str:
    beside = Path(sys.executable).parent / "lint-imports"
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    if found is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    return found


def test_every_layering_contract_is_kept():
    result = subprocess.run(
        [lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_a_forbidden_import_is_caught(tmp_path):
    """The contracts bite: a copy of the tree where sampler imports the UI fails them."""
    copy = tmp_path / "tree"
    for name in ("sampler", "leash_tui"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "sampler" / "store" / "probe.py").write_text("import leash_tui.explorer.app\n")
    result = subprocess.run(
        [lint_imports(), "--no-cache"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode != 0
    assert "sampler.store.probe -> leash_tui.explorer.app" in result.stdout
