"""Benchmark loading: presets on the real files, every file format, and bad input."""

from __future__ import annotations

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sampler.benchmarks.loading import BenchSource, parse_bench_spec
from sampler.benchmarks.presets import (
    PRESETS,
    custom_mapping,
    gold_to_text,
    load_benchmark_file,
)
from sampler.errors import LeashError
from tests.support.records import write_jsonl

EXPECTED_ROWS = {
    "math500": 500,
    "aime24": 30,
    "amc23": 40,
    "minerva_math": 272,
    "olympiadbench": 675,
}


@pytest.mark.parametrize("name", sorted(EXPECTED_ROWS))
def test_presets_load_real_files(benchmark_files, name):
    bench = load_benchmark_file(name, str(benchmark_files / name / "test.jsonl"))
    assert len(bench.questions) == EXPECTED_ROWS[name]
    assert len({q.question_id for q in bench.questions}) == EXPECTED_ROWS[name]
    assert all(q.problem.strip() and q.gold for q in bench.questions)
    assert bench.domain == "math"


def test_preset_quirks_on_real_files(benchmark_files):
    amc = load_benchmark_file("amc23", str(benchmark_files / "amc23/test.jsonl"))
    assert amc.questions[0].gold == "27"  # JSON float 27.0
    minerva = load_benchmark_file("minerva_math", str(benchmark_files / "minerva_math/test.jsonl"))
    assert minerva.questions[0].gold == "1.6"  # last \boxed{} of the solution
    assert minerva.questions[0].question_id == "0"
    olympiad = load_benchmark_file(
        "olympiadbench", str(benchmark_files / "olympiadbench/test.jsonl")
    )
    units = [q for q in olympiad.questions if "unit" in q.metadata]
    assert units and all(q.metadata["unit"] for q in units)
    multi = [q for q in olympiad.questions if q.metadata.get("is_multiple_answer")]
    assert len(multi) == 94
    math500 = load_benchmark_file("math500", str(benchmark_files / "math500/test.jsonl"))
    assert math500.questions[0].question_id == "test/precalculus/807.json"
    assert math500.questions[0].metadata["subject"] == "Precalculus"


def test_gold_normalisation():
    assert gold_to_text(27.0) == ("27", None)
    assert gold_to_text(2.5) == ("2.5", None)
    assert gold_to_text(["$3$"]) == ("$3$", None)
    assert gold_to_text(["$3$", "$4$"]) == ("$3$, $4$", ["$3$", "$4$"])
    assert gold_to_text("  ") == (None, None)


RECORDS = [
    {"question": "1+1?", "answer": 2.0},
    {"question": "2+2?", "answer": "4"},
]


def test_every_file_format_gives_the_same_questions(tmp_path):
    write_jsonl(tmp_path / "b.jsonl", RECORDS)
    (tmp_path / "b.json").write_text(json.dumps({"data": RECORDS}))
    pq.write_table(
        pa.Table.from_pylist(
            [{"question": r["question"], "answer": str(r["answer"])} for r in RECORDS]
        ),
        tmp_path / "b.parquet",
    )
    with open(tmp_path / "b.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "answer"])
        writer.writeheader()
        writer.writerows(RECORDS)
    loaded = {
        ext: [
            (q.question_id, q.problem, q.gold)
            for q in load_benchmark_file("mine", str(tmp_path / f"b.{ext}")).questions
        ]
        for ext in ("jsonl", "json", "parquet", "csv")
    }
    assert loaded["jsonl"] == [("0", "1+1?", "2"), ("1", "2+2?", "4")]
    assert loaded["json"] == loaded["jsonl"]
    # csv and parquet carry the float as the string "2.0"
    assert [q[:2] for q in loaded["csv"]] == [q[:2] for q in loaded["jsonl"]]
    assert loaded["parquet"] == loaded["csv"]


def test_custom_mapping(tmp_path):
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            {"q": "x?", "sol": "so \\boxed{7}", "key": "a"},
            {"q": "y?", "sol": "then \\boxed{\\frac{1}{2}}", "key": "b"},
        ],
    )
    mapping = custom_mapping(problem="q", gold_from_solution="sol", id="key")
    bench = load_benchmark_file("custom", str(path), mapping=mapping, domain="algebra")
    assert [(q.question_id, q.gold) for q in bench.questions] == [("a", "7"), ("b", "\\frac{1}{2}")]
    assert bench.domain == "algebra"


