"""``leash report`` on a folder sampled with ``leash sample --adaptive``: exact, never guessed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.manifest import update_manifest
from tests.support.folder_builders import build_folder

# N = 2, k = 8, rounds 2, 4, 8: a pair stops at the end of the round of its first success
SPEC = {
    ("alg", "1"): {"base": "I7 C", "rlvr": "C I1"},  # P
    ("alg", "2"): {"base": "I7 I7 I7 C", "rlvr": " ".join(["I1"] * 8)},  # S, found at 3
    ("alg", "3"): {"base": " ".join(["N"] * 8), "rlvr": "I1 I1 I1 I1 I1 C I1 I1"},  # E at 5
    ("alg", "4"): {"base": " ".join(["N"] * 8), "rlvr": " ".join(["N"] * 8)},  # O
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


def adaptive_folder(root, spec=SPEC, samples=8, min_samples=2):
    build_folder(root, spec)

    def mark(manifest):
        for entry in manifest.models:
            entry.sampling = {
                "samples": samples,
                "adaptive": {"min_samples": min_samples, "rounds": "doubling"},
            }

    update_manifest(root, mark)
    return root


def report(*args):
    return CliRunner().invoke(cli, ["report", *map(str, args)])


def report_json(*args):
    result = report(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return {**json.loads(result.stdout), "stderr": result.stderr}


def overall(doc):
    return next(r for r in doc["rows"] if r["scope"] == "overall")


def test_categories_are_exact_at_the_folders_budget(tmp_path):
    doc = report_json(adaptive_folder(tmp_path / "r"))
    row = overall(doc)
    assert row["k"] == 8
    assert {c: row[c] for c in "PESO"} == {"P": 1, "E": 1, "S": 1, "O": 1}
    # at the folder's own k pass@k is exact: whether one of the k samples succeeded
    assert row["pass@k"] == {"base": (1 + 1) / 4, "target": (1 + 1) / 4}
    assert row["pass@1"]["base"] == pytest.approx((0.5 + 0 + 0 + 0) / 4)  # first 2 samples
    assert "sampled adaptively" in doc["stderr"] and "pass@k between 2 and that k" in doc["stderr"]


def test_below_n_the_estimator_and_above_it_exact_curves(tmp_path):
    doc = report_json(adaptive_folder(tmp_path / "r"), "--curves")
    points = {p["k"]: p for p in doc["rows"][-1]["curve"]}
    assert points[2]["pass@k"]["base"] == pytest.approx(0.25)
    assert points[4]["pass@k"] == {"base": None, "target": None}
    # at 4: alg/2 base found at 3 (in), alg/3 rlvr found at 5 (not yet): P, S, O, O
    assert (points[4]["P"], points[4]["S"], points[4]["E"], points[4]["O"]) == (1, 1, 0, 2)
    table = report(tmp_path / "r", "--curves")
    assert table.exit_code == 0 and "–" in table.output


def test_a_budget_beyond_what_was_drawn_is_refused_in_one_line(tmp_path):
    root = adaptive_folder(tmp_path / "r")
    result = report(root, "--k", "16")
    assert result.exit_code != 0
    assert "not drawn" in result.output and "Traceback" not in result.output
    partial = report_json(root, "--k", "16", "--allow-partial")
    # only alg/1 has a success of both models; the others drew 8 of 16 without one
    assert overall(partial)["N"] == 1
    assert "3 question(s)" in partial["stderr"]
