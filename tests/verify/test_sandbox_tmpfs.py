"""Every tmpfs of the code sandbox is capped and counted against the run's memory (issue #33
item 4): a program filling ``/dev/shm``, ``/dev``, the root, ``/tmp`` and ``/work`` with
many files (each under the file size limit) gets at most ``file_mb`` into each writable
place and nothing into bwrap's own mounts; without a cgroup, RLIMIT_AS leaves room for them.
"""

from __future__ import annotations

import re

import pytest

from sampler.verify.verifiers import sandbox
from sampler.verify.verifiers.sandbox import Limits, run_python

needs_sandbox = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox: {sandbox.sandbox_problem()}"
)
FILLER = """
import os
for top in ("/dev/shm", "/dev", "/tmp", "/work", "/", "/dev/pts", "/run"):
    total = 0
    for i in range(40):  # 40 files of 8 MB: 320 MB a place if nothing stops it
        try:
            with open(f"{top}/fill{i}", "wb") as handle:
                for _ in range(8):
                    handle.write(b"x" * (1 << 20))
                    handle.flush()
                    total += 1 << 20
        except OSError:
            break
    print(top, total >> 20)
print("devices", open("/dev/null", "w").write("ok"), len(open("/dev/urandom", "rb").read(4)))
"""


@needs_sandbox
@pytest.mark.usefixtures("budget")
def test_filling_every_tmpfs_stays_within_the_file_limit_of_each():
    result = run_python(FILLER, limits=Limits(wall_s=30.0, cpu_s=30, file_mb=16, memory_mb=512))
    written = {m[0]: int(m[1]) for m in re.findall(r"^(/\S*) (\d+)$", result.stdout, re.M)}
    assert set(written) == {"/dev/shm", "/dev", "/tmp", "/work", "/", "/dev/pts", "/run"}, result
    assert all(written[place] <= 16 for place in ("/dev/shm", "/tmp", "/work")), written
    assert written["/dev"] == written["/"] == written["/dev/pts"] == written["/run"] == 0, written
    assert sum(written.values()) <= 3 * 16
    assert "devices 2 4" in result.stdout  # /dev/null and /dev/urandom still work


def test_without_a_cgroup_the_address_space_leaves_room_for_the_tmpfs(monkeypatch):
    monkeypatch.setattr(sandbox, "make_budget", lambda *args: None)
    monkeypatch.setattr(sandbox, "_as_nobody", lambda: [])
    limits = Limits(memory_mb=1024, file_mb=16)
    run = sandbox._sandboxed({}, ["python"], limits, (), 0)
    address_space = next(int(a.split("=")[1]) for a in run.argv if a.startswith("--as="))
    assert address_space == (1024 - 3 * 16) * 2**20 == 2**30 - sandbox.tmpfs_bytes(limits)
    sizes = [run.argv[i + 1] for i, a in enumerate(run.argv) if a == "--size"]
    tmpfs = [run.argv[i + 1] for i, a in enumerate(run.argv) if a == "--tmpfs"]
    assert sorted(tmpfs) == ["/dev/shm", "/tmp", "/work"] and set(sizes) == {str(16 * 2**20)}
