"""ResultsFolder folders written by someone else (issue #22 items 9-11, 13-15): paths read from the
folder stay inside it, links and special files are refused, JSON is parsed with limits, and
CSV printed to a terminal shows control characters. Each failure is one line naming the file.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.journals.locks import exclusive_lock
from sampler.store.journals.triage_journal import TriageJournal
from sampler.store.manifest import load_manifest
from sampler.store.shards.writer import read_questions
from tests.support.folder_builders import build_folder

SPEC = {("b", "q1"): {"base": "C C I I", "rlvr": "C C C I"}}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return build_folder(tmp_path / "run", SPEC)


def _journal(folder: Path, moves: list[list[str]]) -> Path:
    path = folder / ".commit-hostile0001.json"
    path.write_text(json.dumps({"moves": moves, "work": ".staging-x"}))
    return path


@pytest.mark.parametrize("target", ["{victim}", "../victim.txt", "sub/../../victim.txt"])
def test_a_commit_journal_cannot_move_files_out_of_the_folder(folder, tmp_path, target):
    victim = tmp_path / "victim.txt"
    victim.write_text("notes")
    (folder / "mine.txt").write_text("x")
    _journal(folder, [[str(victim) if "{" in target else target, "stolen.txt"]])
    with pytest.raises(LeashError, match=r"\.commit-hostile0001\.json: path .* leaves the folder"):
        ResultsFolder.open(folder)
    assert victim.read_text() == "notes" and not (folder / "stolen.txt").exists()
    _journal(folder, [["mine.txt", target.format(victim=victim)]])
    with pytest.raises(LeashError, match="leaves the folder"):
        ResultsFolder.open(folder)
    assert (folder / "mine.txt").exists() and victim.read_text() == "notes"


def test_a_commit_journal_cannot_move_through_a_link(folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("notes")
    (folder / "link").symlink_to(outside)
    _journal(folder, [["link/notes.txt", "taken.txt"]])
    with pytest.raises(LeashError, match="goes through a link"):
        ResultsFolder.open(folder)
    assert (outside / "notes.txt").read_text() == "notes"


def test_a_lock_file_that_is_a_link_is_refused_and_its_target_untouched(folder, tmp_path):
    target = tmp_path / "nologin"
    (folder / ".leash.lock").unlink(missing_ok=True)
    lock = folder / ".lock-test"
    lock.symlink_to(target)
    with pytest.raises(LeashError, match="symbolic link"), exclusive_lock(lock):
        pass
    assert not target.exists()


def test_the_triage_journal_is_never_written_through_a_link(folder, tmp_path):
    target = tmp_path / "elsewhere.jsonl"
    target.write_text("")
    (folder / "triage.jsonl").symlink_to(target)
    with pytest.raises(LeashError, match="symbolic link"):
        TriageJournal(folder)
    assert target.read_text() == ""


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _finishes(call, seconds: float = 10.0):
    """``call()``'s exception, raised within ``seconds`` (a FIFO read would hang forever)."""
    result: dict = {}

    def run():
        try:
            call()
        except Exception as exc:
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "hung on a special file"
    return result.get("error")


@pytest.mark.parametrize("name", ["manifest.json", "questions.parquet", "triage.jsonl"])
def test_fifos_and_devices_are_refused_without_hanging(folder, name):
    _fifo(folder / name)
    readers = {
        "manifest.json": lambda: load_manifest(folder),
        "questions.parquet": lambda: read_questions(folder),
        "triage.jsonl": lambda: TriageJournal(folder),
    }
    error = _finishes(readers[name])
    assert isinstance(error, LeashError) and "a FIFO, not a regular file" in str(error)
    (folder / name).unlink()
    (folder / name).symlink_to("/dev/zero")
    error = _finishes(readers[name])
    assert isinstance(error, LeashError) and "symbolic link" in str(error)


