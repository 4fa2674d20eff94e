"""The all-models table of a report: one row per model over all questions, as a paper shows it.

Markdown and LaTeX give one table per target (benchmarks, domains, overall); this
table puts the overall row of every target under the base's, so models read down
one column: the base's pass@1 and pass@k, then each target's with its P/E/S/O and
rates against the base. ``latex_note`` writes a note's formulas in math mode.
"""

from __future__ import annotations

import re
from typing import Any

from leash_tui.report.build import Report
from leash_tui.report.cells import COUNTS, DASH, RATES, fmt_count, fmt_rate, shown

#: a number as the notes write it (no trailing full stop)
_NUMBER = r"[0-9](?:[0-9.eE+\-]*[0-9])?"
MODEL_HEADERS = ("model", "role", "k", "N", "pass@1", "pass@k", *COUNTS, *RATES)


def _overall(report: Report, target: str) -> dict[str, Any] | None:
    return next((r for r, _ in report.rows_of(target) if r["scope"] == "overall"), None)


def model_rows(report: Report) -> list[list[str]]:
    """The base's row, then one row per target (overall scope), as display cells."""
    overall = [(t, _overall(report, t)) for t in report.targets]
    overall = [(t, row) for t, row in overall if row is not None]
    if not overall:
        return []
    first = overall[0][1]
    lines = [
        [
            shown(report.base),
            "base",
            f"{first['k']:,}",
            f"{first['N']:,}",
            fmt_rate(first["pass@1"]["base"], 3),
            fmt_rate(first["pass@k"]["base"], 3),
            *([DASH] * (len(COUNTS) + len(RATES))),
        ]
    ]
    for target, row in overall:
        lines.append(
            [
                shown(target),
                "target",
                f"{row['k']:,}",
                f"{row['N']:,}",
                fmt_rate(row["pass@1"]["target"], 3),
                fmt_rate(row["pass@k"]["target"], 3),
                *(fmt_count(row[c]) for c in COUNTS),
                *(fmt_rate(row[r]) for r in RATES),
            ]
        )
    return lines


def latex_note(text: str) -> str:
    """An escaped note with ``ε = -ln ζ / k``, ``ζ = 0.05`` and ``k = 1,024: ε = 0.0029``
    written in math mode whole (``text`` must already be LaTeX-escaped)."""
    text = text.replace("ε = -ln ζ / k", r"$\varepsilon = -\ln \zeta / k$")
    text = text.replace(" in k samples", " in $k$ samples")
    text = re.sub(rf"ζ = ({_NUMBER})", r"$\\zeta = \1$", text)
    text = re.sub(
        rf"k = ([0-9,]+): ε = ({_NUMBER})",
        lambda m: rf"$k = {m[1].replace(',', '{,}')}$: $\varepsilon = {m[2]}$",
        text,
    )
    return text.replace("ε", r"$\varepsilon$").replace("ζ", r"$\zeta$")
