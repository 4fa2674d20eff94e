"""A crafted commit journal's ``removes`` (issue #33 item 1): like its ``moves``, every name
must lie inside the folder; a journal naming a file outside is refused in one line naming
the journal, before anything is renamed or deleted, and ``leash info`` exits non-zero.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import build_folder

SPEC = {("b", "q1"): {"base": "C C I I", "rlvr": "C C C I"}}
JOURNAL = ".commit-hostile0002.json"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return build_folder(tmp_path / "run", SPEC)


def _journal(folder: Path, removes: list[str], moves: list[list[str]] | None = None) -> Path:
    path = folder / JOURNAL
    plan = {"moves": moves or [], "removes": removes, "work": ".staging-x"}
    path.write_text(json.dumps(plan))
    return path


@pytest.mark.parametrize("name", ["{victim}", "../victim.txt", "samples/../../victim.txt"])
def test_a_journal_cannot_remove_a_file_outside_the_folder(folder, tmp_path, name):
    victim = tmp_path / "victim.txt"
    victim.write_text("notes")
    (folder / "mine.txt").write_text("x")
    _journal(folder, [name.format(victim=victim)], [["mine.txt", "moved.txt"]])
    result = CliRunner().invoke(cli, ["info", str(folder)])
    assert result.exit_code != 0
    assert victim.read_text() == "notes"
    assert (folder / "mine.txt").exists() and not (folder / "moved.txt").exists()
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and JOURNAL in lines[0] and "leaves the folder" in lines[0]


def test_a_journal_cannot_remove_through_a_link(folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("notes")
    (folder / "link").symlink_to(outside)
    _journal(folder, ["link/notes.txt"])
    with pytest.raises(LeashError, match=rf"{JOURNAL}: path .* goes through a link"):
        ResultsFolder.open(folder)
    assert (outside / "notes.txt").read_text() == "notes"


def test_a_removed_name_that_is_a_link_removes_the_link_not_its_target(folder, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep")
    (folder / "old-shard.parquet").symlink_to(target)
    _journal(folder, ["old-shard.parquet"])
    ResultsFolder.open(folder)
    assert target.read_text() == "keep"
    assert not (folder / "old-shard.parquet").is_symlink()
    assert not (folder / JOURNAL).exists()


def test_a_removed_name_that_is_a_directory_is_one_line(folder):
    (folder / "adir").mkdir()
    (folder / "adir" / "inner.txt").write_text("x")
    _journal(folder, ["adir"])
    with pytest.raises(LeashError, match=rf"{JOURNAL}: cannot remove 'adir'"):
        ResultsFolder.open(folder)
    assert (folder / "adir" / "inner.txt").exists()
