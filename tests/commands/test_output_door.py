"""Every ``-o/--output FILE`` goes through one door (issue 20 item 2): ``-`` is standard output,
a regular file is replaced atomically, a device or FIFO is written in place and never renamed
over (``leash export -o /dev/null`` as root used to replace the device), a directory is refused
in one line."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from leash_tui.commands.shared.output_file import open_output, write_output
from sampler.errors import LeashError
from sampler.store.journals.triage_journal import TriageJournal
from tests.support.folder_builders import build_folder


@pytest.fixture
def results(tmp_path: Path) -> Path:
    root = build_folder(tmp_path / "results", {("toy", "0"): {"base": "C I7", "rlvr": "C C"}})
    TriageJournal(root).record("toy", "0", "base", "rlvr", tag="real_loss")
    return root


#: One command per writer of a file, with RESULTS and OUT to fill in.
WRITERS = {
    "export": ["export", "RESULTS", "-o", "OUT"],
    "report": ["report", "RESULTS", "--no-cache", "-o", "OUT"],
    "report-json": ["report", "RESULTS", "--no-cache", "--format", "json", "-o", "OUT"],
    "witnesses": ["witnesses", "RESULTS", "-o", "OUT"],
    "triage-export": ["triage", "export", "RESULTS", "-o", "OUT"],
}


def invoke(argv: list[str], results: Path, out: Path | str):
    args = [str(results) if a == "RESULTS" else str(out) if a == "OUT" else a for a in argv]
    return CliRunner().invoke(cli, args)


@pytest.fixture
def null_device(tmp_path: Path) -> Path:
    """A character device made like /dev/null (1:3) in tmp_path: the test of ``-o /dev/null``
    without the machine's /dev/null, which a regression run as root would replace."""
    path = tmp_path / "null"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError as exc:  # no CAP_MKNOD: never risk the real /dev/null instead
        pytest.skip(f"cannot make a device node here ({exc.strerror})")
    return path


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_dev_null_is_written_in_place_not_replaced(name, results, null_device):
    before = os.stat(null_device)
    result = invoke(WRITERS[name], results, null_device)
    assert result.exit_code == 0, result.output
    after = os.stat(null_device)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert null_device.read_bytes() == b""  # still the null device: it kept nothing


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_fifo_gets_the_bytes_stdout_would(name, results, tmp_path):
    expected = invoke(WRITERS[name], results, "-")
    assert expected.exit_code == 0, expected.output
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = invoke(WRITERS[name], results, fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and received[0].decode() == expected.stdout
    assert received[0]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_regular_file_is_replaced_whole_and_dash_is_stdout(name, results, tmp_path):
    stdout = invoke(WRITERS[name], results, "-")
    assert stdout.exit_code == 0, stdout.output
    assert not (Path.cwd() / "-").exists()
    out = tmp_path / "out.txt"
    out.write_text("old contents that are much longer than nothing\n" * 100)
    result = invoke(WRITERS[name], results, out)
    assert result.exit_code == 0, result.output
    assert out.read_text() == stdout.stdout
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_directory_is_a_one_line_error(name, results, tmp_path):
    target = tmp_path / "adir"
    target.mkdir()
    result = invoke(WRITERS[name], results, target)
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0, result.output
    assert "is a directory" in result.output
    assert list(target.iterdir()) == []


def test_a_failed_write_leaves_the_old_file(tmp_path):
    out = tmp_path / "report.txt"
    out.write_text("old\n")
    with pytest.raises(RuntimeError), open_output(out) as handle:
        handle.write("half of the new")
        raise RuntimeError("killed mid-write")
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]


def test_an_unwritable_place_is_a_leash_error(tmp_path):
    (tmp_path / "plain").write_text("a file, not a folder\n")
    with pytest.raises(LeashError, match="plain/out.txt: cannot write"):
        write_output(tmp_path / "plain" / "out.txt", "text")
