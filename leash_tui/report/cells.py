"""What a report shows people beside its numbers: row labels and the notes under its tables.

The formats for people (report.write_people) label a scope's rows by its name (a
domain's with "(domain)", names from the folder made visible) and write under a
target's summary the ε of each budget shown, and the threshold, interval,
token-entropy-kind and trusted-verdict notes. Numbers are formatted by their column
(report.columns).
"""

from __future__ import annotations

from typing import Any

from leash_tui.analysis.pass_at_k import epsilon
from leash_tui.report.columns import (
    COUNTS,
    DASH,
    RATES,
    default_columns,
    fmt_count,
    fmt_p,
    fmt_pair,
    fmt_rate,
    headers,
)
from leash_tui.safe_text import visible

__all__ = ["COUNTS", "DASH", "RATES", "fmt_count", "fmt_p", "fmt_pair", "fmt_rate"]

#: the headers of the summary table (the label's, then every non-optional column's)
HEADERS = headers(default_columns())


def shown(name: str) -> str:
    """A name from the folder as printable text (control characters made visible)."""
    return visible(str(name), keep_newlines=False)


def row_label(row: dict[str, Any]) -> str:
    name = shown(row["name"])
    return f"{name} (domain)" if row["scope"] == "domain" else name


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


#: the notes of options that change what a row means, by the row key that carries them
_OPTION_NOTES = {
    "support_threshold": lambda tau: (
        f" Support at threshold τ = {tau:g}: a model supports a question when at least"
        f" ⌈τ·k⌉ of k samples are correct (c/n ≥ τ at k = n)."
    ),
}


def _option_note(rows: list[dict[str, Any]], key: str) -> str:
    """The note of the first true value of ``key`` among ``rows`` ("" when none has one)."""
    value = next((r[key] for r in rows if r.get(key)), None)
    return "" if value is None else _OPTION_NOTES[key](value)


def threshold_note(rows: list[dict[str, Any]]) -> str:
    """ " Support: at least a share τ …" when a support threshold was asked."""
    return _option_note(rows, "support_threshold")


def interval_note(rows: list[dict[str, Any]]) -> str:
    """ " CI: 95% paired bootstrap …" when rows carry intervals, with the resamples the
    rows drew and the largest row's Monte Carlo error of the interval ends."""
    cis = [r["ci"] for r in rows if r.get("ci")]
    if not cis:
        return ""
    counts = sorted({ci["resamples"] for ci in cis})
    drawn = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}–{counts[-1]:,}"
    errors = [ci["mc_error"] for ci in cis if ci.get("mc_error") is not None]
    error = (
        f"; Monte Carlo error of the interval ends at most {max(errors):.0%} of their"
        " half-widths, root mean square"
        if errors
        else ""
    )
    return (
        f" CI: {cis[0]['level']:.0%} Bayesian intervals of a paired bootstrap over questions"
        f" ({drawn} resamples, within benchmarks{error}; Δ = target − base)."
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
