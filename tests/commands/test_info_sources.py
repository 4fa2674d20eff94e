"""``leash info`` names, for each benchmark, the input files its samples came from only."""

from __future__ import annotations

import json

from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder


def _write(path, benchmark: str) -> str:
    rows = [
        {
            "benchmark": benchmark,
            "question_id": "1",
            "model": model,
            "sample": s,
            "text": "so \\boxed{7}",
            "problem": "3+4?",
            "gold": "7",
        }
        for model in ("base", "rl")
        for s in range(2)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_each_benchmark_lists_its_own_input_files(tmp_path):
    alg = _write(tmp_path / "algebra.jsonl", "algebra")
    geo = _write(tmp_path / "geometry.jsonl", "geometry")
    out = tmp_path / "r"
    result = CliRunner().invoke(cli, ["import", alg, geo, "--base", "base", "-o", str(out)])
    assert result.exit_code == 0, result.output
    sources = {b.name: b.source for b in ResultsFolder.open(out).manifest.benchmarks}
    assert sources == {"algebra": alg, "geometry": geo}
    info = CliRunner().invoke(cli, ["info", str(out)], terminal_width=300)
    assert info.exit_code == 0, info.output
    line = next(row for row in info.output.splitlines() if "geometry" in row and "jsonl" in row)
    assert "algebra.jsonl" not in line
