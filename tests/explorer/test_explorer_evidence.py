"""Per-question evidence in the explorer: the losing side's upper bound, sorted on."""

from __future__ import annotations

from pathlib import Path

import pytest

from leash_tui.explorer.model.explorer_model import SORTS, ExplorerModel
from leash_tui.explorer.model.pair_view import evidence_text
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import build_folder, counts_spec

SPEC = {
    ("alg", "1"): {"base": counts_spec(4, 4), "rlvr": counts_spec(0, 4)},  # S, 0 of 4
    ("alg", "2"): {"base": counts_spec(2, 16), "rlvr": counts_spec(0, 16)},  # S, 0 of 16
    ("alg", "3"): {"base": counts_spec(0, 8), "rlvr": counts_spec(3, 8)},  # E, base 0 of 8
    ("alg", "4"): {"base": counts_spec(1, 8), "rlvr": counts_spec(1, 8)},  # P
}


def test_evidence_sort_puts_the_strongest_claims_first(tmp_path: Path) -> None:
    model = ExplorerModel(ResultsFolder.open(build_folder(tmp_path / "r", SPEC)))
    while model.sort != "evidence":
        model.cycle_sort()
    assert dict(SORTS)["evidence"] == model.sort_label
    rows = [model.row(i) for i in range(len(model))]
    assert [r.question_id for r in rows] == ["2", "3", "1", "4"]
    bounds = [r.losing_upper for r in rows]
    assert bounds[0] == pytest.approx(1 - 0.05 ** (1 / 16))
    assert bounds[1] == pytest.approx(1 - 0.05 ** (1 / 8))
    assert bounds[3] is None
    assert evidence_text(rows[0]) == f" · target: p < {1 - 0.05 ** (1 / 16):.2g} at 95%"
    assert evidence_text(rows[1]).startswith(" · base: p < ")
    assert evidence_text(rows[3]) == ""


def test_support_threshold_reaches_list_summary_and_budget(tmp_path: Path) -> None:
    results = ResultsFolder.open(build_folder(tmp_path / "r", SPEC))
    model = ExplorerModel(results, tau=0.5)
    # c/n >= 0.5: base 4/4 (q1) only; target 3/8 (q3) is below: q1 S, everything else O
    categories = {model.row(i).question_id: model.row(i).category for i in range(len(model))}
    assert categories == {"1": "S", "2": "O", "3": "O", "4": "O"}
    overall = model.summary()[-1]
    # the summary counts at the scope's budget k = 4 (the smallest n): at least 2 of 4
    # correct; q2's base 2 of 16: 91/1820 = 0.05; q3's target 3 of 8: (30 + 5)/70 = 0.5
    expected = (0.0, 0.5, 1.05, 2.45)
    assert (overall["P"], overall["E"], overall["S"], overall["O"]) == pytest.approx(expected)
    assert overall["support_threshold"] == 0.5
    curve = model.budget().to_pylist()
    assert curve[-1]["k"] == 4
    assert (curve[-1]["S"], curve[-1]["E"]) == pytest.approx((1.05, 0.5))
    plain = ExplorerModel(results).summary()[-1]
    assert "support_threshold" not in plain
    # E = q3's pass@4 of 3 of 8, plus q4's (1 − 0.5)·0.5 (pass@4 of 1 of 8 is 0.5 for both)
    assert plain["E"] == pytest.approx(1 - 5 * 4 * 3 * 2 / (8 * 7 * 6 * 5) + 0.25)
