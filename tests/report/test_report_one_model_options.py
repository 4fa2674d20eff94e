"""`leash report` options on a one-model folder: its own estimators, forecast and intervals,
or a one-line refusal; `--ci` with `--bootstrap 0` says it is dropped."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from tests.support.folder_builders import build_folder

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C"},
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7"},
    ("geo", "1"): {"base": "C I7 I8 I8", "rlvr": "I7 I7 I7 I7"},
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def one_model(tmp_path):
    spec = {key: {"base": models["base"]} for key, models in SPEC.items()}
    return build_folder(tmp_path / "r", spec, targets=())


def run(*args):
    return CliRunner().invoke(cli, ["report", *map(str, args)])


def test_one_model_gets_its_own_estimators_forecast_and_intervals(one_model):
    result = run(one_model, "--estimate-k", "2,4", "--forecast", "4", "--format", "json")
    assert result.exit_code == 0, result.output
    alg = next(r for r in json.loads(result.stdout)["rows"] if r["name"] == "alg")
    at2, at4 = alg["estimates"]
    # alg/1: 2 of 4 right, alg/2: none right
    assert at2["k"] == 2 and at2["pass@k"] == pytest.approx((1 - 1 / 6) / 2)
    assert at2["pass^k"] == pytest.approx((1 / 6) / 2)
    assert at2["G-Pass@k"] == pytest.approx((1 - 1 / 6) / 2)  # at least 1 of 2 at τ = 0.5
    assert at4["pass@k"] == pytest.approx(0.5) and at4["pass^k"] == 0.0
    # maj@4: alg/1 ties the correct class with I7 (1/2), alg/2 has no correct sample
    assert at4["maj@n"] == pytest.approx(0.25) and at4["distinct_answers"] == pytest.approx(2.0)
    assert alg["forecast"] == {"k": 4, "value": pytest.approx(0.5), "model": "measured"}
    lo, hi = alg["ci"]["pass@1"]
    assert lo <= alg["pass@1"] <= hi and hi > lo
    beyond = json.loads(run(one_model, "--forecast", "64", "--format", "json").stdout)
    assert beyond["rows"][-1]["forecast"]["model"] != "measured"
    table = run(one_model, "--estimate-k", "2", "--forecast", "64")
    assert table.exit_code == 0, table.output
    assert "pass@2 0.4167" in table.stdout and "maj@n 0.2500" in table.stdout
    assert "pass@64 forecast" in table.stdout and "CI [" in table.stdout
    csv = run(one_model, "--estimate-k", "2", "--format", "csv")
    assert csv.exit_code == 0 and "--format json, table or markdown" in csv.stderr


def test_a_k_above_the_samples_is_refused_for_one_model(one_model):
    result = run(one_model, "--estimate-k", "5")
    assert result.exit_code != 0 and "--estimate-k 5" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("option", [["--threshold-curve"], ["--support-threshold", "0.5"]])
def test_pair_options_are_refused_for_one_model(one_model, option):
    result = run(one_model, *option)
    assert result.exit_code != 0 and "one model (base)" in result.output
    assert "Traceback" not in result.output


def test_ci_with_no_bootstrap_says_it_is_dropped(one_model, tmp_path):
    pair = build_folder(tmp_path / "pair", SPEC, targets=("rlvr",))
    for folder in (one_model, pair):
        result = run(folder, "--bootstrap", "0", "--ci", "0.9")
        assert result.exit_code == 0, result.output
        assert "--ci is dropped: --bootstrap 0" in result.stderr
        assert "--ci is dropped" not in run(folder, "--bootstrap", "0").stderr
