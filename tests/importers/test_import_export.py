"""Import and export of interchange JSONL (docs/interchange.md §1): round trip, every bad input."""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from sampler.errors import LeashError
from sampler.importers.formats.jsonl import import_jsonl
from sampler.importers.jsonl_export import export_records
from sampler.importers.jsonl_export import write_jsonl as write_records
from sampler.store.folder import ResultsFolder
from tests.support.records import sample_records, write_jsonl


def folder_state(root):
    """A fingerprint of every file under ``root`` (names and bytes)."""
    if not root.exists():
        return None
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith(".leash.lock")
    }


def export_all(root):
    buffer = io.StringIO()
    write_records(export_records(ResultsFolder.open(root)), buffer)
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def canonical(records, verdict="correct"):
    """Sorted sample fields; ``verdict`` names the field compared as "verdict"."""
    keep = (
        "benchmark",
        "question_id",
        "model",
        "sample",
        "text",
        "n_tokens",
        "finish_reason",
        "token_entropy",
        "answer",
    )
    return sorted(
        (
            *((k, str(r[k]) if k == "question_id" else r.get(k)) for k in keep),
            ("verdict", r.get(verdict)),
        )
        for r in records
    )


def rich_records():
    records = sample_records(
        {"base": [[True, False], [False, False]], "rl": [[True, True], [False, True]]}
    )
    records[0].update(
        n_tokens=12, finish_reason="stop", token_entropy=0.5, answer="0", domain="math"
    )
    records[1].update(finish_reason="length", text="unicode ∑ \u0000 and \x1b[31m")
    del records[2]["correct"]  # one sample without a source verdict
    return records


def test_round_trip(tmp_path):
    records = rich_records()
    src = write_jsonl(tmp_path / "in.jsonl", records)
    summary = import_jsonl([src], tmp_path / "res", base="base")
    assert summary.samples == len(records) and summary.created
    exported = export_all(tmp_path / "res")
    # an imported ``correct`` is the source's verdict: exported as source_correct, never
    # as leash's correct/status (nothing is verified yet)
    assert canonical(exported, "source_correct") == canonical(records)
    assert not any("correct" in r or "status" in r for r in exported)
    # problem and gold survive, once per (question, model)
    firsts = [r for r in exported if "problem" in r]
    assert {(r["question_id"], r["model"], r["gold"]) for r in firsts} == {
        ("0", "base", "0"),
        ("1", "base", "1"),
        ("0", "rl", "0"),
        ("1", "rl", "1"),
    }
    # and the export imports again to the same samples and source verdicts
    again = write_jsonl(tmp_path / "again.jsonl", exported)
    import_jsonl([again], tmp_path / "res2", base="base")
    assert canonical(export_all(tmp_path / "res2"), "source_correct") == canonical(records)


def test_verified_export_keeps_both_verdicts(tmp_path):
    from sampler.verify.run import verify_results

    records = rich_records()
    root = tmp_path / "res"
    import_jsonl([write_jsonl(tmp_path / "in.jsonl", records)], root, base="base")
    verify_results(root, workers=1)
    exported = export_all(root)
    by_key = {(str(r["question_id"]), r["model"], r["sample"]): r for r in records}
    source = {
        (r["question_id"], r["model"], r["sample"]): r.get("source_correct") for r in exported
    }
    assert source == {key: r.get("correct") for key, r in by_key.items()}
    by_key = {(r["question_id"], r["model"], r["sample"]): r for r in exported}
    # leash's verdicts: the box holds the gold or not; the line without a source verdict
    # (base, question 1, sample 0: box 2, gold 1) is graded too
    assert by_key[("1", "base", 0)]["correct"] is False
    assert by_key[("1", "base", 0)]["status"] == "incorrect"
    assert by_key[("0", "rl", 1)]["correct"] is True
    assert by_key[("0", "base", 1)]["status"] == "no_answer"  # its text has no box
    # a re-import keeps the original source verdict where there is one; where there is
    # none, the exporting leash's verdict is this import's source verdict
    again = write_jsonl(tmp_path / "again.jsonl", exported)
    import_jsonl([again], tmp_path / "res2", base="base")
    exported = export_all(tmp_path / "res2")
    assert {
        (r["question_id"], r["model"], r["sample"]): r.get("source_correct") for r in exported
    } == {**source, ("1", "base", 0): False}


def test_manifest_roles_and_source_verdicts(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", rich_records())
    summary = import_jsonl([src], tmp_path / "res", base="base")
    assert summary.with_verdict == 0 and summary.with_source_verdict == len(rich_records()) - 1
    results = ResultsFolder.open(tmp_path / "res")
    assert results.manifest.base.name == "base"
    assert [t.name for t in results.manifest.targets] == ["rl"]
    counts = {(r["question_id"], r["model"]): r for r in results.verdict_counts().to_pylist()}
    assert counts[("0", "base")]["n_verified"] == 0  # imported verdicts are not leash's
    assert counts[("0", "base")]["n_trusted"] == 0


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("text"), r"line 3: missing required field 'text'"),
        (lambda r: r.pop("benchmark"), r"line 3: missing required field 'benchmark'"),
        (lambda r: r.update(sample=-1), r"line 3: field 'sample' must be an integer >= 0"),
        (lambda r: r.update(sample="2"), r"line 3: field 'sample' must be an integer >= 0"),
        (
            lambda r: r.update(question_id=1.5),
            r"line 3: field 'question_id' must be a string or integer",
        ),
        (lambda r: r.update(correct="yes"), r"line 3: field 'correct' must be true or false"),
        (lambda r: r.update(status="maybe"), r"line 3: field 'status' must be one of"),
        (
            lambda r: r.update(sample=0, question_id=0, model="base"),
            r"line 3: duplicate sample .* first at .*line 1",
        ),
        (
            lambda r: r.update(gold="999"),
            r"line 4: field 'gold' of question toy/1 differs from the one at .*line 3",
        ),
    ],
)
def test_bad_line_names_file_and_line_and_changes_nothing(tmp_path, mutate, message):
    records = sample_records({"base": [[True, False], [False, True]]})
    records[3].update(gold="1")
    mutate(records[2])
    src = write_jsonl(tmp_path / "in.jsonl", records)
    with pytest.raises(LeashError, match=message):
        import_jsonl([src], tmp_path / "res", base="base")
    assert not (tmp_path / "res").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_not_json_line(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(sample_records({"base": [[True]]})[0]) + "\n{oops\n")
    with pytest.raises(LeashError, match=r"in\.jsonl line 2: not valid JSON"):
        import_jsonl([src], tmp_path / "res", base="base")


