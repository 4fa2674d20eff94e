"""Compare a rendered report with its golden file in tests/report/golden/: byte for byte,
except that a number printed with all its float digits may differ in its last few (1e-7
relative): an iterative fit (the forecast's beta-binomial) ends a few ulps apart on another
CPU's BLAS, and the golden files test the formats, not the last digits of an optimiser.

After a change to a format that is meant, regenerate and read the diff before committing:

    LEASH_UPDATE_GOLDEN=1 python -m pytest tests/report/test_golden_formats.py \
        tests/report/test_golden_reports.py
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
#: the file suffix of each format of report.formats.FORMATS
SUFFIX = {"table": "table", "json": "json", "csv": "csv", "markdown": "md", "latex": "tex"}
#: a float printed with its full precision (Python's repr): 10 or more significant digits
_FULL_FLOAT = re.compile(r"-?\d+\.\d{9,}(?:e[-+]?\d+)?")


def _same_up_to_float_digits(text: str, golden: str) -> bool:
    """``text`` and ``golden`` are equal once each full-precision float is compared as a number
    (relative 1e-7) rather than as digits; everything else must be identical."""
    if _FULL_FLOAT.split(text) != _FULL_FLOAT.split(golden):
        return False
    ours, theirs = _FULL_FLOAT.findall(text), _FULL_FLOAT.findall(golden)
    return len(ours) == len(theirs) and all(
        math.isclose(float(a), float(b), rel_tol=1e-7, abs_tol=1e-12)
        for a, b in zip(ours, theirs, strict=True)
    )


def check_golden(text: str, name: str, fmt: str) -> None:
    """``text`` equals golden/NAME.SUFFIX (written instead when LEASH_UPDATE_GOLDEN is set)."""
    path = GOLDEN / f"{name}.{SUFFIX[fmt]}"
    if os.environ.get("LEASH_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with LEASH_UPDATE_GOLDEN=1 to write it"
    golden = path.read_text(encoding="utf-8")
    assert text == golden or _same_up_to_float_digits(text, golden), (
        f"{fmt} output differs from {path}; if the change is meant, regenerate"
        " (see tests/report/golden_check.py) and review the diff"
    )
