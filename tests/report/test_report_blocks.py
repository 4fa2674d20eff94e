"""The report's optional parts: estimators, the forecast and guessing, in every format."""

from __future__ import annotations

import csv
import io
import json
from math import comb

import pytest
from click.testing import CliRunner
from scipy import stats

from leash_tui.cli import cli
from leash_tui.report.formats import FORMATS
from tests.report.count_folders import counts_folder
from tests.support.folder_builders import build_folder, counts_spec

COUNTS = {"1": (0, 6), "2": (2, 8), "3": (5, 1), "4": (8, 8)}  # c of 8, (base, target)
OPTIONS = "Pick one.\n(A) 1\n(B) 2\n(C) 3\n(D) 4"


@pytest.fixture
def folder(tmp_path):
    return counts_folder(tmp_path / "results", COUNTS, 8)


def run(*args):
    return CliRunner().invoke(cli, ["report", *map(str, args)])


def document(*args):
    result = run(*args, "--format", "json", "--bootstrap", "0")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_estimators_at_each_budget_match_hand_computation(folder):
    doc = document(folder, "--estimate-k", "2,8", "--g-tau", "0.5")
    rows = [r for r in doc["estimates"] if r["scope"] == "overall"]
    assert [r["k"] for r in rows] == [2, 8]
    base = [b for b, _ in COUNTS.values()]
    for row in rows:
        k = row["k"]
        hat = sum(comb(c, k) / comb(8, k) for c in base) / 4
        assert row["pass^k"]["base"] == pytest.approx(hat)
        need = -(-k // 2)  # ⌈k/2⌉
        g = sum(stats.hypergeom.sf(need - 1, 8, c, k) for c in base) / 4
        assert row["G-Pass@k"]["base"] == pytest.approx(g)
        assert row["pass@k"]["base"] + 1e-12 >= row["G-Pass@k"]["base"] >= row["pass^k"]["base"]
    # classes: all "0" / "42" and "0" / "42" and "0" / all "42" -> 1, 2, 2, 1
    assert rows[0]["distinct_answers"]["base"] == pytest.approx(1.5)
    # majority vote of all 8: 0 of 8, 2 vs 6 wrong, 5 vs 3, 8 of 8 -> 0, 0, 1, 1
    assert rows[0]["maj@n"]["base"] == pytest.approx(0.5)


def test_estimate_above_the_samples_is_refused(folder):
    result = run(folder, "--estimate-k", "4,9")
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "--estimate-k 9" in result.output and "--forecast" in result.output


def test_forecast_is_labelled_in_every_format(folder):
    doc = document(folder, "--forecast", "4096")
    row = doc["forecast"][-1]
    assert row["forecast_k"] == 4096
    assert 0 <= row["forecast"]["base"] <= 1 and 0 <= row["forecast"]["target"] <= 1
    for fmt in FORMATS:
        result = run(folder, "--forecast", "4096", "--format", fmt, "--bootstrap", "0")
        assert result.exit_code == 0, result.output
        assert "forecast" in result.stdout
    without = run(folder, "--format", "markdown").stdout
    assert "forecast" not in without


def test_csv_lines_of_a_block(folder):
    text = run(folder, "--format", "csv", "--estimate-k", "4", "--bootstrap", "0").stdout
    lines = list(csv.DictReader(io.StringIO(text)))
    estimates = [line for line in lines if line["row"] == "estimates"]
    assert len(estimates) == 3  # benchmark, domain, overall
    assert float(estimates[-1]["pass^k_base"]) == pytest.approx(
        sum(comb(c, 4) / comb(8, 4) for c, _ in COUNTS.values()) / 4
    )
    assert {line["row"] for line in lines} == {"summary", "estimates"}


def test_guessing_on_choice_questions(tmp_path):
    spec = {
        ("mc", "1"): {"base": counts_spec(2, 8), "rlvr": counts_spec(8, 8)},
        ("mc", "2"): {"base": counts_spec(0, 8), "rlvr": counts_spec(1, 8)},
    }
    problems = {key: OPTIONS for key in spec}
    root = build_folder(
        tmp_path / "mc", spec, verifiers={"mc": "choice"}, problems=problems, golds={}
    )
    doc = document(root)
    row = doc["guessing"][0]
    assert row["options"] == 4 and row["questions"] == 2
    assert row["guess@k"] == pytest.approx(1 - 0.75**8)
    assert row["supported"] == {"base": 1, "target": 2}
    # 2 of 8 and 1 of 8 are what a guesser gets; 8 of 8 is not
    assert row["by_chance"] == {"base": 1, "target": 1}
    table = run(root, "--bootstrap", "0").stdout
    assert "guessing (choice questions)" in table


def test_no_guessing_part_without_choice_benchmarks(folder):
    assert "guessing" not in document(folder)


def test_threshold_curve_agrees_with_each_support_threshold(folder):
    curve = [r for r in document(folder, "--threshold-curve")["thresholds"]]
    overall = [r for r in curve if r["scope"] == "overall"]
    assert [r["tau"] for r in overall] == [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
    for point in overall:
        row = document(folder, "--support-threshold", str(point["tau"]))["rows"][-1]
        assert [point[c] for c in "PESO"] == [row[c] for c in "PESO"]
    # at τ = 1 only questions solved on every sample count: base 4; target 2 and 4
    assert [overall[-1][c] for c in "PESO"] == [1, 1, 0, 2]