@pytest.mark.parametrize(
    "name", ["perplexity.parquet", "adaptive_stops.parquet", "token_detail/part-0.parquet"]
)
def test_side_tables_that_are_fifos_or_links_are_refused_without_hanging(folder, name):
    from sampler.store.side_tables.adaptive_stops import read_stops
    from sampler.store.side_tables.perplexity_table import read_perplexity
    from sampler.store.side_tables.token_detail import read_token_detail

    read = {
        "perplexity.parquet": lambda: read_perplexity(folder),
        "adaptive_stops.parquet": lambda: read_stops(folder),
        "token_detail/part-0.parquet": lambda: read_token_detail(folder),
    }[name]
    (folder / name).parent.mkdir(exist_ok=True)
    _fifo(folder / name)
    error = _finishes(read)
    assert isinstance(error, LeashError) and "a FIFO, not a regular file" in str(error)
    (folder / name).unlink()
    (folder / name).symlink_to("/dev/zero")
    error = _finishes(read)
    assert isinstance(error, LeashError) and "symbolic link" in str(error)


def test_a_side_table_directory_linked_elsewhere_is_refused(folder, tmp_path):
    from sampler.store.side_tables.token_detail import read_token_detail

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "part-0.parquet").write_bytes(b"PAR1")
    (folder / "token_detail").symlink_to(elsewhere)
    with pytest.raises(LeashError, match="symbolic link"):
        read_token_detail(folder)


def test_a_samples_folder_linked_to_another_folder_is_refused(folder, tmp_path):
    victim = build_folder(tmp_path / "victim", SPEC)
    import shutil

    shutil.rmtree(folder / "samples")
    (folder / "samples").symlink_to(victim / "samples")
    with pytest.raises(LeashError, match="samples folder is a symbolic link"):
        ResultsFolder.open(folder).shard_paths()
    result = CliRunner().invoke(cli, ["verify", str(folder), "--force", "--no-progress"])
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_a_shard_that_is_a_link_is_refused(folder, tmp_path):
    shard = next((folder / "samples").glob("part-*.parquet"))
    moved = tmp_path / "elsewhere.parquet"
    shard.rename(moved)
    shard.symlink_to(moved)
    with pytest.raises(LeashError, match="a sample shard is a symbolic link"):
        ResultsFolder.open(folder).shard_paths()


@pytest.mark.parametrize(
    "payload, message",
    [
        ("[" * 100_000 + "]" * 100_000, "nested 100,000 deep"),
        ('{"format": ' + "9" * 5000 + "}", "a number of 5,000 characters"),
    ],
)
def test_hostile_manifest_json_is_a_one_line_error(folder, payload, message):
    (folder / "manifest.json").write_text(payload)
    with pytest.raises(LeashError, match=message):
        load_manifest(folder)
    result = CliRunner().invoke(cli, ["info", str(folder)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "manifest.json" in result.output


def test_hostile_triage_lines_are_skipped(folder):
    good = {"benchmark": "b", "question_id": "q1", "base": "base", "target": "rlvr", "tag": "ok"}
    lines = ["[" * 100_000 + "]" * 100_000, '{"n": ' + "9" * 5000 + "}", json.dumps(good)]
    (folder / "triage.jsonl").write_text("\n".join(lines) + "\n")
    journal = TriageJournal(folder)
    assert journal.skipped_lines == 2


def test_csv_to_a_terminal_shows_control_characters(folder, monkeypatch):
    TriageJournal(folder).record("b", "q1", "base", "rlvr", note="hi \x1b]52;c;cHduZWQ=\x07 there")
    raw = CliRunner().invoke(cli, ["triage", "export", str(folder)])
    assert "\x1b]52" in raw.output  # piped: the data as it is
    monkeypatch.setattr("leash_tui.safe_text.stdout_is_terminal", lambda: True)
    shown = CliRunner().invoke(cli, ["triage", "export", str(folder)])
    assert shown.exit_code == 0 and "\x1b" not in shown.output and "\x07" not in shown.output
    assert "␛]52;c;cHduZWQ=␇" in shown.output


@pytest.mark.parametrize("options", [{}, {"compression": "zstd", "use_dictionary": True}])
def test_a_summary_rewritten_with_other_rows_is_detected_from_the_footer(folder, options):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sampler.store.shards.shard_summary import shard_summary

    shard = next((folder / "samples").glob("part-*.parquet"))
    assert shard_summary(shard) is not None
    table = pq.ParquetFile(shard).read()  # the most natural re-grading: metadata kept
    regraded = table.set_column(
        table.schema.get_field_index("correct"), "correct", pa.array([True] * table.num_rows)
    )
    pq.write_table(regraded, shard, **options)
    assert b"leash.summary" in pq.ParquetFile(shard).metadata.metadata
    assert shard_summary(shard) is None  # stale: the rows are scanned instead