def test_missing_field_names_file_and_line(tmp_path):
    path = write_jsonl(
        tmp_path / "aime.jsonl",
        [
            {"id": 1, "problem": "p", "answer": "1"},
            {"id": 2, "answer": "2"},
        ],
    )
    with pytest.raises(LeashError, match=r"aime\.jsonl line 2: missing field 'problem'"):
        load_benchmark_file("aime24", str(path))


def test_missing_gold_names_line(tmp_path):
    path = write_jsonl(tmp_path / "m.jsonl", [{"problem": "p", "solution": "no box", "idx": 0}])
    with pytest.raises(LeashError, match=r"m\.jsonl line 1: no gold answer"):
        load_benchmark_file("minerva_math", str(path))


def test_duplicate_id_names_both_lines(tmp_path):
    path = write_jsonl(
        tmp_path / "d.jsonl",
        [
            {"id": 7, "problem": "p", "answer": "1"},
            {"id": 8, "problem": "p", "answer": "1"},
            {"id": 7, "problem": "q", "answer": "2"},
        ],
    )
    with pytest.raises(
        LeashError,
        match=r"d\.jsonl line 3: duplicate question id '7' \(first at .*d\.jsonl line 1\)",
    ):
        load_benchmark_file("aime24", str(path))


def test_invalid_json_names_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"problem": "p", "answer": "1"}\n{"problem": oops}\n')
    with pytest.raises(LeashError, match=r"bad\.jsonl line 2: not valid JSON"):
        load_benchmark_file("x", str(path))


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    with pytest.raises(LeashError, match=r"empty\.jsonl: no questions"):
        load_benchmark_file("x", str(path))


def test_unknown_extension_and_missing_file(tmp_path):
    with pytest.raises(LeashError, match="no such file"):
        load_benchmark_file("x", str(tmp_path / "nope.jsonl"))
    (tmp_path / "b.txt").write_text("hi")
    with pytest.raises(LeashError, match="unknown file type '.txt'"):
        load_benchmark_file("x", str(tmp_path / "b.txt"))


def test_hub_source_without_datasets_is_clear(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_datasets(name, *args, **kwargs):
        if name == "datasets":
            raise ImportError("no datasets")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_datasets)
    with pytest.raises(LeashError, match=r"hf:org/aime: .*'datasets' package"):
        load_benchmark_file("aime24", "hf:org/aime")


def test_bench_spec_parsing():
    readers: dict = {}  # no verifier prefixes: every source is taken as it is
    assert parse_bench_spec("aime24=data/a.jsonl", readers) == (
        "aime24",
        BenchSource("data/a.jsonl"),
    )
    assert parse_bench_spec("x=hf:org/name:test", readers) == ("x", BenchSource("hf:org/name:test"))
    with pytest.raises(LeashError, match="expected NAME=PATH"):
        parse_bench_spec("data/a.jsonl", readers)
    assert set(PRESETS) >= {"math500", "aime24", "aime25", "amc23", "minerva_math", "olympiadbench"}


def test_reference_solutions_are_kept_for_perplexity_traces(tmp_path):
    path = write_jsonl(
        tmp_path / "b.jsonl",
        [
            {"problem": "1+1?", "answer": "2", "solution": "Add: $\\boxed{2}$."},
            {"problem": "2+2?", "answer": "4", "solution": ["", "Four: $\\boxed{4}$.", "x"]},
            {"problem": "3+3?", "answer": "6"},
        ],
    )
    questions = load_benchmark_file("toy", str(path)).questions
    assert questions[0].metadata["solution"] == "Add: $\\boxed{2}$."
    assert questions[1].metadata["solution"] == "Four: $\\boxed{4}$."  # first non-empty
    assert "solution" not in questions[2].metadata
