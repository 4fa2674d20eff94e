"""Training series (targets NAME@STEP): the name rule, and `leash report` / `leash info`
on a folder with three checkpoints, against counts worked out by hand."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner

from leash_tui.analysis.series import (
    find_series,
    first_loss_step,
    flip_counts,
    parse_checkpoint,
    support_strip,
)
from leash_tui.cli import cli
from sampler.store.schema import check_name
from tests.support.folder_builders import build_folder

# base, rl@100, rl@200, rl@300 on three questions (C correct, I incorrect)
MODELS = ("base", "rl@100", "rl@200", "rl@300")
SPEC = {
    ("alg", "1"): dict(zip(MODELS, ("C I I I", "C C I I", "I I I I", "C I I I"), strict=True)),
    ("alg", "2"): dict(zip(MODELS, ("I I I I", "I I I I", "C I I I", "C C I I"), strict=True)),
    ("geo", "1"): dict(zip(MODELS, ("C C C C", "C C C C", "C C C C", "I I I I"), strict=True)),
}
TARGETS = ("rl@300", "rl@100", "rl@200")  # manifest order is not step order

# in support per step (base, 100, 200, 300): alg/1 ●●○●, alg/2 ○○●●, geo/1 ●●●○
# (step, P, E, S, O, SRR, NDR, NSCR, pass@1 target, pass@k target), worked out by hand
BY_HAND = {
    ("overall", "overall"): [
        (0, 2, 0, 0, 1, 1.0, 0.0, 0.0, (0.25 + 0 + 1) / 3, 2 / 3),
        (100, 2, 0, 0, 1, 1.0, 0.0, 0.0, (0.5 + 0 + 1) / 3, 2 / 3),
        (200, 1, 1, 1, 0, 0.5, 0.5, 0.0, (0 + 0.25 + 1) / 3, 2 / 3),
        (300, 1, 1, 1, 0, 0.5, 0.5, 0.0, (0.25 + 0.5 + 0) / 3, 2 / 3),
    ],
    ("benchmark", "alg"): [
        (0, 1, 0, 0, 1, 1.0, 0.0, 0.0, 0.125, 0.5),
        (100, 1, 0, 0, 1, 1.0, 0.0, 0.0, 0.25, 0.5),
        (200, 0, 1, 1, 0, 0.0, 1.0, 0.0, 0.125, 0.5),
        (300, 1, 1, 0, 0, 1.0, 0.5, 0.5, 0.375, 1.0),
    ],
    ("benchmark", "geo"): [
        (0, 1, 0, 0, 0, 1.0, 0.0, 0.0, 1.0, 1.0),
        (100, 1, 0, 0, 0, 1.0, 0.0, 0.0, 1.0, 1.0),
        (200, 1, 0, 0, 0, 1.0, 0.0, 0.0, 1.0, 1.0),
        (300, 0, 0, 1, 0, 0.0, None, -1.0, 0.0, 0.0),
    ],
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def folder(tmp_path):
    return build_folder(tmp_path / "results", SPEC, targets=TARGETS)


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_parse_checkpoint():
    assert parse_checkpoint("rl@100") == ("rl", 100)
    assert parse_checkpoint("grpo-1.5b@0") == ("grpo-1.5b", 0)
    assert parse_checkpoint("a@b@7") == ("a@b", 7)
    for name in ("rl", "rl@", "@100", "rl@1e3", "rl@-1", "rl@10x"):
        assert parse_checkpoint(name) is None, name
    assert check_name("model", "rl@100") == "rl@100"


def test_find_series_orders_by_step_and_refuses_duplicates():
    (run,) = find_series(["rl@300", "other", "rl@100", "rl@200"])
    assert run.name == "rl" and run.steps == [0, 100, 200, 300]
    assert run.models("base")[0] == (0, "base")
    with pytest.raises(ValueError, match="rl@100.*rl@0100"):
        find_series(["rl@100", "rl@0100"])


def test_strip_flips_and_first_loss():
    states = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 0], [1, -1, 1, 1]])
    assert support_strip([True, True, False, None]) == "●●○·"
    assert flip_counts(states).tolist() == [2, 1, 1, 0]
    assert first_loss_step(states, [0, 100, 200, 300]).tolist() == [200, -1, 300, -1]


def test_series_rows_equal_the_hand_computation(folder):
    document = json.loads(invoke("report", folder, "--format", "json"))
    series = document["series"]
    assert {row["series"] for row in series} == {"rl"}
    for (scope, name), expected in BY_HAND.items():
        rows = [r for r in series if (r["scope"], r["name"]) == (scope, name)]
        assert [r["step"] for r in rows] == [0, 100, 200, 300]
        assert [r["target"] for r in rows] == ["base", "rl@100", "rl@200", "rl@300"]
        for row, (step, p, e, s, o, srr, ndr, nscr, pass1, passk) in zip(
            rows, expected, strict=True
        ):
            assert row["step"] == step
            assert (row["P"], row["E"], row["S"], row["O"]) == (p, e, s, o), (scope, name, step)
            assert row["SRR"] == pytest.approx(srr)
            assert row["NDR"] == (None if ndr is None else pytest.approx(ndr))
            assert row["NSCR"] == pytest.approx(nscr)
            assert row["pass@1"]["target"] == pytest.approx(pass1)
            assert row["pass@k"]["target"] == pytest.approx(passk)
            assert row["k"] == 4
    # the ordinary rows of each checkpoint carry its series and step
    for row in document["rows"]:
        assert (row["series"], row["step"]) == ("rl", int(row["target"].split("@")[1]))


def test_series_curves_per_step(folder):
    document = json.loads(invoke("report", folder, "--format", "json", "--curves"))
    overall = [r for r in document["series"] if r["scope"] == "overall"]
    assert [p["k"] for p in overall[0]["curve"]] == [1, 2, 4]
    # at k = n the curve's expected counts are the exact counts of the row
    for row in overall:
        last = row["curve"][-1]
        assert [last[c] for c in "PESO"] == pytest.approx([row[c] for c in "PESO"])


def test_series_in_every_format(folder):
    table = invoke("report", folder)
    assert "series rl" in table and "rl@300" in table
    markdown = invoke("report", folder, "--format", "markdown", "--curves")
    assert "## Series rl" in markdown and "Budget curves per step" in markdown
    latex = invoke("report", folder, "--format", "latex")
    assert "Training dynamics, series rl" in latex
    lines = list(csv.DictReader(io.StringIO(invoke("report", folder, "--format", "csv"))))
    series = [line for line in lines if line["row"] == "series"]
    assert [line["step"] for line in series if line["scope"] == "overall"] == [
        "0",
        "100",
        "200",
        "300",
    ]
    overall_300 = next(
        line for line in series if line["scope"] == "overall" and line["step"] == "300"
    )
    assert (overall_300["P"], overall_300["E"], overall_300["S"]) == ("1", "1", "1")


def test_target_option_limits_the_series(folder):
    document = json.loads(
        invoke("report", folder, "--format", "json", "--target", "rl@100", "--target", "rl@300")
    )
    assert sorted({r["step"] for r in document["series"]}) == [0, 100, 300]


def test_info_lists_series_and_steps(folder):
    description = json.loads(invoke("info", folder, "--json"))
    assert description["series"] == [
        {
            "name": "rl",
            "steps": [0, 100, 200, 300],
            "models": ["base", "rl@100", "rl@200", "rl@300"],
        }
    ]
    assert "series rl: steps 0 (base), 100 (rl@100), 200 (rl@200), 300 (rl@300)" in invoke(
        "info", folder
    )


def test_no_series_no_series_field(tmp_path):
    folder = build_folder(tmp_path / "plain", {("alg", "1"): {"base": "C", "rlvr": "I"}})
    document = json.loads(invoke("report", folder, "--format", "json"))
    assert "series" not in document
    assert "series" not in document["rows"][0]


# -- explorer --------------------------------------------------------------------------
def _explorer_model(folder, target):
    from leash_tui.explorer.model.explorer_model import ExplorerModel
    from sampler.store.folder import ResultsFolder

    model = ExplorerModel(ResultsFolder.open(folder))
    model.set_target(target)
    return model


def test_explorer_strip_flip_filter_and_loss_sort(folder):
    model = _explorer_model(folder, "rl@300")
    assert model.series() is not None
    strips = {(r.benchmark, r.question_id): model.strip(r) for r in map(model.row, range(3))}
    assert strips == {("alg", "1"): "●●○●", ("alg", "2"): "○○●●", ("geo", "1"): "●●●○"}
    assert model.set_flip_filter(True)
    assert [(model.row(i).benchmark, model.row(i).question_id) for i in range(len(model))] == [
        ("alg", "1")
    ]
    assert "flips" in model.filter_description()
    model.clear_filters()
    while model.sort != "lost":
        model.cycle_sort()
    # alg/1 lost at step 200, geo/1 at step 300, alg/2 never in the base's support
    assert [model.row(i).question_id for i in range(len(model))] == ["1", "1", "2"]
    assert [model.row(i).benchmark for i in range(len(model))] == ["alg", "geo", "alg"]


def test_explorer_without_series_refuses_the_flip_filter(tmp_path):
    folder = build_folder(tmp_path / "plain", {("alg", "1"): {"base": "C", "rlvr": "I"}})
    model = _explorer_model(folder, "rlvr")
    assert model.series() is None and model.strip(model.row(0)) == ""
    assert not model.set_flip_filter(True)
    assert len(model) == 1


def test_explorer_shows_the_strip_and_w_filters(folder):
    from tests.support.explorer_helpers import open_app, screen_text, sync, wait_ready

    @sync
    async def run() -> None:
        app = open_app(folder, target="rl@300")
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_ready(pilot, app)
            text = screen_text(app)
            assert "steps" in text and "●●○●" in text and "●●●○" in text
            await pilot.press("w")
            await pilot.pause(0.1)
            assert len(app.model) == 1 and "●●●○" not in screen_text(app)

    run()


def test_explorer_series_rates_equal_the_hand_computation(folder):
    model = _explorer_model(folder, "rl@200")
    rows = model.series_rates()
    assert [r["step"] for r in rows] == [0, 100, 200, 300]
    for row, expected in zip(rows, BY_HAND[("overall", "overall")], strict=True):
        assert row["SRR"] == pytest.approx(expected[5])
        assert row["NDR"] == pytest.approx(expected[6])
        assert row["NSCR"] == pytest.approx(expected[7])
    geo = model.series_rates(frozenset({"geo"}))
    assert [r["NSCR"] for r in geo] == [0.0, 0.0, 0.0, -1.0]
    assert geo[-1]["NDR"] is None  # undefined, left out of the plot


def test_explorer_series_plot_opens_on_P_and_is_refused_without_a_series(folder, tmp_path):
    from tests.support.explorer_helpers import open_app, sync, wait_ready

    @sync
    async def run() -> None:
        app = open_app(folder, target="rl@300")
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_ready(pilot, app)
            await pilot.press("P")
            await pilot.pause(0.3)
            assert type(app.screen).__name__ == "SeriesScreen"
            assert [r["step"] for r in app.screen.rows] == [0, 100, 200, 300]
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert type(app.screen).__name__ == "MainScreen"
        plain = build_folder(tmp_path / "plain", {("alg", "1"): {"base": "C", "rlvr": "I"}})
        app = open_app(plain)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_ready(pilot, app)
            await pilot.press("P")
            await pilot.pause(0.2)
            assert type(app.screen).__name__ == "MainScreen"

    run()


def test_the_loss_step_sort_is_offered_only_with_a_series(folder, tmp_path):
    plain = build_folder(tmp_path / "plain", {("alg", "1"): {"base": "C", "rlvr": "I"}})
    model = _explorer_model(plain, "rlvr")
    seen = {model.cycle_sort() for _ in range(12)}
    assert "lost" not in seen and {"support", "p", "id"} <= seen
    with_series = _explorer_model(folder, "rl@300")
    assert "lost" in {with_series.cycle_sort() for _ in range(12)}


def test_series_plot_range_fits_the_values_and_prints_them():
    from leash_tui.explorer.screens.series_screen import value_lines, y_range

    rows = [
        {"step": 0, "SRR": 1.0, "NDR": 0.0, "NSCR": 0.0},
        {"step": 1000, "SRR": 0.929, "NDR": 0.0, "NSCR": None},
        {"step": 2000, "SRR": 0.964, "NDR": 0.01, "NSCR": -0.05},
    ]
    low, high = y_range(rows)
    assert -0.2 < low < -0.05 and 1.0 <= high <= 1.0  # the values' span, within -1..1
    narrow = y_range([{"step": 0, "SRR": 0.929, "NDR": None, "NSCR": None},
                      {"step": 1, "SRR": 0.964, "NDR": None, "NSCR": None}])  # fmt: skip
    assert 0.9 < narrow[0] < 0.929 and 0.964 < narrow[1] < 1.0  # not a flat line at 1.00
    lines = value_lines(rows).splitlines()
    assert lines[0].split() == ["step", "0", "1000", "2000"]  # no thousands separators
    by_rate = {line.split()[0]: line for line in lines[1:]}
    assert "0.929" in by_rate["SRR"] and "–" in by_rate["NSCR"]
