"""The cells of a report for people: formatted numbers, row labels, and the notes under tables.

What every human-readable format of ``report.render`` shares (terminal, Markdown,
LaTeX): column headers, numbers rounded with undefined values as an en dash, the
cells of a row, a budget-curve point, a training-series step and a perplexity row,
and the ε, trusted-verdict and token-entropy-kind notes.
"""

from __future__ import annotations

from typing import Any

from leash_tui.analysis.pass_at_k import epsilon
from leash_tui.analysis.support_names import CATEGORIES, RATES, SERIES_RATES
from leash_tui.report.build import Report
from leash_tui.safe_text import visible

FORMATS = ("table", "json", "csv", "markdown", "latex")
DASH = "–"
COUNTS = CATEGORIES
HEADERS = ("", "k", "N", *COUNTS, *RATES, "pass@1", "pass@k", "sign p", "token H", "answer H")
CURVE_HEADERS = ("", "k", "pass@k", *COUNTS, *RATES)
SERIES_HEADERS = ("", "step", "model", "k", "N", *COUNTS, *SERIES_RATES, "pass@1", "pass@k")
PERPLEXITY_HEADERS = ("", "category", "source", "traces", "perplexity")
SERIES_CURVE_HEADERS = ("", "step", "k", "pass@k", *COUNTS, *RATES)
CSV_COLUMNS = (
    "scope", "name", "base", "target", "k", "N", *COUNTS, *RATES,
    "pass@1_base", "pass@1_target", "pass@k_base", "pass@k_target", "sign_test_p",
    "token_entropy_base", "token_entropy_target", "answer_entropy_base", "answer_entropy_target",
    "token_entropy_kind_base", "token_entropy_kind_target",
)  # fmt: skip
#: CSV columns present when some verdicts are trusted source verdicts (not leash's)
CSV_TRUSTED_COLUMNS = ("trusted_source_verdicts_base", "trusted_source_verdicts_target")


# -- numbers for people ---------------------------------------------------------------
def fmt_count(value: int | float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def fmt_rate(value: float | None, digits: int = 4) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def fmt_p(value: float | None) -> str:
    if value is None:
        return DASH
    return f"{value:.1e}" if value < 1e-3 else f"{value:.3f}"


def fmt_pair(pair: dict[str, float | None], digits: int = 3, arrow: str = " → ") -> str:
    if pair["base"] is None and pair["target"] is None:
        return DASH
    return f"{fmt_rate(pair['base'], digits)}{arrow}{fmt_rate(pair['target'], digits)}"


def shown(name: str) -> str:
    """A name from the folder as printable text (control characters made visible)."""
    return visible(str(name), keep_newlines=False)


def row_label(row: dict[str, Any]) -> str:
    name = shown(row["name"])
    return f"{name} (domain)" if row["scope"] == "domain" else name


def row_cells(row: dict[str, Any], arrow: str = " → ") -> list[str]:
    return [
        row_label(row),
        f"{row['k']:,}",
        f"{row['N']:,}",
        *(fmt_count(row[c]) for c in COUNTS),
        *(fmt_rate(row[r]) for r in RATES),
        fmt_pair(row["pass@1"], arrow=arrow),
        fmt_pair(row["pass@k"], arrow=arrow),
        fmt_p(row["sign_test_p"]),
        fmt_pair(row["token_entropy"], arrow=arrow),
        fmt_pair(row["answer_entropy"], arrow=arrow),
    ]


def curve_cells(row: dict[str, Any], point: dict[str, Any], arrow: str = " → ") -> list[str]:
    return [
        row_label(row),
        f"{point['k']:,}",
        fmt_pair(point["pass@k"], digits=4, arrow=arrow),
        *(f"{point[c]:,.1f}" for c in COUNTS),
        *(fmt_rate(point[r]) for r in RATES),
    ]


def series_cells(row: dict[str, Any], first: bool, arrow: str = " → ") -> list[str]:
    """A series row: the scope's label on its first step only, then step, model, counts."""
    return [
        row_label(row) if first else "",
        f"{row['step']:,}",
        shown(row["target"]),
        f"{row['k']:,}",
        f"{row['N']:,}",
        *(fmt_count(row[c]) for c in COUNTS),
        *(fmt_rate(row[r]) for r in SERIES_RATES),
        fmt_pair(row["pass@1"], arrow=arrow),
        fmt_pair(row["pass@k"], arrow=arrow),
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
    return [cells[0] if first else "", f"{row['step']:,}", *cells[1:]]


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
    values = "; ".join(f"k = {k:,}: ε = {epsilon(k, zeta):.3g}" for k in ks)
    return (
        f"A correct answer never seen in k samples has probability at most ε = -ln ζ / k"
        f" (ζ = {zeta:g}): {values}." + entropy_kind_note(rows) + trusted_note(rows)
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
