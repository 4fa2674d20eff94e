"""The gsm8k preset (gold after ``####``, thousands separators removed) and the warning for
golds that look like worked solutions."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.benchmarks.gold_checks import looks_worked
from sampler.benchmarks.loading import load_benchmark
from sampler.verify.verifiers import verifiers

RECORDS = [
    {
        "question": "Natalia sold 48 clips in April and half as many in May. How many in all?",
        "answer": "In May: 48/2 = <<48/2=24>>24.\nIn all: 48+24 = <<48+24=72>>72.\n#### 72",
    },
    {"question": "1200 apples a day; how many in 3 days?", "answer": "1200*3=3600\n#### 3,600"},
]


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "gsm8k.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


def test_gsm8k_preset_takes_the_answer_after_the_marker(tmp_path):
    bench = load_benchmark("gsm8k", str(_file(tmp_path)), verifiers())
    assert [q.gold for q in bench.questions] == ["72", "3600"]
    first = bench.questions[0]
    assert first.metadata["solution"].endswith("<<48+24=72>>72.")
    assert first.metadata["gold_source"] == "after '####' of 'answer'"
    assert bench.warnings == []


def test_a_raw_gsm8k_file_under_another_name_warns(tmp_path):
    bench = load_benchmark("grade_school", str(_file(tmp_path)), verifiers())
    assert bench.questions[0].gold.endswith("#### 72")
    assert len(bench.warnings) == 1
    assert "2 of 2 golds look like worked solutions" in bench.warnings[0]
    assert "gsm8k=FILE" in bench.warnings[0]
    result = CliRunner().invoke(cli, ["benchmarks", f"grade_school={_file(tmp_path)}"])
    assert result.exit_code == 0, result.output
    assert "warning: benchmark 'grade_school'" in result.stderr


def test_short_golds_do_not_look_worked():
    assert not looks_worked(r"\frac{1}{2}")
    assert not looks_worked("(1, 2), (3, 4)")
    assert looks_worked("We have\n" + "x = 1 and so on. " * 10)
    assert looks_worked("Step <<2*3=6>> then #### 6")
