"""Run an untrusted Python program in a bubblewrap sandbox, bounded, and kill it from outside.

``run_python`` starts the program with ``bwrap`` (bubblewrap) in a fresh, minimal
root: ``/usr``, the ``/lib*`` and ``/bin`` links and the interpreter's own prefix
read-only, a new ``/proc`` and ``/dev``, and nothing else of the host (no ``/tmp``,
no ``/run``, no home, no results folder). Its only writable places are private
tmpfs mounts (``/work``, its directory and ``$HOME``, ``/tmp`` and ``/dev/shm``) of at
most ``Limits.file_mb`` each, gone with the sandbox whatever is in them; bwrap's own
tmpfs mounts (the root, ``/dev``), which cannot be sized, are remounted read-only. Their
pages count against the run's memory: a cgroup is charged for them, and without one
RLIMIT_AS is lowered by what they can hold (``tmpfs_bytes``). It has new
user, PID, network, IPC and UTS namespaces (no network, not even 127.0.0.1; no
host sockets or shared memory), a new session (no terminal), and dies with its
parent; the PID namespace's first process dying kills every process it started.
Inside, it runs as ``nobody``; run as root without a cgroup, it drops to ``nobody``
before bwrap (``setpriv``), so that the process limit binds (root is exempt from
RLIMIT_NPROC), and the interpreter must then be readable by ``nobody`` (with a cgroup too:
bwrap's user namespace gives root no right to enter a directory closed to others); the probe
names the directory on the way that is closed (``/root``, mode 700, above pyenv's). The
program's source is copied in (``--ro-bind-data``), so no other run can touch it.

Budget: where a cgroup can be made (``sandbox_budget``), memory and processes are
one budget for the whole run; elsewhere the run is a single process (RLIMIT_NPROC
of 1 in its own user namespace) under RLIMIT_AS, and ``budget_note`` says so.
CPU seconds, file size, open files and core dumps are bounded by ``prlimit`` inside
the sandbox. The wall-clock deadline is enforced from outside: the process group
and the budget are killed. Output goes to files outside the sandbox, bounded by
the file size limit.

Where bwrap is missing or cannot make its namespaces, ``run_python`` raises
``SandboxUnavailable`` naming what is missing, unless ``allow_unsandboxed(True)``
was called (``leash verify --allow-unsandboxed-code``): then the program runs as
before on the host, in a private directory, under rlimits only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sampler.errors import LeashError
from sampler.verify.verifiers.sandbox_budget import (
    Budget,
    budget_available,
    make_budget,
    owner_pid,
    pid_alive,
)

NOBODY = 65534
#: The bubblewrap executable (tests point it elsewhere to simulate a machine without it).
BWRAP = "bwrap"
_SCRUBBED_PATH = "/usr/local/bin:/usr/bin:/bin"
_WORK = "/work"
#: The sandbox's writable places: each a tmpfs of at most ``Limits.file_mb``.
TMPFS_MOUNTS = ("/tmp", _WORK, "/dev/shm")
_INSIDE_ENV = {
    "PATH": _SCRUBBED_PATH,
    "LANG": "C.UTF-8",
    "HOME": _WORK,
    "TMPDIR": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONHASHSEED": "0",
    "PYTHONIOENCODING": "utf-8",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
#: Set (to 1) when the user accepts unsandboxed runs; an environment variable, so that
#: verification workers started afterwards see it too.
ALLOW_ENV = "LEASH_ALLOW_UNSANDBOXED_CODE"


class SandboxUnavailable(LeashError):
    """No isolation on this machine, and the user did not accept running unsandboxed."""


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
    out_of_memory: bool = False

    @property
    def output_limit(self) -> bool:
        return "File too large" in self.stderr or self.returncode in (
            -signal.SIGXFSZ,
            128 + signal.SIGXFSZ,
        )

    @property
    def memory_limit(self) -> bool:
        return self.out_of_memory or "MemoryError" in self.stderr

    @property
    def cpu_limit(self) -> bool:
        return self.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU, -signal.SIGKILL, 137)


def allow_unsandboxed(allowed: bool) -> None:
    """Accept (or stop accepting) running programs without isolation where none can be had."""
    if allowed:
        os.environ[ALLOW_ENV] = "1"
    else:
        os.environ.pop(ALLOW_ENV, None)


def _allowed() -> bool:
    return os.environ.get(ALLOW_ENV) == "1"


def python_executable() -> str:
    """The interpreter that runs programs: the base one, not this environment's venv."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


