"""The records ``--skip-bad-records`` skipped, counted by file and reason.

A run killed and resumed leaves a truncated last line; a trainer may write a record it
could not finish. With ``--skip-bad-records`` such a record is skipped rather than refusing
the import (``record_file.RecordFile``), and ``BadRecords`` counts it under its file and
reason (the error without its place or the value found: ``not valid JSON``, ``field
'traces' must be ...``), keeping the first place of each. The import summary names every
file and reason with its count, and the manifest's notes keep the same lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

#: Where a reason's details start: the value found, the fields listed, JSON's own words.
_DETAILS = re.compile(r", got |\s+\(fields: |(?<=not valid JSON) \(|(?<=not UTF-8 text) \(")


@dataclass
class BadRecords:
    """Skipped records: file -> reason -> (count, first place)."""

    by_file: dict[str, dict[str, list]] = field(default_factory=dict)

    def add(self, path: Path | str, where: str, message: str) -> None:
        reason = reason_of(message, where)
        counts = self.by_file.setdefault(str(path), {})
        entry = counts.setdefault(reason, [0, where])
        entry[0] += 1

    @property
    def total(self) -> int:
        return sum(n for reasons in self.by_file.values() for n, _ in reasons.values())

    def lines(self) -> list[str]:
        """One line per file and reason: ``PATH: N record(s) skipped: REASON (first: WHERE)``."""
        return [
            f"{path}: {n} bad record(s) skipped (--skip-bad-records): {reason} (first at"
            f" {where.removeprefix(path).strip()})"
            for path, reasons in self.by_file.items()
            for reason, (n, where) in reasons.items()
        ]


def reason_of(message: str, where: str) -> str:
    """The reason of a record's error: its message without the place and the value found."""
    text = message.removeprefix(where).lstrip(": ").strip()
    match = _DETAILS.search(text)
    return (text[: match.start()] if match else text).rstrip(" .;:")
