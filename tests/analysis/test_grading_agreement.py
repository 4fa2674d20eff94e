"""Grading disagreements (leash vs source verdicts) and questions missing for one model."""

from __future__ import annotations

import io
import json

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from click.testing import CliRunner
from rich.console import Console

from leash_tui.analysis.grading_agreement import (
    agreement_by_model,
    agreement_notes,
    disagreement_questions,
    disagreements_by_question,
)
from leash_tui.cli import cli
from leash_tui.commands.info import render_info
from leash_tui.report.folder_reads import agreement_samples
from leash_tui.report.info import describe_results
from sampler.importers.run_import import Source, import_samples
from sampler.store import column_all_null
from sampler.store.folder import ResultsFolder
from sampler.store.shards.writer import replace_shard
from tests.support.eval_outputs import write_qwen_eval


def samples_table(rows):
    names = ["benchmark", "question_id", "model", "status", "source_correct"]
    return pa.table(
        {n: [r[i] for r in rows] for i, n in enumerate(names)},
        schema=pa.schema(
            [
                ("benchmark", pa.string()),
                ("question_id", pa.string()),
                ("model", pa.string()),
                ("status", pa.string()),
                ("source_correct", pa.bool_()),
            ]
        ),
    )


def test_agreement_counts_only_samples_with_both_verdicts():
    table = samples_table(
        [
            ("b", "1", "base", "correct", True),  # agree
            ("b", "1", "base", "incorrect", True),  # leash wrong, source right
            ("b", "2", "base", "no_answer", True),  # no answer counts as not correct
            ("b", "2", "base", "timeout", True),  # not a verdict: not compared
            ("b", "3", "base", None, False),  # not verified: not compared
            ("b", "3", "base", "correct", None),  # no source verdict
            ("b", "1", "rl", "correct", False),  # leash right, source wrong
            ("b", "2", "rl", "incorrect", False),  # agree
            ("b", "9", "native", "correct", None),  # a model without source verdicts
        ]
    )
    rows = {r["model"]: r for r in agreement_by_model(table)}
    assert set(rows) == {"base", "rl"}
    assert rows["base"]["with_source_verdict"] == 5
    assert rows["base"]["compared"] == 3
    assert rows["base"]["differ"] == 2
    assert rows["base"]["leash_incorrect_source_correct"] == 2
    assert rows["base"]["leash_correct_source_incorrect"] == 0
    assert rows["base"]["differ_rate"] == 2 / 3
    assert rows["rl"]["differ"] == 1 and rows["rl"]["leash_correct_source_incorrect"] == 1
    assert disagreement_questions(table) == {("b", "1"), ("b", "2")}
    assert disagreement_questions(table, model="rl") == {("b", "1")}
    by_question = disagreements_by_question(table).to_pylist()
    assert {(r["question_id"], r["model"], r["differ"]) for r in by_question} == {
        ("1", "base", 1),
        ("2", "base", 1),
        ("1", "rl", 1),
    }
    assert agreement_notes(table, ["rl"]) == [
        "rl: leash and the source disagree on 1 of 2 compared samples (50.0%; leash"
        " correct/source incorrect 1, leash incorrect/source correct 0) in 1 question(s)"
    ]
    assert len(agreement_notes(table)) == 2
    assert agreement_by_model(table.slice(0, 0)) == []
    assert disagreement_questions(table.slice(0, 0)) == set()


GOLDS = {"0": "2", "1": "6", "2": "3"}


def fake_verify(root):
    """Write statuses into every shard as `leash verify` would: boxed answer == gold."""
    for path in ResultsFolder.open(root).shard_paths():
        table = pq.read_table(path)
        texts = table.column("text").to_pylist()
        qids = table.column("question_id").to_pylist()
        verdicts = [
            "correct" if t.split("\\boxed{")[1].split("}")[0] == GOLDS[q] else "incorrect"
            for q, t in zip(qids, texts, strict=True)
        ]
        status = pa.array(verdicts, pa.string())
        table = table.set_column(table.schema.get_field_index("status"), "status", status)
        correct = pc.equal(status, "correct")
        table = table.set_column(table.schema.get_field_index("correct"), "correct", correct)
        replace_shard(path, table)


