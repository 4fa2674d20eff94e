"""One memory and process budget for a whole sandboxed run: its own cgroup, where one can be made.

``make_budget`` creates a child of the cgroup this process is in (cgroup v2 with the
``memory`` and ``pids`` controllers delegated, or the v1 ``memory`` and ``pids``
hierarchies) with a memory limit (swap included where the kernel says so) and a
process limit, so that every process the program forks counts against the same
budget. The run enters it before the sandbox starts (``enter_argv``: a shell that
writes its own pid, then ``exec``s), is killed whole from it (``kill``) and the
budget is removed afterwards (``close``). Where no cgroup is writable it returns
None, and the sandbox falls back to a single process under RLIMIT_AS. A budget is named
after the leash process that made it; budgets of processes that died (``kill -9``) are
killed and removed when the next leash process makes its first one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_CGROUP_ROOT = Path("/sys/fs/cgroup")
#: A budget's name: ``leash-run-<pid of the leash process>-<random>``.
RUN_PREFIX = "leash-run-"


def _mounts() -> dict[str, Path]:
    """Mount point of each cgroup hierarchy by controller (``""`` for the v2 one)."""
    found: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        if tail[0] == "cgroup2":
            found.setdefault("", Path(fields[4]))
        elif tail[0] == "cgroup":
            for option in tail[2].split(","):
                if option in ("memory", "pids"):
                    found.setdefault(option, Path(fields[4]))
    return found


def _own_paths() -> dict[str, str]:
    """This process's cgroup path by controller (``""`` for v2), from /proc/self/cgroup."""
    found: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for controller in parts[1].split(",") if parts[1] else [""]:
            found[controller] = parts[2]
    return found


@dataclass(frozen=True)
class _Layout:
    version: int
    parents: tuple[Path, ...]  # v2: one directory; v1: memory's, then pids'


@cache
def _layout() -> _Layout | None:
    mounts, own = _mounts(), _own_paths()
    if "" in mounts and "" in own:
        parent = mounts[""] / own[""].lstrip("/")
        try:
            delegated = set((parent / "cgroup.subtree_control").read_text().split())
        except OSError:
            delegated = set()
        if {"memory", "pids"} <= delegated and os.access(parent, os.W_OK):
            return _Layout(2, (parent,))
    if {"memory", "pids"} <= set(mounts) and {"memory", "pids"} <= set(own):
        parents = tuple(mounts[c] / own[c].lstrip("/") for c in ("memory", "pids"))
        if all(p.is_dir() and os.access(p, os.W_OK) for p in parents):
            return _Layout(1, parents)
    return None


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
    except OSError:
        return False
    return True


class Budget:
    """A cgroup (v2) or a pair of them (v1) that one run lives in."""

    def __init__(self, layout: _Layout, memory_bytes: int, processes: int):
        name = f"{RUN_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.version = layout.version
        self.dirs = tuple(parent / name for parent in layout.parents)
        made: list[Path] = []
        try:
            for directory in self.dirs:
                directory.mkdir()
                made.append(directory)
        except OSError:
            for directory in made:
                with contextlib.suppress(OSError):
                    directory.rmdir()
            raise
        if self.version == 2:
            (cg,) = self.dirs
            ok = _write(cg / "memory.max", str(memory_bytes)) and _write(
                cg / "pids.max", str(processes)
            )
            _write(cg / "memory.swap.max", "0")
        else:
            memory, pids = self.dirs
            ok = _write(memory / "memory.limit_in_bytes", str(memory_bytes)) and _write(
                pids / "pids.max", str(processes)
            )
            _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
        if not ok:
            self.close()
            raise OSError("cgroup limits could not be set")

    def enter_argv(self) -> list[str]:
        """A command prefix that moves itself into the budget, then runs the rest."""
        writes = " && ".join(f"echo $$ > '{d}/cgroup.procs'" for d in self.dirs)
        return ["/bin/sh", "-c", f'{writes} && exec "$@"', "leash-budget"]

    def _procs(self) -> list[int]:
        pids: list[int] = []
        for directory in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                pids += [int(p) for p in (directory / "cgroup.procs").read_text().split()]
        return pids

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the run for its memory limit."""
        try:
            if self.version == 2:
                events = (self.dirs[0] / "memory.events").read_text().split()
                return int(dict(zip(events[::2], events[1::2], strict=False))["oom_kill"]) > 0
            control = (self.dirs[0] / "memory.oom_control").read_text().split()
            return int(dict(zip(control[::2], control[1::2], strict=False))["oom_kill"]) > 0
        except (OSError, KeyError, ValueError):
            return False

    def kill(self) -> None:
        """Every process of the run killed, however it detached itself."""
        if self.version == 2 and _write(self.dirs[0] / "cgroup.kill", "1"):
            return
        for _ in range(100):
            pids = self._procs()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def close(self) -> None:
        """Kill what is left and remove the cgroups (retried while the kernel reaps)."""
        self.kill()
        for directory in self.dirs:
            for _ in range(200):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_pid(name: str, prefix: str) -> int | None:
    """The pid in ``<prefix><pid>-<hex>`` (the names this module and the sandbox give)."""
    pid, _, rest = name[len(prefix) :].partition("-")
    return int(pid) if name.startswith(prefix) and pid.isdigit() and rest else None


def remove_stale_budgets(layout: _Layout | None = None) -> int:
    """Remove the budgets (``leash-run-<pid>-*``) of runs whose leash process died (a
    ``kill -9``), killing what is left in them first; returns how many went."""
    layout = layout or _layout()
    if layout is None:
        return 0
    removed = 0
    for parent in layout.parents:
        try:
            names = [e.name for e in os.scandir(parent) if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for name in names:
            pid = owner_pid(name, RUN_PREFIX)
            if pid is None or pid_alive(pid):
                continue
            stale = object.__new__(Budget)
            stale.version, stale.dirs = layout.version, (parent / name,)
            stale.close()
            removed += not (parent / name).exists()
    return removed


_CLEANED: set[int] = set()


def make_budget(memory_bytes: int, processes: int) -> Budget | None:
    """A budget for one run, or None where this machine gives no writable cgroup. The first
    one a process makes removes what dead runs left (``remove_stale_budgets``)."""
    layout = _layout()
    if layout is None:
        return None
    if os.getpid() not in _CLEANED:
        _CLEANED.add(os.getpid())
        remove_stale_budgets(layout)
    try:
        return Budget(layout, memory_bytes, processes)
    except OSError:
        return None


def budget_available() -> bool:
    """Whether runs get a cgroup budget here (else: one process each)."""
    return _layout() is not None
