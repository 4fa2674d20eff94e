"""`leash entropy`: the exact token entropy of stored samples equals H(p) of a closed-form
checkpoint whose distribution is spread over a 400-token vocabulary; resumable; reports
prefer it and say so."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.sample.token_entropy import topk_entropies
from sampler.store.folder import ResultsFolder
from tests.support.teacher_forcing_fixtures import (
    VOCAB,
    checkpoint,
    entropy_of,
    spread_distribution,
    stored_folder,
)

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    parent = tmp_path_factory.mktemp("tf")
    p_base, p_rl = spread_distribution(1), spread_distribution(2)
    return {
        "base": (checkpoint(parent / "base", p_base), p_base),
        "rlvr": (checkpoint(parent / "rlvr", p_rl), p_rl),
    }


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def test_exact_entropy_equals_the_closed_form(tmp_path, checkpoints, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))
    root = stored_folder(tmp_path / "res")
    (base_ckpt, p_base), (rl_ckpt, p_rl) = checkpoints["base"], checkpoints["rlvr"]
    # the test means something: top-20 bounds are far apart for this p
    bounds = topk_entropies(np.sort(np.log(p_base))[::-1][None, :20], VOCAB)
    assert bounds.upper[0] - bounds.lower[0] > 0.5
    assert bounds.topk[0] < entropy_of(p_base) - 3.0
    result = invoke(
        "entropy", root, "--model", f"base={base_ckpt}", "--model", f"rlvr={rl_ckpt}",
        "--samples", "3", "--device", "cpu",
    )  # fmt: skip
    assert "base: 6 sample(s) scored" in result.output
    assert "rlvr has no sampling record" in result.output
    table = ResultsFolder.open(root).samples(["model", "sample", "token_entropy_exact"])
    for model, p in (("base", p_base), ("rlvr", p_rl)):
        mine = table.filter(pc.equal(table.column("model"), model)).to_pylist()
        for row in mine:
            if row["sample"] < 3:
                assert row["token_entropy_exact"] == pytest.approx(entropy_of(p), rel=1e-4)
            else:
                assert row["token_entropy_exact"] is None
    # resumable: nothing left to do
    again = invoke("entropy", root, "--model", f"base={base_ckpt}", "--samples", "3")
    assert "base: 0 sample(s) scored, 6 already had" in again.output
    # reports prefer the exact value and say so
    document = json.loads(invoke("report", root, "--format", "json").stdout)
    overall = document["rows"][-1]
    assert overall["token_entropy"]["base"] == pytest.approx(entropy_of(p_base), rel=1e-4)
    assert overall["token_entropy"]["target"] == pytest.approx(entropy_of(p_rl), rel=1e-4)
    assert overall["token_entropy_kind"] == {"base": "exact", "target": "exact"}
    assert "exact (teacher forcing)" in invoke("report", root).stdout


def test_sharded_runs_cover_every_question_once(tmp_path, checkpoints):
    root = stored_folder(tmp_path / "res")
    base_ckpt = checkpoints["base"][0]
    scored = 0
    for part in ("0/2", "1/2"):
        out = invoke("entropy", root, "--model", f"base={base_ckpt}", "--shard", part).output
        scored += int(out.split("base: ")[1].split(" sample")[0])
    assert scored == 8  # 2 questions x 4 samples (fewer than --samples 32)
    values = ResultsFolder.open(root).samples(["model", "token_entropy_exact"])
    base = values.filter(pc.equal(values.column("model"), "base"))
    assert base.column("token_entropy_exact").null_count == 0


def test_old_folder_without_the_column_still_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))
    root = stored_folder(tmp_path / "res")
    row = json.loads(invoke("report", root, "--format", "json").stdout)["rows"][-1]
    assert row["token_entropy_kind"] == {"base": "top-k", "target": "top-k"}


def test_refusals(tmp_path):
    root = stored_folder(tmp_path / "res")
    for args, message in (
        (["--model", "nope=x"], "no such model"),
        (["--model", "base"], "expected NAME=PATH"),
        (["--model", "base=x", "--engine", "vllm"], "full distribution"),
    ):
        result = CliRunner().invoke(cli, ["entropy", str(root), *args])
        assert result.exit_code == 1 and message in result.output, result.output
        assert "Traceback" not in result.output
