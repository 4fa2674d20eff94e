"""Where an answer came from: ``answer_written`` and ``answer_rule`` written by verify,
shown by ``leash export``; folders verified before the columns existed still read."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder
from sampler.verify.run import verify_results
from tests.support.explorer_helpers import open_app, open_question, sync, wait_ready
from tests.support.folder_builders import write_folder

QUESTIONS = [
    {"benchmark": "toy", "question_id": "0", "problem": "p", "gold": "102.3"},
    {"benchmark": "toy", "question_id": "1", "problem": "p", "gold": "5"},
]
TEXTS = [
    ("0", "So $\\boxed{102.3}$."),
    ("1", "Half of ten.\n#### 5"),
    ("1", "\\boxed{5}\n\nProblem: what is 2+2?\n\\boxed{4}"),
    ("1", "I give up."),
]


def _folder(tmp_path: Path) -> Path:
    rows = [
        {"benchmark": "toy", "question_id": q, "model": "base", "sample": i, "text": t}
        for i, (q, t) in enumerate(TEXTS)
    ]
    return write_folder(tmp_path / "r", QUESTIONS, [rows], models=["base"])


def test_verify_stores_the_answer_as_written_and_its_rule(tmp_path):
    root = _folder(tmp_path)
    verify_results(root, workers=1)
    rows = ResultsFolder.open(root).samples().to_pylist()
    got = [(r["answer"], r["answer_written"], r["answer_rule"], r["status"]) for r in rows]
    assert got == [
        ("102.300000000000", "102.3", "box", "correct"),
        ("5", "5", "hashes", "correct"),
        ("5", "5", "box (run-on cut)", "correct"),
        (None, None, None, "no_answer"),
    ]


def test_export_writes_them_and_import_reads_the_export_back(tmp_path):
    root = _folder(tmp_path)
    verify_results(root, workers=1)
    result = CliRunner().invoke(cli, ["export", str(root)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert (records[0]["answer_written"], records[0]["answer_rule"]) == ("102.3", "box")
    assert "answer_rule" not in records[3]
    exported = tmp_path / "s.jsonl"
    exported.write_text(result.stdout)
    back = CliRunner().invoke(
        cli, ["import", str(exported), "--base", "base", "-o", str(tmp_path / "back")]
    )
    assert back.exit_code == 0, back.output
    assert "unknown field" not in back.output


def test_a_shard_without_the_columns_reads_them_as_null(tmp_path):
    root = _folder(tmp_path)
    (shard,) = ResultsFolder.open(root).shard_paths()
    table = pq.read_table(shard)
    old = table.drop_columns(["answer_written", "answer_rule"])
    pq.write_table(pa.Table.from_batches(old.to_batches(), old.schema.remove_metadata()), shard)
    rows = ResultsFolder.open(root).samples(columns=["answer_written", "answer_rule"]).to_pylist()
    assert {(r["answer_written"], r["answer_rule"]) for r in rows} == {(None, None)}


@sync
async def test_the_question_screen_shows_the_answer_as_written_and_its_rule(tmp_path):
    from leash_tui.explorer.widgets.completion_view import CompletionView

    rows = [
        {"benchmark": "toy", "question_id": "0", "model": m, "sample": 0, "text": TEXTS[0][1]}
        for m in ("base", "rl")
    ]
    root = write_folder(tmp_path / "two", QUESTIONS[:1], [rows], models=["base", "rl"])
    verify_results(root, workers=1)
    app = open_app(root)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_ready(pilot, app)
        await open_question(pilot, app, "toy", "0")
        view = app.screen.query_one("#view-base", CompletionView)
        subtitle = str(view.border_subtitle)
        assert "answer 102.3 · normal form 102.300000000000" in subtitle
        assert "by box" in subtitle
