"""The report's columns, one typed table: every section (report.sections) and the explorer's
summary take theirs.

A row of a section (a summary row of ``analysis.support.summary_row``, a block's, a
curve's point) is a dict; each ``ReportColumn`` says which key it shows (its JSON key),
its header in the terminal table, Markdown and LaTeX, its CSV names, how its value is
formatted (``kind``), its width rule in the terminal (the group of columns it stays
with when a table is split, alignment, whether it names the row or may wrap), and
where the explorer's summary pane shows it. Rate and measure names and their kinds
come from ``analysis.support_names``. A new measure is one ``ReportColumn`` here and
one function that puts its value in the row. The formats are ``report.formats.FORMATS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from leash_tui.analysis.support_names import (
    CATEGORIES,
    G_PASS_AT_K,
    MAJ_AT_N,
    MEASURE_KINDS,
    NSCR,
    PASS_AT_1,
    PASS_AT_K,
    PASS_HAT_K,
)
from leash_tui.analysis.support_names import RATES as SUPPORT_RATES
from leash_tui.safe_text import visible

DASH = "–"
ARROW = " → "

#: How a value is shown: ``int`` a count with thousands separators; ``count`` an exact
#: (int) or expected (float, one decimal) category count; ``rate`` four decimals;
#: ``p`` a p-value (scientific below 1e-3); ``pair`` {base, target} as "b → t";
#: ``interval`` [lo, hi] as "[lo, hi]"; ``share`` a parameter such as τ (``:g``);
#: ``fraction`` a share at the column's digits; ``text`` as it is; ``name`` a name from
#: the folder (control characters made visible).
Kind = Literal["int", "count", "rate", "p", "pair", "interval", "share", "fraction", "text", "name"]


def fmt_count(value: int | float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def fmt_rate(value: float | None, digits: int = 4) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def fmt_p(value: float | None) -> str:
    if value is None:
        return DASH
    return f"{value:.1e}" if value < 1e-3 else f"{value:.3f}"


def fmt_pair(pair: dict[str, float | None] | None, digits: int = 3, arrow: str = ARROW) -> str:
    if not isinstance(pair, dict) or (pair.get("base") is None and pair.get("target") is None):
        return DASH
    return f"{fmt_rate(pair['base'], digits)}{arrow}{fmt_rate(pair['target'], digits)}"


def fmt_interval(bounds: Sequence[float] | None, digits: int = 3) -> str:
    if bounds is None:
        return DASH
    lo, hi = bounds
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


@dataclass(frozen=True)
class ReportColumn:
    """One column of the summary rows.

    ``key`` is the row's key (a dotted path such as ``ci.NSCR`` reaches into a nested
    dict); ``header`` None keeps it out of the tables (CSV only); ``csv`` its CSV
    names (default: ``key``, or ``key_base``/``key_target`` for a pair); ``group``
    the columns kept together when a table is split; ``pane`` (rank, header) places it
    in the explorer's summary pane, None keeps it out; ``digits`` of a pair or
    interval in the tables; ``optional`` columns appear only when a row has them. The
    width rule of the terminal table: ``justify``, ``names`` (a column that names the
    row, repeated in every part of a split table) and ``wrap`` (free text that may wrap).
    """

    key: str
    header: str | None
    kind: Kind
    group: int = 0
    csv: tuple[str, ...] = ()
    pane: tuple[int, str] | None = None
    digits: int = 3
    optional: bool = False  # shown only when some row has it (an option asked for it)
    justify: Literal["left", "right"] = "right"
    names: bool = False
    wrap: bool = False
    style: str = ""  # the terminal's style of its cells (a rich style name)

    def value(self, row: dict[str, Any]) -> Any:
        """The raw value of this column in ``row`` (None when absent)."""
        value: Any = row
        for part in self.key.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(part)
        return value

    def csv_names(self) -> tuple[str, ...]:
        if self.csv:
            return self.csv
        if self.kind == "pair":
            return (f"{self.key}_base", f"{self.key}_target")
        if self.kind == "interval":
            return (f"{self.key}_lo", f"{self.key}_hi")
        return (self.key,)

    def csv_values(self, row: dict[str, Any]) -> dict[str, Any]:
        """{CSV name: raw value} (None where undefined)."""
        value = self.value(row)
        names = self.csv_names()
        if self.kind == "pair":
            pair = value if isinstance(value, dict) else {}
            return {names[0]: pair.get("base"), names[1]: pair.get("target")}
        if self.kind == "interval":
            lo, hi = value if value is not None else (None, None)
            return {names[0]: lo, names[1]: hi}
        return {names[0]: value}

    def cell(self, row: dict[str, Any], arrow: str = ARROW, digits: int | None = None) -> str:
        """The value formatted for people (undefined = en dash)."""
        places = self.digits if digits is None else digits
        return format_value(self.kind, self.value(row), arrow, places)


_FORMATTERS: dict[str, Callable[[Any, str, int], str]] = {
    "int": lambda v, a, d: DASH if v is None else f"{v:,}",
    "count": lambda v, a, d: DASH if v is None else fmt_count(v),
    "rate": lambda v, a, d: fmt_rate(v),
    "p": lambda v, a, d: fmt_p(v),
    "pair": lambda v, a, d: fmt_pair(v, d, a),
    "interval": lambda v, a, d: fmt_interval(v, d),
    "share": lambda v, a, d: DASH if v is None else f"{v:g}",
    "fraction": lambda v, a, d: fmt_rate(v, d),
    "text": lambda v, a, d: DASH if v is None else str(v),
    "name": lambda v, a, d: DASH if v is None else visible(str(v), keep_newlines=False),
}


def format_value(kind: str, value: Any, arrow: str = ARROW, digits: int = 3) -> str:
    return _FORMATTERS[kind](value, arrow, digits)


COUNTS = CATEGORIES  # analysis.support_names: the one source of the names
RATES = SUPPORT_RATES
#: the columns naming a row in CSV (the tables show a label made of name and scope)
ID_CSV = ("scope", "name", "base", "target")

#: where the explorer's summary pane shows each rate (its rank among the pane's lines)
_PANE = {"NSCR": 7, "SRR": 8, "NDR": 9, "SDS": 10}

#: Every column of a summary row, in table order (CSV order after ``ID_CSV``).
SUMMARY: tuple[ReportColumn, ...] = (
    ReportColumn("k", "k", "int", 0),
    ReportColumn("N", "N", "int", 0, pane=(1, "N")),
    *(ReportColumn(c, c, "count", 0, pane=(2 + i, c)) for i, c in enumerate(COUNTS)),
    # --risk: expected misclassified questions at most this (analysis.adaptive_support)
    ReportColumn("misclassified_bound", "miss ≤", "count", 0, optional=True),
    *(ReportColumn(r, r, MEASURE_KINDS[r], 1, pane=(_PANE[r], r)) for r in SUPPORT_RATES),
    ReportColumn(PASS_AT_1, PASS_AT_1, MEASURE_KINDS[PASS_AT_1], 2, pane=(11, "pass@1 b→t")),
    ReportColumn(PASS_AT_K, PASS_AT_K, MEASURE_KINDS[PASS_AT_K], 2, pane=(6, "pass@k b→t")),
    ReportColumn("sign_test_p", "sign p", "p", 1),
    ReportColumn("token_entropy", "token H", "pair", 3, pane=(12, "H tok b→t")),
    ReportColumn("answer_entropy", "answer H", "pair", 3, pane=(13, "H ans b→t")),
    ReportColumn("token_entropy_kind", None, "pair"),
    ReportColumn("support_threshold", None, "rate", optional=True),
    ReportColumn("ci.level", None, "rate", csv=("ci_level",), optional=True),
    ReportColumn("ci.resamples", None, "int", csv=("ci_resamples",), optional=True),
    ReportColumn("ci.mc_error", None, "rate", csv=("ci_mc_error",), optional=True),
    *(
        ReportColumn(
            f"ci.{key}",
            f"{label} CI",
            "interval",
            4,
            csv=(f"{key}_ci_lo", f"{key}_ci_hi"),
            optional=True,
        )
        for key, label in (
            *((rate, rate) for rate in SUPPORT_RATES),
            *((f"{name}_diff", f"Δ{name}") for name in (PASS_AT_1, PASS_AT_K)),
        )
    ),
    *(
        ReportColumn(
            f"ci.{key}", None, "interval", csv=(f"{key}_ci_lo", f"{key}_ci_hi"), optional=True
        )
        for key in (f"{m}_{role}" for m in (PASS_AT_1, PASS_AT_K) for role in ("base", "target"))
    ),
)

#: CSV columns present when some verdicts are trusted source verdicts (not leash's)
TRUSTED = ReportColumn("trusted_source_verdicts", None, "pair")


#: the columns of the report's optional blocks (report.blocks)
ESTIMATE: tuple[ReportColumn, ...] = (
    ReportColumn("k", "k", "int", 0),
    *(ReportColumn(m, m, MEASURE_KINDS[m], 1, digits=4) for m in (PASS_AT_K, PASS_HAT_K)),
    ReportColumn(G_PASS_AT_K, G_PASS_AT_K, MEASURE_KINDS[G_PASS_AT_K], 2, digits=4),
    ReportColumn("distinct_answers", "distinct answers", "pair", 2, digits=2),
    ReportColumn(MAJ_AT_N, MAJ_AT_N, MEASURE_KINDS[MAJ_AT_N], 2, digits=4),
)
FORECAST: tuple[ReportColumn, ...] = (
    ReportColumn("k", "k", "int", 0),
    ReportColumn(PASS_AT_K, "pass@k measured", MEASURE_KINDS[PASS_AT_K], 0, digits=4),
    ReportColumn("forecast_k", "K", "int", 1),
    ReportColumn(
        "forecast", "pass@K forecast", "pair", 1, csv=("forecast_base", "forecast_target"), digits=4
    ),
    ReportColumn("forecast_fit", "fit", "text", 1),  # BB, ZIBB, measured: analysis.forecast
)
THRESHOLDS: tuple[ReportColumn, ...] = (
    ReportColumn("tau", "τ", "share", 0),
    *(ReportColumn(c, c, "count", 0) for c in COUNTS),
    ReportColumn(NSCR, NSCR, MEASURE_KINDS[NSCR], 0),
)
GUESSING: tuple[ReportColumn, ...] = (
    ReportColumn("questions", "questions", "int", 0),
    ReportColumn("options", "options", "count", 0),
    ReportColumn("guess@k", "guess@k", "rate", 0),
    ReportColumn("supported", "supported", "pair", 1, digits=0),
    ReportColumn("by_chance", "by chance", "pair", 1, digits=0),
)

#: the columns of the answers by extraction rule (report.rule_section)
ANSWER_RULES: tuple[ReportColumn, ...] = (
    ReportColumn("rule", None, "name"),
    ReportColumn("samples", "answers found", "pair", 0, digits=0),
    ReportColumn("share", "share of verified", "pair", 1),
)


def present(
    rows: Sequence[dict[str, Any]], columns: Sequence[ReportColumn] = SUMMARY
) -> tuple[ReportColumn, ...]:
    """``columns`` less the optional ones no row of ``rows`` has."""
    return tuple(
        c for c in columns if not c.optional or any(c.value(row) is not None for row in rows)
    )


def table_columns(columns: Sequence[ReportColumn] = SUMMARY) -> list[ReportColumn]:
    """The columns the tables show (those with a header)."""
    return [c for c in columns if c.header is not None]


def headers(columns: Sequence[ReportColumn] = SUMMARY) -> tuple[str, ...]:
    """Table headers: the row label's empty header, then each shown column's."""
    return ("", *(c.header for c in table_columns(columns) if c.header is not None))


def groups(columns: Sequence[ReportColumn] = SUMMARY) -> dict[str, int]:
    """{header: group} of the shown columns."""
    return {c.header: c.group for c in table_columns(columns) if c.header is not None}


def csv_names(columns: Sequence[ReportColumn] = SUMMARY) -> tuple[str, ...]:
    return (*ID_CSV, *(name for c in columns for name in c.csv_names()))


def default_columns() -> tuple[ReportColumn, ...]:
    """The columns every report has (no optional one)."""
    return tuple(c for c in SUMMARY if not c.optional)


def pane_columns(columns: Sequence[ReportColumn] = SUMMARY) -> list[tuple[ReportColumn, str]]:
    """(column, pane header) of the explorer's summary pane, in its order."""
    placed = [(c.pane, c) for c in columns if c.pane is not None]
    return [(c, pane[1]) for pane, c in sorted(placed, key=lambda item: item[0][0])]


def select(*keys: str) -> tuple[ReportColumn, ...]:
    """The summary columns of ``keys``, in that order (a curve or series table's)."""
    by_key = {c.key: c for c in SUMMARY}
    return tuple(by_key[key] for key in keys)