def _root_binds() -> list[str]:
    """The read-only minimal root: /usr, the merged-/usr links, the interpreter's prefix."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    prefixes = {os.path.realpath(sys.base_prefix), os.path.dirname(python_executable())}
    for prefix in sorted(prefixes):
        if prefix != "/usr" and not prefix.startswith("/usr/"):
            args += ["--ro-bind", prefix, prefix]
    return args


def _bwrap_argv(
    bwrap: str,
    limits: Limits,
    data: dict[str, int],
    extra_ro: Sequence[str],
    first: bool = False,
) -> list:
    size = str(limits.file_mb * 1024 * 1024)
    argv = [bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc"]
    if first:  # the command is the namespace's pid 1: no bwrap process inside holds its stdin
        argv.append("--as-pid-1")
    if os.geteuid() == 0 and budget_available():  # the cgroup bounds processes: stay root
        argv += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
    argv += ["--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    argv += _root_binds()
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for mount in TMPFS_MOUNTS:  # every writable place is a tmpfs of at most file_mb
        argv += ["--size", size, "--tmpfs", mount]
    for path in sorted({os.path.realpath(p) for p in extra_ro}):
        argv += ["--ro-bind", path, path]
    for dest, fd in data.items():
        argv += ["--ro-bind-data", str(fd), dest]
    # bwrap's own tmpfs (the root, /dev) cannot be sized: read-only, the devices still work
    argv += ["--remount-ro", "/dev", "--remount-ro", "/"]
    argv += ["--chdir", _WORK, "--clearenv"]
    for key, value in _INSIDE_ENV.items():
        argv += ["--setenv", key, value]
    return [*argv, "--"]


def _as_nobody() -> list[str]:
    """As root without a cgroup, drop to nobody first, so that RLIMIT_NPROC binds."""
    if os.geteuid() != 0 or budget_available():
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise SandboxUnavailable(
            "code grading as root needs setpriv (util-linux) to drop to nobody"
        )
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]


def tmpfs_bytes(limits: Limits) -> int:
    """The most the sandbox's tmpfs mounts can hold together (memory, outside RLIMIT_AS)."""
    return len(TMPFS_MOUNTS) * limits.file_mb * 1024 * 1024


