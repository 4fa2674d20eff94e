"""The category and rate names have one definition (analysis.support_names): the rates
computed, the budget-curve columns, the report's JSON and CSV, and no module spells the lists
again."""

from __future__ import annotations

import csv
import io
import json
import re

from click.testing import CliRunner

from leash_tui.analysis.support import support_rates
from leash_tui.analysis.support_names import CATEGORIES, CATEGORY_NAMES, RATES, SERIES_RATES
from leash_tui.cli import cli
from tests.support.folder_builders import build_folder
from tests.support.paths import REPO_ROOT


def test_the_rates_computed_are_the_rates_named():
    assert tuple(support_rates(3, 1, 1, 2)) == RATES
    assert set(CATEGORY_NAMES) == set(CATEGORIES)
    assert set(SERIES_RATES) < set(RATES)


def test_reports_and_curves_carry_every_category_and_rate(tmp_path):
    root = build_folder(
        tmp_path / "r",
        {
            ("alg", "1"): {"base": "C C", "rlvr": "C C"},
            ("alg", "2"): {"base": "I I", "rlvr": "C I"},
            ("alg", "3"): {"base": "C I", "rlvr": "I I"},
            ("alg", "4"): {"base": "I I", "rlvr": "I I"},
        },
    )
    result = CliRunner().invoke(cli, ["report", str(root), "--no-cache", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    overall = next(row for row in rows if row["scope"] == "overall")
    assert {key: overall[key] for key in CATEGORIES} == {"P": 1, "E": 1, "S": 1, "O": 1}
    assert set(RATES) <= set(overall)
    result = CliRunner().invoke(cli, ["report", str(root), "--no-cache", "--format", "csv"])
    header = next(csv.reader(io.StringIO(result.stdout)))
    assert [c for c in header if c in (*CATEGORIES, *RATES)] == [*CATEGORIES, *RATES]


#: a list of the category letters or of the rate names written out, in any order
_SPELLED = re.compile(
    r"""(["'](?:P|E|S|O)["'],\s*){3}["'](?:P|E|S|O)["']"""
    r"""|(["'](?:SRR|NDR|SDS|NSCR)["'],\s*){2,}["'](?:SRR|NDR|SDS|NSCR)["']"""
    r"""|["']out of support["']"""
)


def test_no_module_spells_the_names_again():
    home = REPO_ROOT / "leash_tui" / "analysis" / "support_names.py"
    found = [
        f"{path.relative_to(REPO_ROOT)}: {match.group(0)}"
        for package in ("leash_tui", "sampler")
        for path in sorted((REPO_ROOT / package).rglob("*.py"))
        if path != home
        for match in _SPELLED.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