def imported_pair(tmp_path):
    """base answers 3 questions, rl only 2; the harness misgraded rl's '5' on question 1."""
    write_qwen_eval(tmp_path / "b", "math500", [["2", "3"], ["6", "6"], ["3", "4"]])
    write_qwen_eval(
        tmp_path / "r",
        "math500",
        [["2", "2"], ["5", "6"]],
        scores=[[True, True], [True, True]],
    )
    root = tmp_path / "res"
    import_samples(
        "qwen-eval", [Source("base", tmp_path / "b"), Source("rl", tmp_path / "r")], root, "base"
    )
    return root


def test_info_reports_missing_questions_and_disagreements(tmp_path):
    root = imported_pair(tmp_path)
    info = describe_results(ResultsFolder.open(root))
    assert info["missing_questions"] == [
        {"base": "base", "target": "rl", "only_base": ["math500/2"], "only_target": []}
    ]
    # nothing verified yet: source verdicts are there, nothing is compared
    assert [
        (r["model"], r["with_source_verdict"], r["compared"]) for r in info["grading_agreement"]
    ] == [
        ("base", 6, 0),
        ("rl", 4, 0),
    ]
    assert agreement_samples(ResultsFolder.open(root)).num_rows == 10
    assert agreement_notes(agreement_samples(ResultsFolder.open(root)), ["rl"]) == [
        "rl: 4 sample(s) carry a source verdict but none has a leash verdict yet"
        " (run: leash verify)"
    ]
    # leash grades by the boxed answer: rl's "5" is wrong although the harness said right
    fake_verify(root)
    results = ResultsFolder.open(root)
    info = describe_results(results)
    rows = {r["model"]: r for r in info["grading_agreement"]}
    assert rows["rl"]["compared"] == 4 and rows["rl"]["differ"] == 1
    assert rows["rl"]["leash_incorrect_source_correct"] == 1
    assert rows["base"]["compared"] == 6 and rows["base"]["differ"] == 0
    assert disagreement_questions(agreement_samples(results), model="rl") == {("math500", "1")}
    buffer = io.StringIO()
    render_info(info, Console(file=buffer, width=200, highlight=False))
    text = buffer.getvalue()
    assert "Grading: leash vs source verdicts" in text
    assert (
        "warning: 1 question(s) have samples of base but none of rl, and are left out of"
        " base vs rl: math500/2" in text
    )


def test_info_json_and_import_cli_end_to_end(tmp_path):
    write_qwen_eval(tmp_path / "b", "aime24", [["2"], ["6"]])
    write_qwen_eval(tmp_path / "r", "aime24", [["6"]], questions=[1])
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "import",
            "--from",
            "qwen-eval",
            f"base={tmp_path / 'b'}",
            f"rl={tmp_path / 'r'}",
            "--base",
            "base",
            "-o",
            str(tmp_path / "res"),
        ],
    )
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "3 samples from 2 file(s)" in output and "next: leash verify" in output
    result = runner.invoke(cli, ["info", str(tmp_path / "res"), "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["missing_questions"][0]["only_base"] == ["aime24/0"]
    result = runner.invoke(cli, ["info", str(tmp_path / "res")])
    assert "left out of base vs rl: aime24/0" in " ".join(result.output.split())


def test_leash_verify_regrades_imported_samples_and_finds_the_misgraded_one(tmp_path):
    from sampler.verify.run import verify_results

    root = imported_pair(tmp_path)
    verify_results(root, workers=1)
    results = ResultsFolder.open(root)
    counts = {(r["model"], r["question_id"]): r for r in results.verdict_counts().to_pylist()}
    assert counts[("rl", "1")]["n_correct"] == 1  # leash's verdict, not the harness's 2
    assert counts[("base", "0")]["n_correct"] == 1
    agreement = {r["model"]: r for r in agreement_by_model(agreement_samples(results))}
    assert agreement["rl"]["leash_incorrect_source_correct"] == 1
    assert agreement["base"]["differ"] == 0
    assert disagreement_questions(agreement_samples(results)) == {("math500", "1")}


def test_source_verdicts_are_detected_from_shard_statistics(tmp_path):
    from tests.support.folder_builders import build_folder

    spec = {("b", "1"): {"base": "C I7", "rl": "C C"}}
    plain = build_folder(tmp_path / "plain", spec, targets=("rl",))
    assert column_all_null(ResultsFolder.open(plain), "source_correct")
    assert agreement_samples(ResultsFolder.open(plain)) is None
    source = {("b", "1", "rl"): [None, True]}
    imported = build_folder(tmp_path / "imp", spec, targets=("rl",), source_correct=source)
    assert not column_all_null(ResultsFolder.open(imported), "source_correct")