def test_base_without_samples(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records({"rl": [[True]]}))
    with pytest.raises(LeashError, match=r"--base base: no sample has model 'base' \(models: rl\)"):
        import_jsonl([src], tmp_path / "res", base="base")
    assert not (tmp_path / "res").exists()


def test_empty_file(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("")
    with pytest.raises(LeashError, match=r"in\.jsonl: no samples \(empty file\)"):
        import_jsonl([src], tmp_path / "res", base="base")


def test_import_into_existing_folder_adds_and_never_overwrites(tmp_path):
    root = tmp_path / "res"
    import_jsonl(
        [write_jsonl(tmp_path / "a.jsonl", sample_records({"base": [[True, False]]}))],
        root,
        base="base",
    )
    more = write_jsonl(tmp_path / "b.jsonl", sample_records({"rl": [[False, False]]}))
    summary = import_jsonl([more], root)
    assert not summary.created and summary.samples == 2
    assert {t.name for t in ResultsFolder.open(root).manifest.targets} == {"rl"}
    before = folder_state(root)
    clash = sample_records({"base": [[False]]})
    clash_file = write_jsonl(tmp_path / "c.jsonl", clash)
    with pytest.raises(LeashError, match=r"c\.jsonl line 1: sample .* is already in"):
        import_jsonl([clash_file], root)
    assert folder_state(root) == before
    with pytest.raises(LeashError, match="already has base model 'base'"):
        import_jsonl([more], root, base="rl")


def test_bad_second_file_leaves_existing_folder_unchanged(tmp_path):
    root = tmp_path / "res"
    import_jsonl(
        [write_jsonl(tmp_path / "a.jsonl", sample_records({"base": [[True]]}))], root, base="base"
    )
    before = folder_state(root)
    good = write_jsonl(tmp_path / "g.jsonl", sample_records({"rl": [[True]]}))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"benchmark": "toy"}\n')
    with pytest.raises(LeashError, match=r"bad\.jsonl line 1: missing required fields"):
        import_jsonl([good, bad], root)
    assert folder_state(root) == before
    assert sorted(p.name for p in root.iterdir() if not p.name.startswith(".leash")) == [
        "manifest.json",
        "questions.parquet",
        "samples",
        "shard-index.arrow",
    ]


def test_domain_and_integer_ids(tmp_path):
    records = sample_records({"base": [[True]]})
    records[0]["domain"] = "algebra"
    root = tmp_path / "res"
    import_jsonl([write_jsonl(tmp_path / "a.jsonl", records)], root, base="base")
    results = ResultsFolder.open(root)
    assert results.manifest.domain_of("toy") == "algebra"
    assert results.questions.column("question_id").to_pylist() == ["0"]


def misspelled_records():
    records = sample_records({"base": [[True, False]], "rl": [[True, True]]})
    first = records[0]
    first["glod"] = first.pop("gold")
    first["probelm"] = first.pop("problem")
    records[1]["corect"] = records[1].pop("correct")
    records[2]["ntokens"] = 12
    records[3]["ntokens"] = 13  # the same unknown field again: warned once, at its first line
    return records


def test_unknown_fields_warn_with_file_first_line_and_closest_field(tmp_path):
    from click.testing import CliRunner

    from leash_tui.cli import cli

    src = write_jsonl(tmp_path / "s.jsonl", misspelled_records())
    result = CliRunner().invoke(cli, ["import", str(src), "--base", "base", "-o", tmp_path / "r"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f'warning: {src} line 1: unknown field "glod", ignored (did you mean gold?)',
        f'warning: {src} line 1: unknown field "probelm", ignored (did you mean problem?)',
        f'warning: {src} line 2: unknown field "corect", ignored (did you mean correct?)',
        f'warning: {src} line 3: unknown field "ntokens", ignored (did you mean n_tokens?)',
    ]


def test_strict_makes_an_unknown_field_an_error_and_writes_nothing(tmp_path):
    from click.testing import CliRunner

    from leash_tui.cli import cli

    src = write_jsonl(tmp_path / "s.jsonl", misspelled_records())
    root = tmp_path / "r"
    args = ["import", str(src), "--base", "base", "-o", str(root), "--strict"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert f'{src} line 1: unknown field "glod" (did you mean gold?); --strict' in result.output
    assert "Traceback" not in result.output
    assert folder_state(root) is None


def test_exported_files_have_no_unknown_fields(tmp_path):
    root = tmp_path / "r"
    import_jsonl([write_jsonl(tmp_path / "s.jsonl", rich_records())], root, base="base")
    again = write_jsonl(tmp_path / "again.jsonl", export_all(root))
    import_jsonl([again], tmp_path / "r2", base="base", strict=True)  # no error
