"""Run one bench measurement in a fresh Python process and read back its JSON line.

Benches that time start-up or memory run each measurement as ``python SCRIPT --child ...``
so that nothing from an earlier measurement is warm; the child prints its result as JSON
on its last stdout line.
"""

from __future__ import annotations

import json
import subprocess
import sys


def run_json_child(argv: list[str], env: dict[str, str], what: str) -> dict:
    """Run ``python *argv`` under ``env``; its last stdout line as JSON, or exit naming ``what``."""
    out = subprocess.run(
        [sys.executable, *argv],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if out.returncode != 0:
        raise SystemExit(f"{what} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])
