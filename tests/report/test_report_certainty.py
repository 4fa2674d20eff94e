"""`leash report` says how sure each number is: intervals, thresholds of support, small budgets."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from tests.report.count_folders import counts_folder
from tests.support.folder_builders import build_folder

#: c of 10 samples per question (base, target)
COUNTS = {"1": (0, 9), "2": (2, 9), "3": (3, 0), "4": (9, 1), "5": (5, 5), "6": (1, 0)}


@pytest.fixture
def folder(tmp_path):
    return counts_folder(tmp_path / "results", COUNTS, 10)


def run(*args):
    result = CliRunner().invoke(cli, ["report", *map(str, args)])
    return result


def rows(*args):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["rows"]


def test_default_rows_carry_intervals_around_their_rates(folder):
    row = rows(folder)[-1]
    ci = row["ci"]
    assert ci["level"] == 0.95 and ci["resamples"] == 2000
    for name in ("SRR", "NDR", "SDS", "NSCR"):
        lo, hi = ci[name]
        assert lo <= row[name] <= hi
    lo, hi = ci["pass@1_diff"]
    assert lo <= row["pass@1"]["target"] - row["pass@1"]["base"] <= hi


def test_intervals_are_the_same_for_two_readers_and_widen_with_the_level(folder):
    first, second = rows(folder, "--bootstrap", "500"), rows(folder, "--bootstrap", "500")
    assert first[-1]["ci"] == second[-1]["ci"]
    narrow = rows(folder, "--bootstrap", "500", "--ci", "0.5")[-1]["ci"]["pass@1_diff"]
    wide = rows(folder, "--bootstrap", "500", "--ci", "0.99")[-1]["ci"]["pass@1_diff"]
    assert wide[0] < narrow[0] and narrow[1] < wide[1]


def test_bootstrap_zero_gives_no_interval(folder):
    assert all("ci" not in row for row in rows(folder, "--bootstrap", "0"))
    table = run(folder, "--bootstrap", "0").stdout
    assert "CI" not in table and "bootstrap" not in table


def test_intervals_in_their_own_part_at_80_columns(folder):
    result = CliRunner().invoke(cli, ["report", str(folder)], terminal_width=80)
    assert result.exit_code == 0
    assert "NSCR CI" in result.stdout and "paired bootstrap" in result.stdout


def test_support_threshold_counts_share_of_successes(folder):
    # c/n >= 0.3: base supports 3, 4, 5; target 1, 2, 5 -> P = {5}, E = {1, 2}, S = {3, 4}
    row = rows(folder, "--support-threshold", "0.3")[-1]
    assert (row["P"], row["E"], row["S"], row["O"]) == (1, 2, 2, 1)
    assert row["support_threshold"] == 0.3
    assert row["NSCR"] == pytest.approx(0 / 5)
    plain = rows(folder)[-1]  # one success: base 2, 3, 4, 5, 6; target 1, 2, 4, 5
    assert (plain["P"], plain["E"], plain["S"], plain["O"]) == (3, 1, 2, 0)
    assert "support_threshold" not in plain
    table = run(folder, "--support-threshold", "0.3").stdout
    assert "threshold τ = 0.3" in table


def test_threshold_reaches_the_budget_curves(folder):
    curve = rows(folder, "--support-threshold", "0.5", "--curves")[-1]["curve"]
    last = curve[-1]
    assert last["k"] == 10
    # c/n >= 0.5: base 4, 5; target 1, 2, 5
    assert (last["P"], last["E"], last["S"]) == pytest.approx((1, 2, 1))


def test_small_budget_gives_no_epsilon_bound_and_no_answer_entropy(tmp_path):
    spec = {("alg", q): {"base": "C", "rlvr": "I3"} for q in ("1", "2")}
    root = build_folder(tmp_path / "one", spec)
    out = run(root).stdout
    assert "k = 1: no bound" in out
    assert "at most 3" not in out and "ε = 3" not in out
    assert "0.000 → 0.000" not in out
    assert rows(root)[-1]["answer_entropy"] == {"base": None, "target": None}


def test_budget_above_the_samples_is_one_line_refusal(folder):
    result = run(folder, "--k", "11")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "larger than" in result.output
