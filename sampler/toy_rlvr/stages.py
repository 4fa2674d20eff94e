"""Stage markers of a ``leash demo --train`` run: a finished stage is not done again.

Each stage that finishes writes ``<work>/stages/<name>.json`` atomically (through the
store's ``atomic_text_writer``) with the settings it ran with and its wall and CPU
seconds. A stage whose marker exists with the same settings is skipped; a marker with
other settings is an error (the folder belongs to another run), so a resumed run never
mixes two configurations.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.store import atomic_text_writer


@dataclass
class StageClock:
    """Wall and CPU (user + system, this process and its finished children) seconds."""

    wall: float = 0.0
    cpu: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Stages:
    """The markers of one run's work folder."""

    def __init__(self, work: Path) -> None:
        self.dir = Path(work) / "stages"

    def marker(self, name: str) -> Path:
        return self.dir / f"{name}.json"

    def done(self, name: str, settings: dict[str, Any]) -> dict[str, Any] | None:
        """The marker of a finished stage run with ``settings``, or None if it has to run."""
        path = self.marker(name)
        if not path.exists():
            return None
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LeashError(f"{path}: unreadable stage marker ({exc}); delete it") from exc
        if record.get("settings") != settings:
            raise LeashError(
                f"{path}: stage {name!r} of this folder ran with other settings"
                f" ({record.get('settings')}); use a new folder (-o) or the same options"
            )
        return record

    @contextmanager
    def run(self, name: str, settings: dict[str, Any]) -> Iterator[StageClock]:
        """Time the block; when it ends without an error, write the stage's marker."""
        clock = StageClock()
        wall, cpu = time.monotonic(), _cpu_seconds()
        yield clock
        clock.wall = time.monotonic() - wall
        clock.cpu = _cpu_seconds() - cpu
        record = {
            "stage": name,
            "settings": settings,
            "wall_seconds": round(clock.wall, 2),
            "cpu_seconds": round(clock.cpu, 2),
            **clock.extra,
        }
        with atomic_text_writer(self.marker(name)) as handle:
            json.dump(record, handle, indent=2)
            handle.write("\n")
