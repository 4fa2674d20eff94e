"""The triage journal: tags and notes a user gives questions, in the results folder.

One file, ``triage.jsonl``, append-only, one JSON object a line. Each line is an
update of one question seen through one base/target pair: it sets the ``tag``, the
``note`` or both (a field that is absent is left as it was; ``null`` clears it).
The current state of a question is every update folded in file order, so the last
write per question and field wins.

Safety rules, because a user's triage is hours of work:
- a line is written with one ``write`` on a descriptor opened ``O_APPEND``, under an
  advisory ``flock``, and ``fsync``'d before :meth:`TriageJournal.record` returns, so
  the UI says "saved" only once the line is on disk, and two explorers open on the
  same folder never overwrite each other's lines;
- a crash can leave a torn last line; readers skip a line that is not complete JSON,
  and the next writer starts its line on a fresh line so nothing is glued to it;
- readers can follow the file (:meth:`TriageJournal.refresh`) to see tags written by
  another explorer since they last looked.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sampler.errors import LeashError
from sampler.store.journals.safe_files import loads_json, open_for_update, read_bytes

JOURNAL_FILE = "triage.jsonl"
JOURNAL_VERSION = 1

#: Tag name -> (short label for the question list, description for help and export).
TAGS: dict[str, tuple[str, str]] = {
    "real_loss": ("real", "real loss: the target lost a question the base could solve"),
    "lucky_base": ("lucky", "lucky guess by base: its correct samples look like guesses"),
    "verifier_error": ("verif", "verifier error: a verdict is wrong"),
    "format": ("format", "format or truncation: answers lost to formatting or length"),
    "unclear": ("unclr", "unclear: needs another look"),
}

#: A question's triage is kept per base/target pair.
TriageKey = tuple[str, str, str, str]  # benchmark, question_id, base, target


@dataclass
class TriageEntry:
    """The current triage of one question for one pair."""

    benchmark: str
    question_id: str
    base: str
    target: str
    tag: str | None = None
    note: str | None = None
    updated: str = ""

    @property
    def key(self) -> TriageKey:
        return (self.benchmark, self.question_id, self.base, self.target)

    @property
    def empty(self) -> bool:
        return self.tag is None and not self.note


#: Largest triage journal a reader loads.
MAX_TRIAGE_BYTES = 256 * 1024 * 1024


def journal_path(root: Path | str) -> Path:
    return Path(root) / JOURNAL_FILE


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _parse_lines(data: bytes) -> Iterator[dict]:
    """Complete JSON objects in ``data``; torn or damaged lines are skipped."""
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            obj = loads_json(raw, "triage line")
        except LeashError:
            continue
        if isinstance(obj, dict):
            yield obj


class TriageJournal:
    """Reads, follows and appends to one results folder's triage journal."""

    def __init__(self, root: Path | str):
        self.path = journal_path(root)
        self._entries: dict[TriageKey, TriageEntry] = {}
        self._offset = 0  # bytes of the file folded in so far (always at a line end)
        self.skipped_lines = 0
        self.refresh()

    # -- reading --------------------------------------------------------------------
    def refresh(self) -> bool:
        """Fold in lines appended since the last read; True when anything changed."""
        try:
            data = read_bytes(self.path, MAX_TRIAGE_BYTES, self._offset)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise LeashError(f"{self.path}: cannot read the triage journal ({exc})") from exc
        end = data.rfind(b"\n")
        if end < 0:
            return False  # nothing new, or only a line still being written / torn
        complete = data[: end + 1]
        self._offset += len(complete)
        changed = False
        lines = [ln for ln in complete.split(b"\n") if ln.strip()]
        parsed = list(_parse_lines(complete))
        self.skipped_lines += len(lines) - len(parsed)
        for obj in parsed:
            changed |= self._apply(obj)
        return changed

    def _apply(self, obj: dict) -> bool:
        try:
            key = (
                str(obj["benchmark"]),
                str(obj["question_id"]),
                str(obj["base"]),
                str(obj["target"]),
            )
        except KeyError:
            self.skipped_lines += 1
            return False
        entry = self._entries.get(key) or TriageEntry(*key)
        if "tag" in obj:
            tag = obj["tag"]
            entry.tag = tag if isinstance(tag, str) and tag else None
        if "note" in obj:
            note = obj["note"]
            entry.note = note if isinstance(note, str) and note else None
        entry.updated = str(obj.get("time", entry.updated))
        self._entries[key] = entry
        return True

    def get(self, benchmark: str, question_id: str, base: str, target: str) -> TriageEntry | None:
        entry = self._entries.get((benchmark, question_id, base, target))
        return None if entry is None or entry.empty else entry

    def entries(self, base: str | None = None, target: str | None = None) -> list[TriageEntry]:
        """Current non-empty entries, optionally for one pair, in (benchmark, id) order."""
        chosen = [
            e
            for e in self._entries.values()
            if not e.empty
            and (base is None or e.base == base)
            and (target is None or e.target == target)
        ]
        return sorted(chosen, key=lambda e: (e.benchmark, e.question_id, e.base, e.target))

    def tags_for_pair(self, base: str, target: str) -> dict[tuple[str, str], TriageEntry]:
        """(benchmark, question_id) -> entry for one pair."""
        return {(e.benchmark, e.question_id): e for e in self.entries(base, target)}

    # -- writing --------------------------------------------------------------------
    def record(
        self,
        benchmark: str,
        question_id: str,
        base: str,
        target: str,
        **fields: str | None,
    ) -> TriageEntry:
        """Append an update (``tag=...`` and/or ``note=...``), durably; return the new state.

        Returns only after the line is fsync'd. Lines other explorers appended in the
        meantime are folded in first, so the returned state is the file's state.
        """
        unknown = set(fields) - {"tag", "note"}
        if unknown or not fields:
            raise ValueError(f"record() takes tag= and/or note=, got {sorted(fields)}")
        tag = fields.get("tag")
        if tag is not None and tag not in TAGS:
            raise ValueError(f"unknown tag {tag!r}; known: {', '.join(TAGS)}")
        obj: dict = {
            "v": JOURNAL_VERSION,
            "time": _now(),
            "benchmark": benchmark,
            "question_id": question_id,
            "base": base,
            "target": target,
            **fields,
        }
        line = json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n"
        self._append(line)
        self.refresh()
        entry = self._entries.get((benchmark, question_id, base, target))
        return entry or TriageEntry(benchmark, question_id, base, target)

    def _append(self, line: bytes) -> None:
        try:
            opened = open_for_update(self.path, os.O_APPEND)
            fd = opened.__enter__()
        except OSError as exc:
            raise LeashError(f"{self.path}: cannot write the triage journal ({exc})") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    line = b"\n" + line  # a torn line from a crash: start on a fresh line
                written = os.write(fd, line)
                if written != len(line):
                    raise OSError(f"short write ({written} of {len(line)} bytes)")
                os.fsync(fd)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        except OSError as exc:
            raise LeashError(f"{self.path}: cannot write the triage journal ({exc})") from exc
        finally:
            opened.__exit__(None, None, None)
