"""The verifier's identity in the manifest: versions and options of every verify run that
wrote verdicts; a folder graded by two verifiers says so in ``info`` and ``report``."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.manifest import load_manifest, update_manifest
from sampler.store.shards.writer import append_samples
from sampler.verify.answers.extraction import ExtractionConfig
from sampler.verify.identity import grader_note
from sampler.verify.run import verify_results
from tests.support.folder_builders import write_folder
from tests.support.verify_fixtures import boxed

QUESTIONS = [{"benchmark": "toy", "question_id": "0", "problem": "p", "gold": "1"}]


def _folder(tmp_path: Path) -> Path:
    rows = [
        {"benchmark": "toy", "question_id": "0", "model": m, "sample": i, "text": boxed(str(i))}
        for m in ("base", "rl")
        for i in range(2)
    ]
    return write_folder(tmp_path / "r", QUESTIONS, [rows], models=["base", "rl"])


def _graders(root: Path) -> list[dict]:
    return load_manifest(root).verification["graders"]


def test_each_verify_run_records_who_graded(tmp_path):
    root = _folder(tmp_path)
    verify_results(root, workers=1)
    (grader,) = _graders(root)
    assert set(grader["versions"]) == {"leash", "math-verify", "latex2sympy2_extended"}
    assert grader["extraction"]["default"] == ["boxed", "stated", "tool_output"]
    assert grader["deadline_s"] > 0
    verify_results(root, workers=1)  # nothing to verify: nothing recorded
    assert len(_graders(root)) == 1
    assert grader_note(load_manifest(root).verification) is None


def test_a_folder_graded_by_two_versions_says_so(tmp_path):
    root = _folder(tmp_path)
    verify_results(root, workers=1)

    def older(manifest):
        manifest.verification["graders"][0]["versions"]["math-verify"] = "0.5.2"

    update_manifest(root, older)
    verify_results(root, workers=1, force=True, extraction=ExtractionConfig())
    assert len(_graders(root)) == 1  # --force grades every sample again: one verifier
    update_manifest(root, older)
    row = {"benchmark": "toy", "question_id": "0", "model": "base", "sample": 2, "text": "1"}
    append_samples(root, pa.Table.from_pylist([row]))
    verify_results(root, workers=1)
    assert len(_graders(root)) == 2
    note = grader_note(load_manifest(root).verification)
    assert note is not None and "2 verifiers with different versions" in note
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert info.exit_code == 0, info.output
    assert "2 verifiers" in info.output.replace("\n", " ")
    report = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert report.exit_code == 0, report.output
    assert "2 verifiers" in report.stderr.replace("\n", " ")
