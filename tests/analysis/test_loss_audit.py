"""The loss audit (``leash witnesses --losses``) and the format-effect warnings of
``leash info`` and ``leash report``."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from click.testing import CliRunner

from leash_tui.analysis.loss_audit import format_effect_notes, loss_claims
from leash_tui.cli import cli
from tests.support.folder_builders import build_folder

SPEC = {
    # S: the base solves it, the target never; the target keeps writing 10 inches
    ("alg", "1"): {"base": "C I7 I7 I7", "rlvr": "I10in I10in I10in N"},
    ("alg", "2"): {"base": "C C I7 I7", "rlvr": "C C C C"},  # P
    ("alg", "3"): {"base": "I7 I7 I7 I7", "rlvr": "N N N N"},  # O
}


@pytest.fixture
def folder(tmp_path):
    return build_folder(tmp_path / "r", SPEC)


def test_losses_list_the_targets_most_frequent_rejected_answers(folder):
    result = CliRunner().invoke(cli, ["witnesses", str(folder), "--losses", "--format", "json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["format"] == "leash-losses/1"
    (claim,) = payload["claims"]
    assert (claim["question_id"], claim["target"], claim["base_support"]) == ("1", "rlvr", "1/4")
    assert claim["rejected_classes"] == 2
    assert claim["rejected"] == [
        {"answer": "10in", "status": "incorrect", "rule": None, "samples": 3},
        {"answer": "", "status": "no_answer", "rule": None, "samples": 1},
    ]
    top1 = CliRunner().invoke(
        cli, ["witnesses", str(folder), "--losses", "--top", "1", "--format", "csv"]
    )
    assert top1.exit_code == 0 and top1.stdout.count("\n") == 2  # header and one class
    table = CliRunner().invoke(cli, ["witnesses", str(folder), "--losses"], terminal_width=80)
    assert table.exit_code == 0 and "10in" in table.output and "1 lost question" in table.output


def test_an_unknown_target_is_one_line_error(folder):
    result = CliRunner().invoke(cli, ["witnesses", str(folder), "--losses", "--target", "x"])
    assert result.exit_code != 0 and "no target 'x'" in result.output
    assert "Traceback" not in result.output


def test_loss_claims_are_only_shrinkage():
    questions = pa.table(
        {
            "benchmark": ["b", "b"],
            "question_id": ["1", "2"],
            "category": ["S", "E"],
            "c_base": [1, 0],
            "n_base": [4, 4],
            "n_target": [4, 4],
        }
    )
    rejected = pa.table(
        {
            "benchmark": ["b", "b"],
            "question_id": ["1", "2"],
            "status": ["incorrect", "incorrect"],
            "answer": ["7", "8"],
            "answer_written": [None, None],
            "answer_rule": ["box", "box"],
        }
    )
    (claim,) = loss_claims(questions, rejected, {}, "t")
    assert claim.question_id == "1" and claim.rejected[0].answer == "7"


def _counts(no_answer_base: int, no_answer_target: int) -> pa.Table:
    return pa.table(
        {
            "model": ["base", "rl"],
            "n_verified": [100, 100],
            "n_no_answer": [no_answer_base, no_answer_target],
        }
    )


def test_format_effects_are_noted_when_shares_differ_a_lot():
    assert format_effect_notes(_counts(5, 8), {}, "base", ["rl"]) == []
    (note,) = format_effect_notes(_counts(5, 40), {}, "base", ["rl"])
    assert "rl has no answer in 40%" in note and "base in 5%" in note
    assert format_effect_notes(_counts(0, 4), {}, "base", ["rl"]) == []  # 4 say nothing yet
    rules = {"base": {"box": 90, "statement": 10}, "rl": {"box": 30, "hashes": 70}}
    (note,) = format_effect_notes(_counts(5, 5), rules, "base", ["rl"])
    assert "rules that found the answers differ" in note and "hashes 70%" in note
    same = {"base": {"box": 90, "statement": 10}, "rl": {"box": 85, "statement": 15}}
    assert format_effect_notes(_counts(5, 5), same, "base", ["rl"]) == []
    few = {"base": {"box": 9, "statement": 1}, "rl": {"box": 3, "hashes": 7}}
    assert format_effect_notes(_counts(5, 5), few, "base", ["rl"]) == []


def test_info_and_report_warn_of_a_format_effect(tmp_path):
    spec = {("alg", str(i)): {"base": "C C C I7", "rlvr": "C N N N"} for i in range(5)}
    root = build_folder(tmp_path / "r", spec)
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert info.exit_code == 0 and "format effect?" in info.output
    report = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert report.exit_code == 0 and "format effect?" in report.stderr


def test_a_format_effect_says_truncation_or_extraction():
    """No answers cut off at the token limit are truncation; complete ones, extraction."""
    (cut,) = format_effect_notes(_counts(5, 40), {}, "base", ["rl"], truncated={"rl": 36})
    assert "90% of rl's stopped at the token limit" in cut
    assert "truncation, not extraction" in cut and "max_tokens" in cut
    (found,) = format_effect_notes(_counts(5, 40), {}, "base", ["rl"], truncated={"rl": 4})
    assert "extraction, not truncation" in found and "leash witnesses --losses" in found
    (unknown,) = format_effect_notes(_counts(5, 40), {}, "base", ["rl"])
    assert "truncation" not in unknown and "finish reasons" in unknown


def test_info_tells_truncated_no_answers_from_unextracted_ones(tmp_path):
    from tests.support.folder_builders import sample_rows, write_folder

    questions = [{"benchmark": "alg", "question_id": str(i), "gold": "42"} for i in range(5)]
    rows = []
    for i in range(5):
        rows += sample_rows("alg", str(i), "base", "C C C I7")
        rows += sample_rows("alg", str(i), "rlvr", "C N N N")
    for row in rows:
        row["finish_reason"] = "length" if row["status"] == "no_answer" else "stop"
    root = write_folder(tmp_path / "r", questions, [rows], models=["base", "rlvr"])
    info = CliRunner().invoke(cli, ["info", str(root)], terminal_width=400)
    assert info.exit_code == 0, info.output
    flat = " ".join(info.output.split())
    assert "100% of rlvr's stopped at the token limit" in flat
    assert "truncation, not extraction" in flat


def test_losses_list_ids_in_natural_order(tmp_path):
    """Ties (as many rejected samples) in natural id order: 9, 116, 1018, not as text."""
    spec = {("alg", q): {"base": "C I7", "rlvr": "I7 I7"} for q in ("1018", "116", "9")}
    root = build_folder(tmp_path / "r", spec)
    result = CliRunner().invoke(cli, ["witnesses", str(root), "--losses", "--format", "json"])
    assert result.exit_code == 0, result.output
    ids = [c["question_id"] for c in json.loads(result.stdout)["claims"]]
    assert ids == ["9", "116", "1018"]
