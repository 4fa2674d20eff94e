"""What the code sandbox keeps a model-written program from: files, other runs, the network,
passing by ending early, outliving its run, and exceeding one budget (issue #22 items 1-5).

These need bubblewrap; the refusal test simulates a machine without it.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from sampler.verify.verifiers import get_verifier, sandbox
from sampler.verify.verifiers.sandbox import SandboxUnavailable, run_python

CODE = get_verifier("code")
needs_sandbox = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox: {sandbox.sandbox_problem()}"
)


def io_gold(output: str, time_limit: float = 5.0, stdin: str = ""):
    return CODE.gold(
        None, {"tests": [{"input": stdin, "output": output}], "time_limit": time_limit}
    )


def judge(program: str, g) -> object:
    return CODE.judge(g, CODE.extract(f"```python\n{program}\n```"))


def _hidden_program(path: Path) -> str:
    return f"try:\n    print(open({str(path)!r}).read()[:20])\nexcept OSError:\n    print('hidden')"


@needs_sandbox
def test_results_folder_and_home_are_not_visible(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "questions.parquet").write_text("expected output: 42")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("secret")
    monkeypatch.setenv("HOME", str(home))
    for secret in (folder / "questions.parquet", home / ".bashrc", Path.home() / ".bashrc"):
        assert judge(_hidden_program(secret), io_gold("hidden")).status == "correct", secret
    # nothing of the host's processes: the program cannot find the folder from their cmdlines
    program = (
        "import os\nnames = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "print('alone' if len(names) <= 3 else names)"
    )
    assert judge(program, io_gold("alone")).status == "correct"


@needs_sandbox
def test_writes_do_not_reach_the_host(tmp_path):
    marker = f"leash-test-{os.getpid()}-{time.monotonic_ns()}"
    targets = [Path("/tmp") / marker, Path("/dev/shm") / marker, Path("/var/tmp") / marker]
    targets.append(tmp_path / marker)
    program = "\n".join(
        f"try:\n    open({str(t)!r}, 'w').write('x' * 1000)\nexcept OSError:\n    pass"
        for t in targets
    )
    assert judge(program + "\nprint('ok')", io_gold("ok")).status == "correct"
    assert [t for t in targets if t.exists()] == []


@needs_sandbox
def test_programs_cannot_see_each_others_scratch():
    writer = (
        "import os, time\nopen('/work/solution.py', 'a')\n"
        "open('/tmp/mine', 'w').write('a')\nopen('/work/mine', 'w').write('a')\ntime.sleep(1.5)"
    )
    reader = (
        "import os, time\ntime.sleep(0.5)\n"
        "print(sorted(os.listdir('/tmp')), sorted(os.listdir('/work')))"
    )
    results = {}
    first = threading.Thread(target=lambda: results.setdefault("w", run_python(writer)))
    first.start()
    results["r"] = run_python(reader)
    first.join()
    assert results["r"].stdout.strip() == "[] ['solution.py']"
    assert "Read-only file system" in results["w"].stderr  # its own source is read-only


@needs_sandbox
@pytest.mark.parametrize(
    "early",
    [
        "import sys\nsys.exit(0)",
        "import os\nos._exit(0)",
        "raise SystemExit(0)",
        "import atexit, os\natexit.register(lambda: os._exit(0))",
        "import os\nos.close(1)",
    ],
)
def test_ending_before_the_asserts_is_incorrect(early):
    g = CODE.gold(None, {"test_code": "assert add(2, 3) == 5", "time_limit": 5.0})
    verdict = judge(f"def add(a, b):\n    return a - b\n{early}", g)
    assert verdict.status == "incorrect", verdict


@needs_sandbox
def test_a_right_program_that_ends_in_sys_exit_is_still_tested():
    g = CODE.gold(None, {"test_code": "assert add(2, 3) == 5", "time_limit": 5.0})
    ending = "import sys\n\ndef add(a, b):\n    return a + b\n\nif __name__ == '__main__':\n"
    assert judge(ending + "    sys.exit()", g).status == "correct"
    assert judge(ending + "    sys.exit(0)", g).status == "correct"
    assert judge(ending + "    print('hi')", g).status == "correct"
    assert judge(ending.replace("a + b", "a * b") + "    sys.exit()", g).status == "incorrect"


@needs_sandbox
def test_the_memory_budget_holds_across_forks():
    # three children of 500 MB each: within a per-process 1024 MB limit, over the run's
    program = (
        "import os\nkids = []\nfor _ in range(3):\n    pid = os.fork()\n    if pid == 0:\n"
        "        block = bytearray(b'x') * (500 * 2**20)\n        import time; time.sleep(2)\n"
        "        os._exit(0)\n    kids.append(pid)\nfor pid in kids:\n    os.waitpid(pid, 0)\n"
        "print('done')"
    )
    verdict = judge(program, io_gold("done", time_limit=10.0))
    assert verdict.status == "error", verdict


@needs_sandbox
def test_a_double_forked_daemon_dies_with_its_run():
    marker = f"leash-daemon-{os.getpid()}-{time.monotonic_ns()}"
    program = (
        "import os, subprocess, sys\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(30)',"
        f" {marker!r}])\n    os._exit(0)\nprint('ok')"
    )
    judge(program, io_gold("ok"))
    time.sleep(0.3)
    alive = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if marker.encode() in Path(entry.path, "cmdline").read_bytes():
                    alive.append(entry.name)
            except OSError:
                continue
    assert alive == []


@needs_sandbox
def test_no_network_to_this_machine():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        program = (
            f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
            "    print('connected')\nexcept OSError:\n    print('no network')"
        )
        assert judge(program, io_gold("no network")).status == "correct"
    finally:
        server.close()


@needs_sandbox
def test_a_deep_directory_tree_does_not_break_cleanup():
    program = (
        "import os\nfor _ in range(5000):\n    os.mkdir('d')\n    os.chdir('d')\n"
        "print(int(input()) * 2)"
    )
    assert judge(program, io_gold("4", stdin="2")).status == "correct"


def test_removing_a_deep_tree_on_the_host(tmp_path):
    top = tmp_path / "scratch"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(5000):  # deeper than PATH_MAX allows by name: made relative to a fd
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    sandbox._remove_tree(top)
    assert not top.exists()


def test_without_bubblewrap_code_grading_refuses(monkeypatch):
    monkeypatch.setattr(sandbox, "BWRAP", "/nonexistent/bwrap")
    with pytest.raises(
        SandboxUnavailable, match=r"bubblewrap .* not installed.*--allow-unsandboxed"
    ):
        judge("print(1)", io_gold("1"))
    results = {}
    with pytest.raises(SandboxUnavailable):
        CODE.judge_many(
            [(io_gold("1"), CODE.extract("```\nprint(1)\n```"))],
            workers=1,
            deadline_s=5,
            on_result=results.__setitem__,
        )
    monkeypatch.setenv(sandbox.ALLOW_ENV, "1")
    assert judge("print(1)", io_gold("1")).status == "correct"


@needs_sandbox
def test_the_deadline_bounds_each_program():
    results = {}
    started = time.monotonic()
    CODE.judge_many(
        [(io_gold("x", time_limit=30.0), CODE.extract("```\nwhile True: pass\n```"))],
        workers=1,
        deadline_s=1.0,
        on_result=results.__setitem__,
    )
    assert results[0].status == "timeout" and time.monotonic() - started < 5.0


def _code_folder(root: Path) -> Path:
    from sampler.store.schema import BenchmarkEntry
    from tests.support.folder_builders import write_folder

    tests = {"tests": [{"input": "2\n", "output": "4\n"}]}
    question = {"benchmark": "mbpp", "question_id": "0", "problem": "double", "gold": None}
    text = "```python\nprint(int(input()) * 2)\n```"
    row = {"benchmark": "mbpp", "question_id": "0", "model": "base", "sample": 0, "text": text}
    return write_folder(
        root,
        [{**question, "metadata": tests}],
        [[row]],
        models=["base"],
        benchmarks=[BenchmarkEntry("mbpp", verifier="code")],
    )


def test_leash_verify_refuses_code_without_a_sandbox_in_one_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from leash_tui.cli import cli

    folder = _code_folder(tmp_path / "run")
    monkeypatch.setattr(sandbox, "BWRAP", "/nonexistent/bwrap")
    refused = CliRunner().invoke(cli, ["verify", str(folder), "--no-progress"])
    assert refused.exit_code == 1, refused.output
    assert "Traceback" not in refused.output
    assert "bubblewrap" in refused.output and "--allow-unsandboxed-code" in refused.output
    monkeypatch.delenv(sandbox.ALLOW_ENV, raising=False)
    allowed = CliRunner().invoke(
        cli, ["verify", str(folder), "--no-progress", "--allow-unsandboxed-code", "--json"]
    )
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.output)["by_status"]["correct"] == 1
    sandbox.allow_unsandboxed(False)  # the command set it for this process
