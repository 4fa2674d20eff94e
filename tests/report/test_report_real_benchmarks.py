"""`leash report` on questions of real benchmark files (math500, aime24) with synthetic verdicts.

Real ids (math500's "test/precalculus/807.json", aime24's integers) and golds go
through the writer, the grouping and the report; the expected categories are
counted here from the verdicts the test itself chose. The files are in tests/data/benchmarks.
"""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.benchmarks.presets import load_benchmark_file
from sampler.store.schema import BenchmarkEntry
from tests.support.folder_builders import sample_rows, write_folder

SAMPLES = 4


def test_report_on_real_benchmark_questions(benchmark_files, tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))
    benches = [
        load_benchmark_file(name, str(benchmark_files / name / "test.jsonl"))
        for name in ("math500", "aime24")
    ]
    root = tmp_path / "results"
    rng = random.Random(3)
    expected: dict[str, dict[str, int]] = {}
    rows = []
    questions = []
    for bench in benches:
        questions += [q.to_row() for q in bench.questions]
        tally = dict.fromkeys("PESO", 0)
        for q in bench.questions:
            c_base, c_rl = rng.randint(0, SAMPLES), rng.randint(0, SAMPLES)
            tally["PSEO"[2 * (c_base == 0) + (c_rl == 0)]] += 1  # base out: E or O
            for model, c in (("base", c_base), ("rlvr", c_rl)):
                spec = " ".join(["C"] * c + ["Iwrong"] * (SAMPLES - c))
                rows += sample_rows(bench.name, q.question_id, model, spec, gold=q.gold or "?")
        expected[bench.name] = tally
    write_folder(
        root,
        questions,
        [rows],
        models=["base", "rlvr"],
        benchmarks=[BenchmarkEntry(b.name, b.domain) for b in benches],
    )

    result = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["rows"]
    by_name = {r["name"]: r for r in report}
    for bench in benches:
        row = by_name[bench.name]
        assert row["N"] == len(bench.questions)
        assert {c: row[c] for c in "PESO"} == expected[bench.name]
        assert row["k"] == SAMPLES
    overall = by_name["overall"]
    assert overall["N"] == 530
    assert {c: overall[c] for c in "PESO"} == {
        c: expected["math500"][c] + expected["aime24"][c] for c in "PESO"
    }
    table = CliRunner().invoke(cli, ["report", str(root)])
    assert table.exit_code == 0 and "math500" in table.stdout and "aime24" in table.stdout
