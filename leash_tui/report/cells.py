"""The cells of a report for people: formatted numbers, row labels, and the notes under tables.

What every human-readable format of ``report.render`` shares (terminal, Markdown,
LaTeX): column headers, numbers rounded with undefined values as an en dash, the
cells of a row, a budget-curve point, a training-series step and a perplexity row,
and the ε, trusted-verdict and token-entropy-kind notes.
"""

from __future__ import annotations

from typing import Any

from leash_tui.analysis.pass_at_k import epsilon
from leash_tui.analysis.support_names import SERIES_RATES
from leash_tui.report.build import Report
from leash_tui.report.columns import (
    ARROW,
    COUNTS,
    DASH,
    RATES,
    TRUSTED,
    ReportColumn,
    csv_names,
    default_columns,
    fmt_count,
    fmt_p,
    fmt_pair,
    fmt_rate,
    headers,
    select,
    table_columns,
)
from leash_tui.safe_text import visible

__all__ = ["COUNTS", "DASH", "RATES", "fmt_count", "fmt_p", "fmt_pair", "fmt_rate"]

#: the columns of a budget-curve point and of a training-series step (from the registry)
CURVE = select("k", "pass@k", *COUNTS, *RATES)
SERIES = select("k", "N", *COUNTS, *SERIES_RATES, "pass@1", "pass@k")
HEADERS = headers(default_columns())
CURVE_HEADERS = headers(CURVE)
SERIES_HEADERS = ("", "step", "model", *headers(SERIES)[1:])
PERPLEXITY_HEADERS = ("", "category", "source", "traces", "perplexity")
SERIES_CURVE_HEADERS = ("", "step", *CURVE_HEADERS[1:])
CSV_COLUMNS = csv_names(default_columns())
#: CSV columns present when some verdicts are trusted source verdicts (not leash's)
CSV_TRUSTED_COLUMNS = TRUSTED.csv_names()


def shown(name: str) -> str:
    """A name from the folder as printable text (control characters made visible)."""
    return visible(str(name), keep_newlines=False)


def row_label(row: dict[str, Any]) -> str:
    name = shown(row["name"])
    return f"{name} (domain)" if row["scope"] == "domain" else name


def row_cells(
    row: dict[str, Any], arrow: str = ARROW, columns: tuple[ReportColumn, ...] | None = None
) -> list[str]:
    """The label, then the cells of ``columns`` (default: every non-optional one)."""
    shown_columns = table_columns(default_columns() if columns is None else columns)
    return [row_label(row), *(c.cell(row, arrow) for c in shown_columns)]


def curve_cells(row: dict[str, Any], point: dict[str, Any], arrow: str = ARROW) -> list[str]:
    return [row_label(row), *(c.cell(point, arrow, digits=4) for c in CURVE)]


def series_cells(row: dict[str, Any], first: bool, arrow: str = " → ") -> list[str]:
    """A series row: the scope's label on its first step only, then step, model, counts."""
    return [
        row_label(row) if first else "",
        str(row["step"]),  # a step is an id (1000, not 1,000)
        shown(row["target"]),
        *(c.cell(row, arrow) for c in SERIES),
    ]


def series_blocks(
    pairs: list[tuple[dict[str, Any], Any]],
) -> list[list[tuple[dict[str, Any], Any]]]:
    """The rows of one series cut into scope blocks (one block = all steps of a scope)."""
    blocks: list[list[tuple[dict[str, Any], Any]]] = []
    for row, curve in pairs:
        if not blocks or (blocks[-1][0][0]["scope"], blocks[-1][0][0]["name"]) != (
            row["scope"],
            row["name"],
        ):
            blocks.append([])
        blocks[-1].append((row, curve))
    return blocks


def series_curve_cells(row: dict[str, Any], point: dict[str, Any], first: bool) -> list[str]:
    cells = curve_cells(row, point)
    return [cells[0] if first else "", str(row["step"]), *cells[1:]]


def perplexity_cells(row: dict[str, Any], first: bool) -> list[str]:
    return [
        row_label(row) if first else "",
        row["category"],
        shown(row["source"]),
        f"{row['n_traces']:,}",
        fmt_pair(row["perplexity"]),
    ]


def perplexity_lines(report: Report, target: str) -> list[tuple[str, list[str]]]:
    """(scope key, cells) of one target's perplexity rows, the label on a scope's first."""
    out, previous = [], None
    for row in report.perplexity:
        if row["target"] != target:
            continue
        key = f"{row['scope']}/{row['name']}"
        out.append((key, perplexity_cells(row, key != previous)))
        previous = key
    return out


def epsilon_note(rows: list[dict[str, Any]], zeta: float) -> str:
    ks = sorted({r["k"] for r in rows})
    values = "; ".join(_epsilon_at(k, zeta) for k in ks)
    return (
        f"A correct answer never seen in k samples has probability at most ε = -ln ζ / k"
        f" (ζ = {zeta:g}): {values}."
        + threshold_note(rows)
        + interval_note(rows)
        + entropy_kind_note(rows)
        + trusted_note(rows)
    )


def _epsilon_at(k: int, zeta: float) -> str:
    """ "k = 8: ε = 0.374", or no bound where -ln ζ / k >= 1 (a probability bound of 1 or
    more says nothing)."""
    bound = epsilon(k, zeta)
    if bound >= 1:
        return f"k = {k:,}: no bound (-ln ζ / k ≥ 1)"
    return f"k = {k:,}: ε = {bound:.3g}"


def threshold_note(rows: list[dict[str, Any]]) -> str:
    """ " Support: at least a share τ …" when a support threshold was asked."""
    tau = next((r["support_threshold"] for r in rows if r.get("support_threshold")), None)
    if tau is None:
        return ""
    return (
        f" Support at threshold τ = {tau:g}: a model supports a question when at least"
        f" ⌈τ·k⌉ of k samples are correct (c/n ≥ τ at k = n)."
    )


def interval_note(rows: list[dict[str, Any]]) -> str:
    """ " CI: 95% paired bootstrap …" when rows carry intervals."""
    ci = next((r["ci"] for r in rows if r.get("ci")), None)
    if ci is None:
        return ""
    return (
        f" CI: {ci['level']:.0%} percentile intervals of a paired bootstrap over questions"
        f" ({ci['resamples']:,} resamples, within benchmarks; Δ = target − base)."
    )


def trusted_note(rows: list[dict[str, Any]]) -> str:
    """ " Verdicts leash did not compute: …" when some rows rest on trusted source verdicts."""
    marked = [r for r in rows if r.get("trusted_source_verdicts")]
    if not marked:
        return ""
    row = next((r for r in marked if r["scope"] == "overall"), marked[-1])
    counts = row["trusted_source_verdicts"]
    if not any(counts.values()):
        return ""
    parts = ", ".join(f"{shown(row[role])} {counts[role]:,}" for role in ("base", "target"))
    return (
        f" Verdicts leash did not compute (the source's, trusted at import: no gold) on"
        f" {parts} of {row['N']:,} questions ({shown(row['name'])})."
    )


def entropy_kind_note(rows: list[dict[str, Any]]) -> str:
    """ " Token H: exact …" when some token entropy shown is exact; else nothing."""
    if not rows:
        return ""
    kinds = rows[0].get("token_entropy_kind") or {}
    if "exact" not in kinds.values():
        return ""
    said = {"exact": "exact (teacher forcing)", "top-k": "top-k part (lower bound)"}
    parts = [f"{shown(rows[0][role])} {said[kind]}" for role, kind in kinds.items() if kind]
    return " Token H: " + ", ".join(parts) + "."


# -- formats --------------------------------------------------------------------------
