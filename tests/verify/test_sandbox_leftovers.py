"""What a ``kill -9`` of ``leash verify`` leaves behind is cleaned at the next start (issue #33
item 11): the run's scratch folder and its ``leash-run-*`` cgroup are named after the leash
process, and removed once that process is gone. A verify refused for the verify lock names
what holds it (``leash compact``), not "another leash verify".
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.verify.verifiers import sandbox, sandbox_budget
from tests.support.folder_builders import build_folder

needs_sandbox = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox: {sandbox.sandbox_problem()}"
)
REPO = Path(__file__).resolve().parents[2]
RUNNER = """
import sys
from sampler.verify.verifiers.sandbox import run_python, Limits
print("started", flush=True)
run_python("import time\\ntime.sleep(60)", limits=Limits(wall_s=60, cpu_s=60))
"""


def _budgets(pid: int) -> list[Path]:
    layout = sandbox_budget._layout()
    if layout is None:
        return []
    prefix = f"{sandbox_budget.RUN_PREFIX}{pid}-"
    return [p for parent in layout.parents for p in parent.iterdir() if p.name.startswith(prefix)]


@needs_sandbox
def test_a_killed_runs_scratch_and_cgroup_are_removed_at_the_next_start(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", RUNNER], env=env, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline().strip() == b"started"
    deadline = time.monotonic() + 30
    scratch: list[Path] = []
    while time.monotonic() < deadline and not scratch:
        scratch = list(tmp_path.glob(f"{sandbox.SCRATCH_PREFIX}{child.pid}-*"))
        time.sleep(0.1)
    time.sleep(1.0)  # the sandbox is up, the budget made
    budgets = _budgets(child.pid)
    os.kill(child.pid, signal.SIGKILL)  # the kill -9 of leash verify
    child.wait()
    assert scratch and all(p.exists() for p in scratch)  # left behind
    if sandbox.budget_available():
        assert budgets and all(p.exists() for p in budgets)
        assert sandbox_budget.remove_stale_budgets() >= len(budgets)
        assert not any(p.exists() for p in budgets)
    assert sandbox.remove_stale_scratch(str(tmp_path)) == len(scratch)
    assert not any(p.exists() for p in scratch)
    mine = tmp_path / f"{sandbox.SCRATCH_PREFIX}{os.getpid()}-live"
    mine.mkdir()  # a live process's scratch stays
    sandbox.remove_stale_scratch(str(tmp_path))
    assert mine.exists()


HOLDER = """
import sys, time
root = sys.argv[1]
sys.argv = ["leash", "compact", root]  # what `leash compact ROOT` sees
from sampler.store.folder import ResultsFolder
with ResultsFolder.open(root).locks.verify("busy"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_verify_refused_by_the_lock_names_what_holds_it(tmp_path):
    root = build_folder(tmp_path / "run", {("b", "q1"): {"base": "C C I I"}})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root)], env=env, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        result = CliRunner().invoke(cli, ["verify", str(root), "--no-progress", "--force"])
        assert result.exit_code != 0
        assert f"leash compact (pid {holder.pid}) holds this folder's verify lock" in result.output
        assert "another 'leash verify'" not in result.output
    finally:
        holder.kill()
        holder.wait()
