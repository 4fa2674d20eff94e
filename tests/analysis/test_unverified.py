"""Unverified samples of questions without a gold: verify cannot grade them, hints say so."""

from __future__ import annotations

from click.testing import CliRunner

from leash_tui.analysis.unverified import unverified_without_gold
from leash_tui.cli import cli
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import build_folder

SPEC = {
    ("b", "1"): {"base": "C ? ?", "rlvr": "C C ?"},  # no gold: its 3 unverified stay so
    ("b", "2"): {"base": "C I", "rlvr": "C C"},
}


def test_unverified_samples_without_a_gold_are_counted(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, golds={("b", "1"): None})
    results = ResultsFolder.open(root)
    assert unverified_without_gold(results.verdict_counts(), results.questions) == 3
    graded = build_folder(tmp_path / "g", SPEC)
    results = ResultsFolder.open(graded)
    assert unverified_without_gold(results.verdict_counts(), results.questions) == 0


def test_info_sends_gold_less_samples_to_verify_once_then_counts_them_as_no_gold(tmp_path):
    """Before a verify, samples of questions without a gold are unverified (verify gives them
    status no_gold); after it, info counts them apart and sends nobody to verify again."""
    from sampler.verify.run import verify_results

    root = build_folder(tmp_path / "r", SPEC, golds={("b", "1"): None})
    said = " ".join(CliRunner().invoke(cli, ["info", str(root)]).output.split())
    assert "not yet verified (run: leash verify)" in said
    verify_results(root, workers=1)
    said = " ".join(CliRunner().invoke(cli, ["info", str(root)]).output.split())
    assert "run: leash verify" not in said
    assert "samples of questions without a gold answer (no_gold)" in said
