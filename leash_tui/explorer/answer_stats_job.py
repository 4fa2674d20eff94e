"""Token and answer entropies for the summary, computed in a child process.

They need one pass over the answer and entropy of every sample
(``report_data.load_report_data``), which on ten million samples takes seconds
and more than a gigabyte. Doing it in a child process keeps the explorer small
and its keys responsive; the child stores the result in ``leash report``'s cache,
from which the explorer (and every later open, and ``leash report``) reads it.
Run as ``python -m leash_tui.explorer.answer_stats_job RESULTS``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import leash_tui


class AnswerStatsJob:
    """One child process filling the report cache of one folder; cancel() ends it."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._process: subprocess.Popen[str] | None = None

    def run(self) -> str | None:
        """Run to the end; None on success, else the child's last error line."""
        package_parent = str(Path(leash_tui.__file__).resolve().parent.parent)
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": package_parent + (os.pathsep + path if path else "")}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "leash_tui.explorer.answer_stats_job", str(self.root)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        _, err = self._process.communicate()
        if self._process.returncode == 0:
            return None
        lines = [ln for ln in (err or "").splitlines() if ln.strip()]
        return lines[-1] if lines else f"exit status {self._process.returncode}"

    def cancel(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


def main() -> None:
    from leash_tui.report_data import load_report_data
    from sampler.errors import LeashError

    try:
        load_report_data(Path(sys.argv[1]))
    except LeashError as exc:
        print(f"cannot compute entropies: {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
