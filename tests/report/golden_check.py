"""Compare a rendered report with its golden file in tests/report/golden/ (byte for byte).

After a change to a format that is meant, regenerate and read the diff before committing:

    LEASH_UPDATE_GOLDEN=1 python -m pytest tests/report/test_golden_formats.py \
        tests/report/test_golden_reports.py
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
#: the file suffix of each format of report.formats.FORMATS
SUFFIX = {"table": "table", "json": "json", "csv": "csv", "markdown": "md", "latex": "tex"}


def check_golden(text: str, name: str, fmt: str) -> None:
    """``text`` equals golden/NAME.SUFFIX (written instead when LEASH_UPDATE_GOLDEN is set)."""
    path = GOLDEN / f"{name}.{SUFFIX[fmt]}"
    if os.environ.get("LEASH_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with LEASH_UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8"), (
        f"{fmt} output differs from {path}; if the change is meant, regenerate"
        " (see tests/report/golden_check.py) and review the diff"
    )
