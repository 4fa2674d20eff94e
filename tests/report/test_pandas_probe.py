"""Reading commands do not pay for importing pandas; pandas still works when asked for."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.support.folder_builders import build_folder
from tests.support.paths import REPO_ROOT

ROOT = REPO_ROOT


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_report_runs_without_importing_pandas(tmp_path):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C I", "rlvr": "C C"}})
    out = _run(
        f"""
        import sys
        from click.testing import CliRunner
        from leash_tui.cli import cli
        result = CliRunner().invoke(cli, ["report", {str(root)!r}, "--format", "json"])
        assert result.exit_code == 0, result.output
        assert '"P"' in result.output or '"S"' in result.output
        print("pandas" in sys.modules)
        """
    )
    assert out.strip() == "False"


def test_pandas_still_works_after_the_probe_was_skipped():
    out = _run(
        """
        from leash_tui.commands.shared.pandas_probe import skip_pandas_probe
        skip_pandas_probe()
        import pyarrow as pa
        frame = pa.table({"a": [1, 2]}).to_pandas()
        import pandas as pd
        back = pa.Table.from_pandas(pd.DataFrame({"b": [3]}))
        print(type(frame).__name__, frame["a"].sum(), back.column("b").to_pylist())
        """
    )
    assert out.split() == ["DataFrame", "3", "[3]"]
