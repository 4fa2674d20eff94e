"""The layering of docs/architecture.md holds: the import-linter contracts in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
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


def test_the_one_door_contract_names_every_package_but_the_store():
    """A new package of sampler cannot slip past the one-door contract unnamed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    door = next(c for c in contracts if c["name"].startswith("one door"))
    children = {
        f"sampler.{p.stem if p.is_file() else p.name}"
        for p in (ROOT / "sampler").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert set(door["source_modules"]) == (children - {"sampler.store"}) | {"leash_tui"}


def lint_a_copy_with(tmp_path: Path, module: str, source: str) -> str:
    """lint-imports' output on a copy of the tree with ``module`` (a path) holding ``source``;
    asserts the copy breaks a contract."""
    copy = tmp_path / "tree"
    for name in ("sampler", "leash_tui"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / module).write_text(source)
    result = subprocess.run(
        [lint_imports(), "--no-cache"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode != 0
    return result.stdout


def test_a_forbidden_import_is_caught(tmp_path):
    """The contracts bite: a copy of the tree where sampler imports the UI fails them."""
    out = lint_a_copy_with(tmp_path, "sampler/store/probe.py", "import leash_tui.explorer.app\n")
    assert "sampler.store.probe -> leash_tui.explorer.app" in out


def test_a_side_door_into_the_store_is_caught(tmp_path):
    """The one-door contract bites: a stage importing a store submodule fails it."""
    out = lint_a_copy_with(
        tmp_path, "sampler/sample/probe.py", "from sampler.store.shards import writer\n"
    )
    assert "one door" in out
    assert "sampler.sample.probe -> sampler.store.shards" in out
