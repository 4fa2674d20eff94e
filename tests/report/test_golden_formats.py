"""The five report formats of one small deterministic folder, compared with golden files.

The golden files are tests/report/golden/report.{table,json,csv,md,tex}; regenerate them
as tests/report/golden_check.py says.
"""

from __future__ import annotations

import os

import pytest

from leash_tui.report.build import build_report
from leash_tui.report.data import load_report_data
from leash_tui.report.formats import FORMATS
from leash_tui.report.render import RENDERERS
from tests.report.golden_check import check_golden
from tests.support.folder_builders import build_folder

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C", "rl2": "I1 I1 I1 I1"},
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7", "rl2": "C I1 I1 I1"},
    ("alg", "3"): {"base": "C I7 I7 I7", "rlvr": "C C I7 I7", "rl2": "C C C C"},
    ("minerva_math", "1"): {"base": "C I7 I8 I8", "rlvr": "I7 I7 I7 I7", "rl2": "C C C C"},
    ("minerva_math", "2"): {"base": "I7 I7 N N", "rlvr": "I9 I9 I9 I9", "rl2": "N N N N"},
    ("code_x", "1"): {"base": "C C C C", "rlvr": "C C C I2", "rl2": "I2 I2 I2 I2"},
}
DOMAINS = {"alg": "math", "minerva_math": "math", "code_x": "code"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("golden")
    os.environ.setdefault("LEASH_CACHE_DIR", str(root / "cache"))
    folder = build_folder(root / "results", SPEC, targets=("rlvr", "rl2"), domains=DOMAINS)
    data = load_report_data(folder, use_cache=False)
    return build_report(
        data, curves=True, bootstrap=200, estimate_ks=(1, 4), forecast=64, threshold_curve=True
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_format_matches_its_golden_file(report, fmt):
    check_golden(RENDERERS[fmt](report), "report", fmt)
