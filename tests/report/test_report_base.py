"""`leash report --base NAME` (any two models head to head) and the one-model table."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from tests.support.folder_builders import build_folder

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C", "rl2": "I1 I1 I1 I1"},
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7", "rl2": "C I1 I1 I1"},
    ("geo", "1"): {"base": "C I7 I8 I8", "rlvr": "I7 I7 I7 I7", "rl2": "C C C C"},
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


def report_json(*args):
    result = CliRunner().invoke(cli, ["report", *map(str, args), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def overall(rows, target):
    return next(r for r in rows if r["target"] == target and r["scope"] == "overall")


def test_base_option_compares_any_two_models_of_the_folder(tmp_path):
    folder = build_folder(tmp_path / "r", SPEC, targets=("rlvr", "rl2"))
    rows = report_json(folder, "--base", "rlvr")["rows"]
    assert {r["base"] for r in rows} == {"rlvr"}
    assert list(dict.fromkeys(r["target"] for r in rows)) == ["base", "rl2"]
    forward = overall(report_json(folder, "--target", "rlvr")["rows"], "rlvr")
    backward = overall(rows, "base")
    assert (backward["P"], backward["E"], backward["S"], backward["O"]) == (
        forward["P"],
        forward["S"],
        forward["E"],
        forward["O"],
    )
    assert backward["pass@1"] == {
        "base": forward["pass@1"]["target"],
        "target": forward["pass@1"]["base"],
    }
    head_to_head = report_json(folder, "--base", "rl2", "--target", "rlvr")["rows"]
    assert {(r["base"], r["target"]) for r in head_to_head} == {("rl2", "rlvr")}


def test_base_option_refuses_an_unknown_model(tmp_path):
    folder = build_folder(tmp_path / "r", SPEC, targets=("rlvr",))
    result = CliRunner().invoke(cli, ["report", str(folder), "--base", "nope"])
    assert result.exit_code == 1
    assert "--base nope: no such model" in result.output and "base, rlvr" in result.output
    assert "Traceback" not in result.output


def test_a_folder_with_one_model_gets_its_own_table(tmp_path):
    spec = {key: {"base": models["base"]} for key, models in SPEC.items()}
    folder = build_folder(tmp_path / "r", spec, targets=())
    document = report_json(folder, "--curves")
    assert document["format"] == "leash-model-report/1" and document["model"] == "base"
    alg = next(r for r in document["rows"] if r["name"] == "alg")
    # alg/1: 2 of 4 right (pass@4 = 1); alg/2: none right
    assert alg["k"] == 4 and alg["N"] == 2
    assert alg["pass@1"] == pytest.approx(0.25) and alg["pass@k"] == pytest.approx(0.5)
    assert alg["support"] == pytest.approx(1.0)
    assert [p["k"] for p in alg["curve"]] == [1, 2, 4]
    assert alg["curve"][0]["pass@k"] == pytest.approx(0.25)
    assert alg["curve"][1]["pass@k"] == pytest.approx((1 - 1 / 6) / 2)  # 1 - C(2,2)/C(4,2)
    assert alg["answer_entropy"] is not None
    result = CliRunner().invoke(cli, ["report", str(folder)])
    assert result.exit_code == 0, result.output
    assert "base (one model)" in result.stdout and "pass@k" in result.stdout
    assert "only model with samples" in result.stderr
    for fmt in ("csv", "markdown", "latex"):
        result = CliRunner().invoke(cli, ["report", str(folder), "--format", fmt])
        assert result.exit_code == 0 and "alg" in result.stdout, (fmt, result.output)
