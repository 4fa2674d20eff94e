"""``leash verify`` from the command line (click's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import write_folder
from tests.support.verify_fixtures import boxed

QUESTIONS = [
    {"benchmark": "aime24", "question_id": str(i), "problem": f"p{i}", "gold": str(100 + i)}
    for i in range(4)
]


def _samples(k: int = 5) -> list[dict]:
    rows = []
    for q in range(4):
        for s in range(k):
            if s == k - 1:
                text = "ran out of tokens"
            else:
                text = boxed(str(100 + q + (s % 2)))  # even samples right, odd ones off by one
            rows.append(
                {
                    "benchmark": "aime24",
                    "question_id": str(q),
                    "model": "base",
                    "sample": s,
                    "text": text,
                }
            )
    return rows


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    rows = _samples()
    return write_folder(tmp_path / "results", QUESTIONS, [rows[:10], rows[10:]], models=["base"])


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_verify_prints_a_summary_and_fills_the_folder(folder: Path):
    result = invoke("verify", str(folder), "--no-progress", "-j", "1")
    assert result.exit_code == 0, result.output
    for label in (
        "samples",
        "distinct answers",
        "verifier calls",
        "saved",
        "no answer",
        "timeouts",
        "correct",
    ):
        assert label in result.output
    counts = ResultsFolder.open(folder).verdict_counts().to_pylist()
    assert [(c["n"], c["n_correct"], c["n_incorrect"], c["n_no_answer"]) for c in counts] == [
        (5, 2, 2, 1)
    ] * 4


def test_json_summary_and_rerun(folder: Path):
    result = invoke("verify", str(folder), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["verified"] == 20
    assert summary["by_status"] == {
        "correct": 8,
        "incorrect": 8,
        "no_answer": 4,
        "timeout": 0,
        "error": 0,
        "no_gold": 0,
    }
    assert summary["distinct_answers"] == 8
    assert summary["calls_saved"] + summary["verifier_calls"] == 16
    again = invoke("verify", str(folder))
    assert again.exit_code == 0
    assert "Nothing to verify" in again.output
    assert "20" in again.output


def test_progress_bar_run(folder: Path):
    result = CliRunner().invoke(cli, ["verify", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0
    assert "verified now" in result.output


def test_changing_extraction_needs_force(folder: Path):
    assert invoke("verify", str(folder), "--no-progress").exit_code == 0
    refused = invoke("verify", str(folder), "--extract-model", "base=answer_line")
    assert refused.exit_code == 1
    assert "--force" in refused.output
    assert "Traceback" not in refused.output
    forced = invoke(
        "verify", str(folder), "--extract-model", "base=answer_line,boxed", "--force", "--json"
    )
    assert forced.exit_code == 0, forced.output
    assert json.loads(forced.output)["verified"] == 20
    stored = ResultsFolder.open(folder).manifest.verification["extraction"]
    assert stored["models"] == {"base": ["answer_line", "boxed"]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify", "/no/such/folder"], "no such results folder"),
        (["verify", "{folder}", "--extract", "boxd"], "unknown extraction strategy 'boxd'"),
        (["verify", "{folder}", "--extract-benchmark", "aime24"], "expected NAME=STRATEGY"),
        (["verify", "{folder}", "--deadline", "0"], "0.1"),
    ],
)
def test_bad_input_is_one_clear_line(folder: Path, args, message):
    result = CliRunner().invoke(cli, [a.format(folder=folder) for a in args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_verify_is_listed_in_help():
    from leash_tui.cli import SUBCOMMANDS

    result = invoke("--help")
    summary: dict[str, str] = {}
    for line in result.output.split("Commands:", 1)[1].splitlines():
        if line.startswith("  ") and not line.startswith("    "):
            name, _, text = line.strip().partition(" ")
            summary[name] = text.strip()
        elif line.strip():  # a summary wrapped onto the next line
            summary[name] += " " + line.strip()
    assert summary["verify"] == SUBCOMMANDS["verify"][1]
