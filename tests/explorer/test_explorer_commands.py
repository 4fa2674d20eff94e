"""`leash demo`, `leash explore` (errors before the screen opens) and `leash triage export`."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.demo_folder import DEMO_BASE, DEMO_TARGETS
from sampler.store.journals.triage_journal import TriageJournal


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cmd") / "demo"
    result = CliRunner().invoke(
        cli, ["demo", "-o", str(out), "--no-open", "--questions", "10", "--samples", "4"]
    )
    assert result.exit_code == 0, result.output
    return out


def test_demo_writes_a_synthetic_folder_and_says_how_to_open_it(demo_folder: Path) -> None:
    manifest = json.loads((demo_folder / "manifest.json").read_text())
    assert manifest["synthetic"] is True
    again = CliRunner().invoke(cli, ["demo", "-o", str(demo_folder), "--no-open"])
    assert again.exit_code == 0
    assert "reusing" in again.output and f"leash explore {demo_folder}" in again.output


def test_demo_refuses_a_folder_that_is_not_a_demo(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    result = CliRunner().invoke(cli, ["demo", "-o", str(tmp_path), "--no-open"])
    assert result.exit_code != 0
    assert "not a leash demo folder" in result.output
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_explore_reports_bad_input_in_one_line(tmp_path: Path, demo_folder: Path) -> None:
    missing = CliRunner().invoke(cli, ["explore", str(tmp_path / "nope")])
    assert missing.exit_code != 0 and "no such results folder" in missing.output
    assert "Traceback" not in missing.output
    target = CliRunner().invoke(cli, ["explore", str(demo_folder), "--target", "nobody"])
    assert target.exit_code != 0 and "no target model named 'nobody'" in target.output
    assert DEMO_TARGETS[0] in target.output
    no_tty = CliRunner().invoke(cli, ["explore", str(demo_folder)])
    assert no_tty.exit_code != 0 and "interactive terminal" in no_tty.output


def _tag_some(root: Path) -> None:
    journal = TriageJournal(root)
    journal.record("demo-algebra", "2", DEMO_BASE, DEMO_TARGETS[0], tag="real_loss")
    journal.record(
        "demo-algebra", "2", DEMO_BASE, DEMO_TARGETS[0], note='has "quotes", commas\nand a newline'
    )
    journal.record("demo-arithmetic", "1", DEMO_BASE, DEMO_TARGETS[1], tag="unclear")
    journal.record("demo-arithmetic", "3", DEMO_BASE, DEMO_TARGETS[1], tag="format")
    journal.record("demo-arithmetic", "3", DEMO_BASE, DEMO_TARGETS[1], tag=None)


def test_triage_export_csv_and_jsonl(tmp_path: Path, demo_folder: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(demo_folder, root)
    _tag_some(root)
    result = CliRunner().invoke(cli, ["triage", "export", str(root)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [(r["benchmark"], r["question_id"], r["target"], r["tag"]) for r in rows] == [
        ("demo-algebra", "2", DEMO_TARGETS[0], "real_loss"),
        ("demo-arithmetic", "1", DEMO_TARGETS[1], "unclear"),
    ]
    assert rows[0]["note"] == 'has "quotes", commas\nand a newline'
    assert rows[0]["tag_meaning"].startswith("real loss")

    out = tmp_path / "tags.jsonl"
    result = CliRunner().invoke(
        cli, ["triage", "export", str(root), "--format", "jsonl", "-o", str(out)]
    )
    assert result.exit_code == 0 and "wrote 2" in result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["question_id"], x["tag"], x["base"]) for x in lines] == [
        ("2", "real_loss", DEMO_BASE),
        ("1", "unclear", DEMO_BASE),
    ]


def test_triage_export_of_a_folder_without_tags_and_of_a_non_folder(
    tmp_path: Path, demo_folder: Path
) -> None:
    empty = CliRunner().invoke(cli, ["triage", "export", str(demo_folder)])
    assert empty.exit_code == 0
    assert empty.output.strip() == "benchmark,question_id,base,target,tag,tag_meaning,note,updated"
    bad = CliRunner().invoke(cli, ["triage", "export", str(tmp_path)])
    assert bad.exit_code != 0 and "manifest.json" in bad.output and "Traceback" not in bad.output
