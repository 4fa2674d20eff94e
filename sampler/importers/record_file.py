"""One input file read record by record: the loop every format module shares.

A format module gives ``RecordFile.read`` the file's records (``json_records`` for JSON
Lines, or rows it reads itself) and a function that reads one record (a ``Fields``) and
stages its samples and questions through the file (``groups.add``, ``stage``,
``note_question``). The file

* names the record in every error (``PATH line N: ...``);
* hands what a record staged to the session only once the whole record has been read, so
  that a record refused half way leaves nothing behind;
* under ``--skip-bad-records`` skips a bad record (not valid JSON, a field missing or of the
  wrong type) and counts it by file and reason (``ImportSession.bad_records``); without the
  option, the error says that it exists;
* refuses a file with no records, and checks the group sizes of its questions
  (``trainer_samples.QuestionGroups.check_sizes``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

from sampler.benchmarks.files import parse_json_line
from sampler.errors import LeashError
from sampler.importers.protocol import SourceRead
from sampler.importers.source_fields import Fields, stage_question_samples
from sampler.importers.trainer_samples import QuestionGroups

#: What the error of a bad record adds when ``--skip-bad-records`` is not given.
SKIP_HINT = "; --skip-bad-records skips such records (counted in the import summary)"

Record = dict[str, Any]


def json_records(path: Path) -> Iterator[tuple[int, Record | LeashError]]:
    """(line number, JSON object) of each non-blank line; a bad line gives its LeashError in
    place of the record (the reading goes on), a file that cannot be opened raises."""
    with _opened(path) as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                yield number, _json_object(raw, f"{path} line {number}")


@contextmanager
def _opened(path: Path) -> Iterator[BinaryIO]:
    """``path`` opened for reading bytes; a file that cannot be opened is a LeashError."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    with handle:
        yield handle


def _json_object(raw: bytes, where: str) -> Record | LeashError:
    """One line's JSON object, or the LeashError that says why it is none."""
    try:
        record = parse_json_line(raw.decode("utf-8"), where)
    except UnicodeDecodeError as exc:
        return LeashError(f"{where}: not UTF-8 text (byte {exc.start + 1} of the line)")
    except LeashError as exc:
        return exc
    if isinstance(record, dict):
        return record
    return LeashError(f"{where}: expected a JSON object, got a {type(record).__name__}")


class RecordFile:
    """One registered input file of ``source``, read record by record (module docstring)."""

    def __init__(
        self,
        source: SourceRead,
        path: Path,
        fmt: str,
        unit: str = "line",
        model: str | None = None,
    ):
        self.source = source
        self.session = source.session
        self.path = path
        self.fmt = fmt
        self.model = model or source.model
        self.index = self.session.file(path, unit, self.model)
        self._pending: list[Callable[[], None]] = []
        self.groups = QuestionGroups(self.session, self.index, self._pending)

    def where(self, number: int) -> str:
        return self.session.where(self.index, number)

    def stage(self, *args: Any, **kwargs: Any) -> None:
        """``source_fields.stage_question_samples(session, file, *args, **kwargs)``: one
        question's completions, staged once the record is read."""
        self._pending.append(
            partial(stage_question_samples, self.session, self.index, *args, **kwargs)
        )

    def note_question(self, *args: Any) -> None:
        """``ImportSession.note_question(*args)`` once the record is read."""
        self._pending.append(partial(self.session.note_question, *args))

    def read(
        self,
        records: Iterable[tuple[int, Record | LeashError]],
        read_record: Callable[[Fields], None],
        what: str = "samples",
    ) -> int:
        """Read every record with ``read_record``; the number of records read (module doc)."""
        good = bad = 0
        for number, record in records:
            try:
                if isinstance(record, LeashError):
                    raise record
                read_record(Fields(self.where(number), record, self.fmt, number))
            except LeashError as exc:
                self._pending.clear()
                if not self.session.skip_bad_records:
                    raise LeashError(f"{exc}{SKIP_HINT}") from None
                self.session.bad_records.add(self.path, self.where(number), str(exc))
                bad += 1
                continue
            for staged in self._pending:
                staged()
            self._pending.clear()
            good += 1
        if good == 0 and bad == 0:
            raise LeashError(f"{self.path}: no {what} (empty file)")
        self.groups.check_sizes()
        return good