def _prlimit(limits: Limits, processes: int, address_space: int | None = None) -> list[str]:
    prlimit = shutil.which("prlimit", path="/usr/bin:/bin")
    if prlimit is None:
        return []
    memory = limits.memory_mb * 1024 * 1024 if address_space is None else address_space
    return [
        prlimit,
        f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",
        f"--as={memory}",
        f"--fsize={limits.file_mb * 1024 * 1024}",
        f"--nproc={processes}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


@cache
def _probe(bwrap: str) -> str | None:
    """None when ``bwrap`` runs Python in the sandbox here, else what is missing."""
    found = shutil.which(bwrap)
    if found is None:
        return f"bubblewrap ({bwrap!r}) is not installed (apt-get install bubblewrap)"
    try:
        argv = [*_as_nobody(), *_bwrap_argv(found, Limits(), {}, ())]
    except SandboxUnavailable as exc:
        return str(exc)
    # run by root, the sandbox's user is nobody, before bwrap or inside its user namespace
    closed = _closed_to_others(os.path.dirname(python_executable())) if os.geteuid() == 0 else None
    if closed is not None:
        return (
            f"programs run as nobody, who cannot enter {closed} to reach the interpreter"
            f" {python_executable()} (chmod o+x {closed} lets others pass through it, not list"
            " it; or use a Python installed outside a private home)"
        )
    try:
        done = subprocess.run(
            [*argv, python_executable(), "-I", "-c", "print('ok')"],
            capture_output=True,
            timeout=20,
            check=False,
            env={"PATH": _SCRUBBED_PATH},
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bubblewrap could not start: {exc}"
    if done.returncode != 0 or done.stdout.strip() != b"ok":
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return "bubblewrap cannot make its namespaces here" + (
            f" ({reason[-1][:200]})" if reason else ""
        )
    return None


def _closed_to_others(path: str) -> str | None:
    """The first directory on the way to ``path`` that users other than its owner cannot
    enter (``/root``, mode 700, above pyenv's interpreters), else None."""
    parts = Path(path).parts
    for depth in range(2, len(parts) + 1):
        directory = os.path.join(*parts[:depth])
        try:
            if not os.stat(directory).st_mode & stat.S_IXOTH:
                return directory
        except OSError:
            return directory
    return None


def sandbox_problem() -> str | None:
    """Why programs cannot be sandboxed on this machine, or None when they can."""
    return _probe(BWRAP)


def require_sandbox(what: str = "code grading") -> None:
    """A ``SandboxUnavailable`` naming what is missing, unless isolation works or is waived."""
    problem = sandbox_problem()
    if problem is not None and not _allowed():
        raise SandboxUnavailable(
            f"{what} runs model-written programs and refuses to run them unsandboxed: {problem};"
            " pass --allow-unsandboxed-code to run them anyway"
        )


def budget_note() -> str:
    """How a run's memory and processes are bounded on this machine, in words."""
    if budget_available():
        return "memory and processes: one cgroup budget per run"
    return "memory and processes: no writable cgroup, so each run is one process under RLIMIT_AS"


def _read(path: Path, limit: int) -> str:
    with open(path, "rb") as handle:
        return handle.read(limit).decode("utf-8", errors="replace")


def _memfd(name: str, content: bytes) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, content)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _remove_tree(path: Path) -> None:
    """Remove ``path`` whatever its depth (``rm -rf`` walks without recursion limits)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["rm", "-rf", "--one-file-system", str(path)], check=False, timeout=60)


@dataclass
class _Run:
    argv: list[str]
    pass_fds: tuple[int, ...] = ()
    cwd: str = "/"
    env: dict[str, str] = field(default_factory=lambda: {"PATH": _SCRUBBED_PATH})
    budget: Budget | None = None


def _sandboxed(
    files: dict[str, bytes],
    argv: Sequence[str],
    limits: Limits,
    extra_ro: Sequence[str],
    harness: int,
) -> _Run:
    bwrap = shutil.which(BWRAP) or BWRAP
    budget = make_budget(limits.memory_mb * 1024 * 1024, limits.processes + 2 + harness)
    fds = {dest: _memfd(Path(dest).name, content) for dest, content in files.items()}
    processes = limits.processes + harness if budget is not None else 1 + harness
    command = [*_as_nobody(), *_bwrap_argv(bwrap, limits, fds, extra_ro, first=harness > 0)]
    memory = limits.memory_mb * 1024 * 1024
    if budget is None:  # tmpfs pages are charged to a cgroup, not to RLIMIT_AS: count them
        memory = max(memory // 4, memory - tmpfs_bytes(limits))
    command += [*_prlimit(limits, processes, memory), *argv]
    if budget is not None:
        command = [*budget.enter_argv(), *command]
    return _Run(command, tuple(fds.values()), budget=budget)


def _unsandboxed(files: dict[str, bytes], argv: Sequence[str], limits: Limits, top: Path) -> _Run:
    work = top / "work"
    work.mkdir()
    for dest, content in files.items():
        (work / Path(dest).name).write_bytes(content)
    local = [str(work / Path(a).name) if a in files else a for a in argv]
    env = {**_INSIDE_ENV, "HOME": str(work), "TMPDIR": str(work)}
    return _Run([*_prlimit(limits, limits.processes), *local], cwd=str(work), env=env)


#: A run's scratch folder on the host: ``leash-code-<pid of the leash process>-<random>``.
SCRATCH_PREFIX = "leash-code-"
_SCRATCH_CLEANED: set[int] = set()


def remove_stale_scratch(directory: str | None = None) -> int:
    """Once per process: remove the scratch folders of leash processes that died (``kill
    -9`` during a run), this user's own and no links; returns how many went."""
    if directory is None and os.getpid() in _SCRATCH_CLEANED:
        return 0
    _SCRATCH_CLEANED.add(os.getpid())
    top = Path(directory or tempfile.gettempdir())
    removed = 0
    try:
        entries = list(os.scandir(top))
    except OSError:
        return 0
    for entry in entries:
        pid = owner_pid(entry.name, SCRATCH_PREFIX)
        if pid is None or pid_alive(pid):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
                _remove_tree(Path(entry.path))
                removed += not os.path.lexists(entry.path)
    return removed


def run_sandboxed(
    files: dict[str, bytes],
    argv: Sequence[str],
    stdin: bytes | int = b"",
    limits: Limits = Limits(),
    extra_ro: Sequence[str] = (),
    harness: int = 0,
) -> RunResult:
    """Run ``argv`` in the sandbox with ``files`` (absolute path inside → content) copied in.

    ``stdin`` is the input's bytes or an open file descriptor (a pipe or memory file the
    caller wrote); ``extra_ro`` are host directories to show read-only (a package's
    environment). ``harness`` is the number of processes a harness adds beside the
    program's own (it forks the program and keeps what the program must not see): it
    then runs as the sandbox's first process (``--as-pid-1``), so that no bwrap process
    inside holds a copy of its stdin where ``/proc/1/fd`` would show it.
    """
    problem = sandbox_problem()
    if problem is not None and not _allowed():
        require_sandbox()
    remove_stale_scratch()
    top = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))  # 0700: unseen inside
    run: _Run | None = None
    try:
        if problem is None:
            run = _sandboxed(files, argv, limits, extra_ro, harness)
        else:
            run = _unsandboxed(files, argv, limits, top)
        if isinstance(stdin, bytes):
            (top / "stdin").write_bytes(stdin)
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            stdin_file = (
                stdin if isinstance(stdin, int) else stack.enter_context(open(top / "stdin", "rb"))
            )
            out = stack.enter_context(open(top / "stdout", "wb"))
            err = stack.enter_context(open(top / "stderr", "wb"))
            process = subprocess.Popen(
                run.argv,
                stdin=stdin_file,
                stdout=out,
                stderr=err,
                cwd=run.cwd,
                env=run.env,
                start_new_session=True,
                close_fds=True,
                pass_fds=run.pass_fds,
            )
            timed_out = False
            try:
                process.wait(timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                # the whole group and budget, also when it ended: it may leave children behind
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                if run.budget is not None:
                    run.budget.kill()
                process.wait()
        seconds = time.monotonic() - started
        cap = limits.file_mb * 1024 * 1024
        return RunResult(
            returncode=None if timed_out else process.returncode,
            stdout=_read(top / "stdout", cap),
            stderr=_read(top / "stderr", 64 * 1024),
            timed_out=timed_out,
            seconds=seconds,
            out_of_memory=run.budget is not None and run.budget.out_of_memory(),
        )
    finally:
        if run is not None:
            for fd in run.pass_fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            if run.budget is not None:
                run.budget.close()
        _remove_tree(top)


def run_python(source: str, stdin: str | int = "", limits: Limits = Limits()) -> RunResult:
    """Run ``source`` as a Python program with ``stdin``; see the module docstring."""
    program = f"{_WORK}/solution.py"
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    return run_sandboxed(
        {program: source.encode("utf-8")}, [python_executable(), "-I", program], data, limits
    )
