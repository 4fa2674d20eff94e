"""CSV of model text shows ESC and BEL escaped on a real terminal, raw in a file (issue #33
item 12): ``leash triage export`` runs under a pseudo terminal, not with the terminal
check patched (``leash witnesses --format csv`` prints through the same ``for_stdout``).
"""

from __future__ import annotations

import os
import pty
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.journals.triage_journal import TriageJournal
from tests.support.folder_builders import build_folder

REPO = Path(__file__).resolve().parents[2]
HOSTILE = "hi \x1b]52;c;cHduZWQ=\x07 \x1b[2J there"


def _on_a_terminal(*args: str) -> bytes:
    pid, fd = pty.fork()
    if pid == 0:  # the child: leash with a terminal as stdout
        os.environ["PYTHONPATH"] = str(REPO)
        os.execv(sys.executable, [sys.executable, "-m", "leash_tui", *args])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo terminal (POSIX)")
def test_triage_csv_is_escaped_on_a_terminal_and_raw_in_a_file(tmp_path):
    root = build_folder(tmp_path / "run", {("b", "q1"): {"base": "C C I I", "rlvr": "C C C I"}})
    TriageJournal(root).record("b", "q1", "base", "rlvr", note=HOSTILE)
    shown = _on_a_terminal("triage", "export", str(root))
    assert b"q1" in shown and b"\x1b" not in shown and b"\x07" not in shown
    assert "␛]52;c;cHduZWQ=␇".encode() in shown
    target = tmp_path / "out.csv"
    written = CliRunner().invoke(cli, ["triage", "export", str(root), "-o", str(target)])
    assert written.exit_code == 0, written.output
    assert HOSTILE.encode() in target.read_bytes().replace(b'"', b"")
