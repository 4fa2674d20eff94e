"""The answers by extraction rule (report.rule_section): per target, the samples of each model
whose answer each rule found, and their share of its verified samples, in every format."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from leash_tui.report.formats import FORMATS
from sampler.store.schema import BenchmarkEntry
from tests.support.folder_builders import sample_rows, write_folder

# the rule that found each sample's answer (None: no answer found), 4 samples per question
RULES = {
    ("base", "1"): ["boxed", "boxed", "boxed", None],
    ("base", "2"): ["boxed", "last_number", None, None],
    ("rlvr", "1"): ["last_number", "last_number", "last_number", "boxed"],
    ("rlvr", "2"): ["last_number", "last_number", "last_number", None],
}
SPEC = {
    "1": {"base": "C C I7 N", "rlvr": "C C C C"},
    "2": {"base": "I7 C N N", "rlvr": "C I7 I8 N"},
}


@pytest.fixture
def folder(tmp_path):
    shard = []
    for qid, per_model in SPEC.items():
        for model, spec in per_model.items():
            rows = sample_rows("alg", qid, model, spec)
            for row, rule in zip(rows, RULES[(model, qid)], strict=True):
                row["answer_rule"] = rule
            shard += rows
    questions = [{"benchmark": "alg", "question_id": q, "problem": "?", "gold": "42"} for q in SPEC]
    return write_folder(
        tmp_path / "r",
        questions,
        [shard],
        models=["base", "rlvr"],
        benchmarks=[BenchmarkEntry("alg")],
    )


def report(folder, fmt: str) -> str:
    result = CliRunner().invoke(
        cli, ["report", str(folder), "--bootstrap", "0", "--no-cache", "--format", fmt]
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_rule_rows_count_each_models_answers_by_rule(folder):
    rows = json.loads(report(folder, "json"))["answer_rules"]
    # most answers first: last_number (1 + 6), then boxed (4 + 1)
    assert [(r["rule"], r["samples"]) for r in rows] == [
        ("last_number", {"base": 1, "target": 6}),
        ("boxed", {"base": 4, "target": 1}),
    ]
    assert rows[1]["share"] == {"base": 4 / 8, "target": 1 / 8}  # of 8 verified samples each
    assert {(r["base"], r["target"]) for r in rows} == {("base", "rlvr")}


def test_every_format_shows_the_rules(folder):
    lines = list(csv.DictReader(io.StringIO(report(folder, "csv"))))
    boxed = next(
        line for line in lines if line["row"] == "answer_rules" and line["rule"] == "boxed"
    )
    assert (boxed["samples_base"], boxed["samples_target"], boxed["share_base"]) == (
        "4",
        "1",
        "0.5",
    )
    assert "answers by extraction rule, base → rlvr" in report(folder, "table")
    assert "### Answers by extraction rule, base → rlvr" in report(folder, "markdown")
    assert r"Answers by extraction rule, base $\to$ rlvr." in report(folder, "latex")
    for fmt in FORMATS:
        assert "last" in report(folder, fmt)  # the rule's name in each format (escaped in some)


def test_no_rules_recorded_no_section(tmp_path):
    root = write_folder(
        tmp_path / "n",
        [{"benchmark": "alg", "question_id": "1", "problem": "?", "gold": "42"}],
        [sample_rows("alg", "1", "base", "C I7") + sample_rows("alg", "1", "rlvr", "C C")],
        models=["base", "rlvr"],
    )
    assert "answer_rules" not in json.loads(report(root, "json"))
