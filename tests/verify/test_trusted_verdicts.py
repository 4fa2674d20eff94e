"""Imported verdicts are the source's (issue 12, item 5): kept as ``source_correct``,
graded by ``leash verify``; ``--trust-verdicts`` keeps them only for questions without a
gold, marks them, verification never overwrites them, and reports and info count them."""

from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.importers.formats.jsonl import import_jsonl
from sampler.store.folder import ResultsFolder
from sampler.verify.run import verify_results
from tests.support.records import sample_records, write_jsonl


def records_with_an_ungradable_question() -> list[dict]:
    """Questions 0 and 1 have golds; question 2 has none (leash cannot grade it)."""
    records = sample_records(
        {
            "base": [[True, False], [False, False], [True, False]],
            "rl": [[True, True], [True, False], [True, True]],
        }
    )
    for record in records:
        if record["question_id"] == 2:
            record.pop("gold", None)
    return records


def rows(root) -> dict[tuple[str, str, int], dict]:
    table = ResultsFolder.open(root).samples(
        ["question_id", "model", "sample", "correct", "status", "source_correct", "verdict_source"]
    )
    return {(r["question_id"], r["model"], r["sample"]): r for r in table.to_pylist()}


def run(*args):
    return CliRunner().invoke(cli, list(map(str, args)))


def test_plain_import_keeps_every_verdict_as_the_sources_only(tmp_path):
    root = tmp_path / "r"
    summary = import_jsonl(
        [write_jsonl(tmp_path / "s.jsonl", records_with_an_ungradable_question())],
        root,
        base="base",
    )
    assert summary.with_verdict == 0 and summary.trusted_verdicts == 0
    for row in rows(root).values():
        assert row["correct"] is None and row["status"] is None and row["verdict_source"] is None
    assert rows(root)[("0", "base", 0)]["source_correct"] is True
    assert rows(root)[("0", "base", 1)]["source_correct"] is False


def test_status_field_is_a_source_verdict_too(tmp_path):
    records = sample_records({"base": [[True, False]]})
    for record in records:
        record["status"] = "correct" if record.pop("correct") else "no_answer"
    records.append({**records[0], "sample": 2, "status": "timeout"})  # says neither
    root = tmp_path / "r"
    import_jsonl([write_jsonl(tmp_path / "s.jsonl", records)], root, base="base")
    found = rows(root)
    assert [found[("0", "base", s)]["source_correct"] for s in range(3)] == [True, False, None]
    assert {found[("0", "base", s)]["status"] for s in range(3)} == {None}


def test_trust_verdicts_only_where_there_is_no_gold(tmp_path):
    root = tmp_path / "r"
    src = write_jsonl(tmp_path / "s.jsonl", records_with_an_ungradable_question())
    summary = import_jsonl([src], root, base="base", trust_verdicts=True)
    assert summary.trusted_verdicts == 4 and summary.with_verdict == 4
    found = rows(root)
    for (qid, _, _), row in found.items():
        if qid == "2":
            assert row["verdict_source"] == "source"
            assert row["correct"] == row["source_correct"]
            assert row["status"] == ("correct" if row["source_correct"] else "incorrect")
        else:
            assert row["correct"] is None and row["verdict_source"] is None
    counts = {
        (r["question_id"], r["model"]): r
        for r in ResultsFolder.open(root).verdict_counts().to_pylist()
    }
    assert counts[("2", "base")]["n_trusted"] == 2 and counts[("2", "base")]["n_correct"] == 1
    assert counts[("0", "base")]["n_trusted"] == 0


def test_verify_grades_golds_and_never_overwrites_trusted_verdicts(tmp_path):
    root = tmp_path / "r"
    records = records_with_an_ungradable_question()
    wrong = next(r for r in records if (r["question_id"], r["model"], r["sample"]) == (1, "rl", 0))
    wrong["correct"] = False  # the source grades wrong what is right: box 1, gold 1
    import_jsonl(
        [write_jsonl(tmp_path / "s.jsonl", records)], root, base="base", trust_verdicts=True
    )
    before = {k: v for k, v in rows(root).items() if k[0] == "2"}
    summary = verify_results(root, workers=1)
    assert summary.verified == 8 and summary.errors == 0  # trusted ones are not touched
    assert {k: v for k, v in rows(root).items() if k[0] == "2"} == before
    graded = rows(root)[("1", "rl", 0)]
    assert graded["status"] == "correct" and graded["source_correct"] is False  # leash's own
    assert graded["verdict_source"] is None
    forced = verify_results(root, workers=1, force=True)
    assert forced.verified == 8 and forced.errors == 0
    assert {k: v for k, v in rows(root).items() if k[0] == "2"} == before
    # question 2's trusted verdicts keep the shard from ever looking unverified
    assert verify_results(root, workers=1).verified == 0


