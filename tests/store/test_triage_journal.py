"""The triage journal: durable appends, last write wins, two writers, torn lines."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from sampler.store.journals.triage_journal import JOURNAL_FILE, TriageJournal


def test_tag_and_note_survive_reopen_and_last_write_wins(tmp_path: Path) -> None:
    journal = TriageJournal(tmp_path)
    journal.record("aime24", "7", "base", "rl", tag="real_loss")
    journal.record("aime24", "7", "base", "rl", note="checked by hand")
    journal.record("aime24", "7", "base", "rl", tag="unclear")
    again = TriageJournal(tmp_path)
    entry = again.get("aime24", "7", "base", "rl")
    assert entry is not None
    assert (entry.tag, entry.note) == ("unclear", "checked by hand")
    # another pair of the same question is separate
    assert again.get("aime24", "7", "base", "other") is None


def test_clearing_tag_and_note_removes_the_entry(tmp_path: Path) -> None:
    journal = TriageJournal(tmp_path)
    journal.record("b", "1", "base", "rl", tag="format", note="x")
    journal.record("b", "1", "base", "rl", tag=None, note=None)
    assert TriageJournal(tmp_path).get("b", "1", "base", "rl") is None
    assert TriageJournal(tmp_path).entries() == []


def test_unknown_tag_is_refused_and_nothing_written(tmp_path: Path) -> None:
    journal = TriageJournal(tmp_path)
    with pytest.raises(ValueError, match="unknown tag"):
        journal.record("b", "1", "base", "rl", tag="nope")
    assert not (tmp_path / JOURNAL_FILE).exists()


def test_refresh_sees_tags_written_by_another_explorer(tmp_path: Path) -> None:
    mine, theirs = TriageJournal(tmp_path), TriageJournal(tmp_path)
    theirs.record("b", "2", "base", "rl", tag="lucky_base")
    assert mine.get("b", "2", "base", "rl") is None
    assert mine.refresh() is True
    assert mine.get("b", "2", "base", "rl").tag == "lucky_base"
    assert mine.refresh() is False


def test_torn_last_line_is_skipped_and_next_write_starts_fresh(tmp_path: Path) -> None:
    journal = TriageJournal(tmp_path)
    journal.record("b", "1", "base", "rl", tag="real_loss")
    path = tmp_path / JOURNAL_FILE
    # a crash in the middle of a write leaves half a line
    with open(path, "ab") as handle:
        handle.write(b'{"v": 1, "benchmark": "b", "question_id": "2", "ba')
    reader = TriageJournal(tmp_path)
    assert [e.question_id for e in reader.entries()] == ["1"]
    reader.record("b", "3", "base", "rl", tag="unclear")
    lines = path.read_bytes().split(b"\n")
    assert json.loads(lines[-2])["question_id"] == "3"  # not glued to the torn fragment
    final = TriageJournal(tmp_path)
    assert [e.question_id for e in final.entries()] == ["1", "3"]
    assert final.skipped_lines == 1


def test_garbage_lines_are_skipped(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_FILE).write_bytes(
        b'not json\n[1, 2]\n{"benchmark": "b"}\n\xff\xfe\n'
        b'{"benchmark": "b", "question_id": "9", "base": "x", "target": "y", "tag": "format"}\n'
    )
    journal = TriageJournal(tmp_path)
    assert [(e.question_id, e.tag) for e in journal.entries()] == [("9", "format")]
    assert journal.skipped_lines == 4


def _writer(root: str, who: str, count: int) -> None:
    journal = TriageJournal(root)
    for i in range(count):
        journal.record("b", f"{who}-{i}", "base", "rl", tag="real_loss", note=who * 50)


def test_two_writer_processes_lose_nothing(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    count = 150
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), who, count)) for who in "AB"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    journal = TriageJournal(tmp_path)
    assert journal.skipped_lines == 0
    ids = {e.question_id for e in journal.entries()}
    assert ids == {f"{who}-{i}" for who in "AB" for i in range(count)}
    for line in (tmp_path / JOURNAL_FILE).read_text().splitlines():
        assert json.loads(line)["note"] in ("A" * 50, "B" * 50)
