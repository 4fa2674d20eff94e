"""Run an untrusted Python program in its own process, bounded, and kill it from outside.

``run_python`` writes the program into a fresh temporary directory and starts it
with a scrubbed environment (no variable of the caller's reaches it), resource
limits (CPU seconds, address space, file size, processes, open files, no core
dumps; set by ``prlimit`` before ``exec``, so that no Python code runs between
fork and exec in a threaded caller) and, where the machine allows it, new network
and PID namespaces (``unshare``): no network, and when the namespace's first
process dies every process the program started dies with it, wherever it went.
Run as root, the program runs as ``nobody`` (``setpriv``), so that it can write
nowhere but its directory and world-writable ones and the process limit holds
(root is exempt from RLIMIT_NPROC). The wall-clock deadline is enforced from
outside: its whole process group is killed. Output goes to files that the file
size limit bounds, so that a program printing without end fills neither memory
nor disk.

Without namespaces (no ``unshare``, or user namespaces off) a process that leaves
the program's process group can outlive the deadline, held only by its CPU limit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

NOBODY = 65534
_SCRUBBED_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Limits:
    """Bounds of one run: wall and CPU seconds, memory, output and file size, processes."""

    wall_s: float = 6.0
    cpu_s: int = 5
    memory_mb: int = 1024
    file_mb: int = 16
    processes: int = 32
    open_files: int = 64


@dataclass(frozen=True)
class RunResult:
    """How a run ended and what it printed (stdout up to the file size limit)."""

    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float

    @property
    def output_limit(self) -> bool:
        return "File too large" in self.stderr or self.returncode in (
            -signal.SIGXFSZ,
            128 + signal.SIGXFSZ,
        )

    @property
    def memory_limit(self) -> bool:
        return "MemoryError" in self.stderr

    @property
    def cpu_limit(self) -> bool:
        return self.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU, -signal.SIGKILL, 137)


def _works(argv: list[str]) -> bool:
    try:
        done = subprocess.run(
            [*argv, "true"], capture_output=True, timeout=10, check=False, env=_env("/")
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@cache
def isolation() -> tuple[str, ...]:
    """The command prefix that isolates a run on this machine (probed once per process)."""
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    if os.geteuid() == 0:
        namespaces = [unshare, "--net", "--pid", "--fork", "--kill-child", "--"] if unshare else []
        drop = (
            [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
            if setpriv
            else []
        )
        if namespaces and _works([*namespaces, *drop]):
            return tuple(namespaces + drop)
        return tuple(drop) if drop and _works(drop) else ()
    if unshare:
        user_ns = [unshare, "--user", "--map-root-user", "--net", "--pid", "--fork"]
        user_ns += ["--kill-child", "--"]
        if _works(user_ns):
            return tuple(user_ns)
    return ()


def _own_processes() -> int:
    """Processes of this user now (RLIMIT_NPROC counts them all, not only the program's)."""
    uid, count = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count


def _env(home: str) -> dict[str, str]:
    return {
        "PATH": _SCRUBBED_PATH,
        "LANG": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
    }


def python_executable() -> str:
    """The interpreter that runs programs: the base one, not this environment's venv."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


def _prlimit(limits: Limits, dropped: bool) -> list[str]:
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        return []
    memory = limits.memory_mb * 1024 * 1024
    nproc = limits.processes if dropped else _own_processes() + limits.processes
    return [
        prlimit,
        f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",
        f"--as={memory}",
        f"--fsize={limits.file_mb * 1024 * 1024}",
        f"--nproc={nproc}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


def _read(path: Path, limit: int) -> str:
    with open(path, "rb") as handle:
        return handle.read(limit).decode("utf-8", errors="replace")


def run_python(source: str, stdin: str = "", limits: Limits = Limits()) -> RunResult:
    """Run ``source`` as a Python program with ``stdin``; see the module docstring."""
    prefix = list(isolation())
    dropped = os.geteuid() == 0 and any("--reuid" in part for part in prefix)
    top = Path(tempfile.mkdtemp(prefix="leash-code-"))
    try:
        work = top / "work"
        work.mkdir()
        program = work / "solution.py"
        program.write_text(source, encoding="utf-8")
        (top / "stdin").write_text(stdin, encoding="utf-8")
        if dropped:
            os.chmod(top, 0o711)
            os.chown(work, NOBODY, NOBODY)
            os.chmod(program, 0o644)
        argv = [*_prlimit(limits, dropped), *prefix, python_executable(), "-I", str(program)]
        started = time.monotonic()
        with (
            open(top / "stdin", "rb") as stdin_file,
            open(top / "stdout", "wb") as out,
            open(top / "stderr", "wb") as err,
        ):
            process = subprocess.Popen(
                argv,
                stdin=stdin_file,
                stdout=out,
                stderr=err,
                cwd=work,
                env=_env(str(work)),
                start_new_session=True,
                close_fds=True,
            )
            timed_out = False
            try:
                process.wait(timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                # the whole group, also when it ended: a program may leave children behind
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        seconds = time.monotonic() - started
        cap = limits.file_mb * 1024 * 1024
        return RunResult(
            returncode=None if timed_out else process.returncode,
            stdout=_read(top / "stdout", cap),
            stderr=_read(top / "stderr", 64 * 1024),
            timed_out=timed_out,
            seconds=seconds,
        )
    finally:
        shutil.rmtree(top, ignore_errors=True)