def test_without_trust_an_ungradable_question_gets_no_gold_until_its_gold_arrives(tmp_path):
    root = tmp_path / "r"
    src = write_jsonl(tmp_path / "s.jsonl", records_with_an_ungradable_question())
    import_jsonl([src], root, base="base")
    summary = verify_results(root, workers=1)
    assert (summary.errors, summary.no_gold, summary.by_status["no_gold"]) == (0, 4, 4)
    assert verify_results(root, workers=1, retry=True).verified == 0
    extra = sample_records({"late": [[False, False, True]]})[-1]
    extra.update(question_id=2, sample=0, gold="2", problem="What is 2?")
    import_jsonl([write_jsonl(tmp_path / "t.jsonl", [extra])], root)
    again = verify_results(root, workers=1)
    assert again.verified == 4 + 1 and again.by_status["no_gold"] == 0
    assert {found["status"] for found in rows(root).values()} != {"no_gold"}


def test_a_gold_that_arrives_later_makes_leash_grade_trusted_samples(tmp_path):
    root = tmp_path / "r"
    src = write_jsonl(tmp_path / "s.jsonl", records_with_an_ungradable_question())
    import_jsonl([src], root, base="base", trust_verdicts=True)
    # another file gives question 2 its gold (with one more sample of a new model)
    extra = sample_records({"late": [[False, False, True]]})[-1]
    extra.update(question_id=2, sample=0, gold="2", problem="What is 2?")
    import_jsonl([write_jsonl(tmp_path / "t.jsonl", [extra])], root)
    summary = verify_results(root, workers=1)
    assert summary.verified == 8 + 4 + 1
    found = rows(root)
    assert all(found[(q, m, s)]["verdict_source"] is None for q, m, s in found)
    assert found[("2", "base", 1)]["status"] == "incorrect"  # box 3, gold 2


def test_reports_and_info_count_the_trusted_verdicts(tmp_path):
    root = tmp_path / "r"
    src = write_jsonl(tmp_path / "s.jsonl", records_with_an_ungradable_question())
    result = run("import", src, "--base", "base", "-o", root, "--trust-verdicts")
    assert result.exit_code == 0, result.output
    assert "4 source verdicts kept as verdicts" in result.output
    assert run("verify", root).exit_code == 0
    result = run("report", root, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    overall = next(r for r in document["rows"] if r["scope"] == "overall")
    assert overall["trusted_source_verdicts"] == {"base": 1, "target": 1}
    assert "verdicts leash did not compute" in result.stderr
    csv_text = run("report", root, "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    overall_csv = next(r for r in rows if r.get("scope") == "overall")
    assert overall_csv["trusted_source_verdicts_base"] == "1"
    assert overall_csv["trusted_source_verdicts_target"] == "1"
    for fmt in ("markdown", "latex", "table"):
        text = " ".join(run("report", root, "--format", fmt).stdout.split())
        assert "Verdicts leash did not compute" in text, fmt
    info = json.loads(run("info", root, "--json").output)
    assert info["totals"]["trusted_source_verdicts"] == 4
    assert "4 verdicts are the source's" in " ".join(run("info", root).output.split())


def test_reports_without_trusted_verdicts_have_no_such_field(tmp_path):
    root = tmp_path / "r"
    import_jsonl(
        [write_jsonl(tmp_path / "s.jsonl", sample_records({"base": [[True]], "rl": [[False]]}))],
        root,
        base="base",
    )
    verify_results(root, workers=1)
    document = json.loads(run("report", root, "--format", "json").stdout)
    assert all("trusted_source_verdicts" not in r for r in document["rows"])


def test_old_shards_without_the_column_read_as_leashs_own(tmp_path):
    from tests.support.folder_builders import build_folder

    root = build_folder(tmp_path / "r", {("b", "1"): {"base": "C I", "rlvr": "C C"}})
    shard = next((root / "samples").glob("*.parquet"))
    table = pq.read_table(shard)
    assert "verdict_source" in table.column_names
    pq.write_table(table.drop_columns(["verdict_source"]), shard)  # as an older leash wrote it
    counts = ResultsFolder.open(root).verdict_counts().to_pylist()
    assert {r["n_trusted"] for r in counts} == {0}
