"""Issue 14 items 8, 11 and 12: hostile inputs get one-line errors, never tracebacks or
silently wrong results."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from leash_tui.commands.triage import render
from leash_tui.safe_text import visible
from sampler.errors import LeashError
from sampler.importers.formats.jsonl import import_jsonl
from sampler.importers.jsonl_export import write_jsonl as export_jsonl
from sampler.store.manifest import load_manifest
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.golds import Gold
from sampler.verify.answers.math_verifier import judge_safely
from sampler.verify.answers.parse_depth import nesting_depth
from tests.support.folder_builders import build_folder, counts_spec
from tests.support.records import sample_records, write_jsonl


def _line(**fields) -> str:
    record = {"benchmark": "toy", "question_id": "1", "model": "base", "sample": 0, "text": "x"}
    record.update(fields)
    return json.dumps(record)


def _import_lines(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([_line(), *lines]) + "\n", encoding="utf-8")
    return path


# -- item 8: one-line errors naming file and line --------------------------------------------------
@pytest.mark.parametrize(
    ("second_line", "says"),
    [
        (_line(sample=1).replace('"x"', "1" + "0" * 5000), "line 2: not usable JSON"),
        (_line(sample=1).replace('"1"', "1" + "0" * 5000), "line 2: not usable JSON"),
        ("[" * 100_000 + "]" * 100_000, "line 2: JSON nested too deeply"),
        (
            _line(sample=1, text="a").replace('"a"', '"\\ud800"'),
            "line 2: field 'text' holds a lone",
        ),
        (_line(sample=1, n_tokens=2**31), "line 2: field 'n_tokens' must be an integer from 0"),
    ],
    ids=["huge-int-text", "huge-int-id", "deep-nesting", "lone-surrogate", "n_tokens-2^31"],
)
def test_bad_lines_are_one_line_errors(tmp_path: Path, second_line: str, says: str) -> None:
    path = _import_lines(tmp_path, second_line)
    with pytest.raises(LeashError, match=says):
        import_jsonl([path], tmp_path / "r", base="base")
    assert not (tmp_path / "r").exists()


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(_line().encode() + b"\n" + _line(sample=1).encode()[:-3] + b"\xff\xfe}\n")
    with pytest.raises(LeashError, match=r"in.jsonl line 2: not UTF-8"):
        import_jsonl([path], tmp_path / "r", base="base")


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("tool_versions", 5, "field 'tool_versions' must be"),
        ("verification", {"extraction": {"default": 5}}, "'verification.extraction.default'"),
        ("verification", {"pending": {"done": 5}}, "'verification.pending.done'"),
        ("models", [{"name": 5, "role": "base"}], "'models\\[0\\].name'"),
    ],
)
def test_a_manifest_with_mistyped_values_is_a_one_line_error(
    tmp_path: Path, field: str, value: object, says: str
) -> None:
    root = build_folder(tmp_path / "r", {("toy", "1"): {"base": "C", "rlvr": "C"}})
    manifest = json.loads((root / "manifest.json").read_text())
    manifest[field] = value
    (root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(LeashError, match=says):
        load_manifest(root)
    for command in (["info", str(root)], ["verify", str(root), "--no-progress"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1 and "manifest.json" in result.output, result.output


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_full_disk_or_read_only_folder_is_a_one_line_error(
    tmp_path: Path, monkeypatch, code: int
) -> None:
    root = build_folder(tmp_path / "r", {("toy", "1"): {"base": "C", "rlvr": "C"}})
    source = write_jsonl(tmp_path / "rl2.jsonl", sample_records({"rl2": [[True]]}))
    import sampler.importers.staging as staging

    def refuse(path, table):
        raise OSError(code, "refused", str(path))

    monkeypatch.setattr(staging, "write_shard_file", refuse)
    result = CliRunner().invoke(cli, ["import", str(source), "-o", str(root)])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and "Error:" in result.output
    assert "stage-00000.parquet" in result.output
    monkeypatch.setattr(
        "sampler.store.folder.ResultsFolder.replace_shard", lambda self, p, t: refuse(p, t)
    )
    result = CliRunner().invoke(cli, ["verify", str(root), "--no-progress", "--force"])
    assert result.exit_code == 1 and result.output.strip().count("\n") == 0, result.output


# -- item 11: non-finite golds ------------------------------------------------------------------
@pytest.mark.parametrize("gold", ["NaN", "1e400", "-Infinity"])
def test_a_non_finite_gold_is_refused_with_file_and_line(tmp_path: Path, gold: str) -> None:
    path = _import_lines(tmp_path, _line(sample=1).replace("}", f', "gold": {gold}}}'))
    with pytest.raises(LeashError, match="in.jsonl line 2: field 'gold' must be a finite"):
        import_jsonl([path], tmp_path / "r", base="base")


def test_a_huge_integer_entropy_is_refused(tmp_path: Path) -> None:
    path = _import_lines(tmp_path, _line(sample=1, token_entropy=10**400))
    with pytest.raises(LeashError, match="line 2: field 'token_entropy' must be finite"):
        import_jsonl([path], tmp_path / "r", base="base")


# -- item 12 -----------------------------------------------------------------------------------
def test_triage_csv_neutralises_formulas() -> None:
    rows = [{"benchmark": "b", "question_id": "=1+1", "note": "@SUM(A1)", "tag": "-x"}]
    text = render(rows, "csv")
    assert "'=1+1" in text and "'@SUM(A1)" in text and "'-x" in text


def test_bidi_controls_are_made_visible() -> None:
    assert visible("abc\u202edef\u2066") == "abc\\u202edef\\u2066"


def test_export_escapes_c1_and_bidi_controls(tmp_path: Path) -> None:
    import io

    buffer = io.StringIO()
    export_jsonl([{"text": "a\u009b31m\u009d\u202eb"}], buffer)
    line = buffer.getvalue()
    assert "\u009b" not in line and "\u009d" not in line and "\u202e" not in line
    assert json.loads(line)["text"] == "a\u009b31m\u009d\u202eb"


def test_garbage_inside_a_shard_names_the_shard(tmp_path: Path) -> None:
    from sampler.store.folder import ResultsFolder

    root = build_folder(
        tmp_path / "r", {("toy", str(q)): {"base": counts_spec(1, 3)} for q in range(40)}
    )
    shard = next((root / "samples").glob("part-*.parquet"))
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(shard).metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    chunk = meta.row_group(0).column(names.index("text"))  # pages of a column read below
    data = bytearray(shard.read_bytes())
    start = chunk.data_page_offset
    size = min(200, chunk.total_compressed_size)
    data[start : start + size] = b"\x07" * size  # pages, not the footer
    shard.write_bytes(bytes(data))
    with pytest.raises(LeashError, match=shard.name):
        ResultsFolder.open(root).samples(columns=["text", "sample"])


def test_answers_nested_past_the_cap_are_errors_not_verdicts() -> None:
    deep = "1"
    for _ in range(500):
        deep = "\\frac{1}{" + deep + "}"
    assert nesting_depth(deep) == 500
    verdict = judge_safely(Gold("1"), AnswerSpan(deep))
    assert verdict.status == "error" and "nested 500 deep" in (verdict.detail or "")
    assert judge_safely(Gold("\\frac{1}{2}"), AnswerSpan("\\frac{1}{2}")).status == "correct"
