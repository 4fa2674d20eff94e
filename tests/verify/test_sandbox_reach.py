"""The sandbox runs programs as nobody when leash runs as root: the interpreter must be
reachable by others, and the probe names the directory that is not (pyenv's interpreters
under /root, mode 700, made every code-grading test skip with bwrap's bare "Permission
denied")."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sampler.verify.verifiers.sandbox import _closed_to_others


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A directory under /tmp that everyone may enter (pytest's own tmp_path is mode 700)."""
    top = Path(tempfile.mkdtemp(prefix="leash-reach-"))
    top.chmod(0o755)
    yield top
    shutil.rmtree(top)


def test_the_first_directory_others_cannot_enter_is_named(open_dir: Path) -> None:
    home = open_dir / "home"
    interpreter = home / ".pyenv" / "versions" / "3.11.7" / "bin"
    interpreter.mkdir(parents=True, mode=0o755)
    assert _closed_to_others(str(interpreter)) is None
    home.chmod(0o700)
    assert _closed_to_others(str(interpreter)) == str(home)
    home.chmod(0o701)  # others may pass through it, not list it
    assert _closed_to_others(str(interpreter)) is None


def test_a_missing_directory_is_closed(open_dir: Path) -> None:
    assert _closed_to_others(str(open_dir / "gone" / "bin")) == str(open_dir / "gone")
