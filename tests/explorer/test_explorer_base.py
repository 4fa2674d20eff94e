"""The explorer's ``--base``: any model of the folder as the base, the others as targets."""

from __future__ import annotations

import pytest

from leash_tui.commands.explore import run_explorer
from leash_tui.explorer.model.explorer_model import ExplorerModel
from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import build_folder

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rl@10": "I7 I7 I7 I7", "rl@20": "C C C C"},
    ("alg", "2"): {"base": "I7 I7 I8 N", "rl@10": "C I7 I7 I7", "rl@20": "I1 I1 I1 I1"},
}


def categories(model):
    table = model.pair.table
    ids, cats = table.column("question_id").to_pylist(), table.column("category").to_pylist()
    return dict(zip(ids, cats, strict=True))


def test_base_makes_two_checkpoints_a_pair(tmp_path):
    folder = build_folder(tmp_path / "r", SPEC, targets=("rl@10", "rl@20"))
    default = ExplorerModel(ResultsFolder.open(folder))
    assert default.series() is not None  # the series runs from the manifest's base
    model = ExplorerModel(ResultsFolder.open(folder), base="rl@10")
    assert model.base == "rl@10" and model.targets == ["base", "rl@20"]
    model.set_target("rl@20")
    assert categories(model) == {"1": "E", "2": "S"}
    assert model.series() is None


def test_unknown_base_is_refused_by_name(tmp_path):
    folder = build_folder(tmp_path / "r", SPEC, targets=("rl@10", "rl@20"))
    with pytest.raises(LeashError, match="--base nope: no such model"):
        run_explorer(folder, base="nope")
    with pytest.raises(LeashError, match=r"no target model named 'rl@10' \(targets: base, rl@20"):
        run_explorer(folder, target="rl@10", base="rl@10")
