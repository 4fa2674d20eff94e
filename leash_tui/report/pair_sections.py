"""A pair report (report.build.Report) as a document of sections (report.sections).

Per target compared with the base, a chapter: the summary rows (benchmarks, domains,
overall) with their budget curves as detail, the perplexity of reference traces, and
the optional parts (report.blocks); per training series a chapter of its steps with
their curves; last the all-models table (Markdown and LaTeX: one row per model over
all questions, as a paper shows it). JSON is ``leash-report/1`` (docs/interchange.md
section 2): its keys are the sections' (``rows``, the parts, ``grading_agreement``,
``perplexity``, ``series``, ranked by ``JSON_ORDER``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from leash_tui.analysis.support_names import CATEGORIES, RATES, SERIES_RATES
from leash_tui.report.blocks import Block
from leash_tui.report.build import REPORT_FORMAT, Report
from leash_tui.report.cells import epsilon_note, row_label, shown
from leash_tui.report.columns import ID_CSV, SUMMARY, TRUSTED, ReportColumn, select
from leash_tui.report.rule_section import rule_section
from leash_tui.report.sections import Chapter, Document, Row, Section, Titles
from leash_tui.report.write_data import csv_value

#: leash-report/1 key order where it differs from the sections' (rows and parts first)
JSON_ORDER = {"grading_agreement": 1, "perplexity": 2, "series": 3}
PAIR = "{base} → {target}"
LATEX_PAIR = r"{base} $\to$ {target}"

#: the columns that name a row in CSV (the tables show its label)
IDS = tuple(ReportColumn(key, None, "name") for key in ID_CSV)
SERIES_IDS = (
    ReportColumn("series", None, "name", optional=True),
    ReportColumn("step", None, "int", optional=True),
)
#: a budget-curve point's columns (pass@k stays with the counts when a table is split)
CURVE = tuple(
    replace(c, digits=4, group=0 if c.key == "pass@k" else c.group)
    for c in select("k", "pass@k", *CATEGORIES, *RATES)
)
_SERIES_SHOWN = ("k", "N", *CATEGORIES, *SERIES_RATES, "pass@1", "pass@k")
_STEP = ReportColumn("step", "step", "text", names=True)
_MODEL = ReportColumn("target", "model", "name", justify="left", names=True)
PERPLEXITY = (
    ReportColumn("category", "category", "text", 1, justify="left", names=True),
    ReportColumn("source", "source", "name", 2, justify="left", names=True),
    ReportColumn("n_traces", "traces", "int", 3),
    ReportColumn("perplexity", "perplexity", "pair", 4),
)
MODELS = (
    ReportColumn("role", "role", "text"),
    ReportColumn("k", "k", "int"),
    ReportColumn("N", "N", "int"),
    ReportColumn("pass@1", "pass@1", "fraction"),
    ReportColumn("pass@k", "pass@k", "fraction"),
    *select(*CATEGORIES, *RATES),
)


def _numbered(columns: tuple[ReportColumn, ...], start: int = 1) -> tuple[ReportColumn, ...]:
    """``columns``, each its own group (a split table keeps any of them with the names)."""
    return tuple(replace(c, group=start + i) for i, c in enumerate(columns))


def _pair_chapters(report: Report) -> list[Chapter]:
    return [Chapter(t, {"base": report.base, "target": t}) for t in report.targets]


def _ids(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row[key] for key in (*ID_CSV, "series", "step") if key in row}


def summary_section(report: Report) -> Section:
    """The summary rows of every target, their curves (when asked) as detail."""
    trusted = replace(TRUSTED, optional=True)
    section = Section(
        "rows",
        Titles(PAIR, PAIR, f"Support dynamics, {LATEX_PAIR}."),
        (*IDS, *SUMMARY, *SERIES_IDS, trusted),
        table_label="scope",
        level=1,
        note=lambda rows: epsilon_note(rows, report.zeta),
        # a summary line is tagged when the CSV has curves or parts (as leash-report/1 did)
        csv_tag="summary" if report.curves is not None or report.blocks else "",
        bold_markdown=True,
    )
    if report.curves is not None:
        titles = Titles(
            f"budget curves, {PAIR}", f"Budget curves, {PAIR}", f"Budget curves, {LATEX_PAIR}."
        )
        section.detail = Section("curve", titles, (*IDS, *CURVE), table_label="scope")
    curves = report.curves or [None] * len(report.rows)
    for values, curve in zip(report.rows, curves, strict=True):
        row = _scope_row(values, values["target"], values["scope"])
        section.rows.append(row)
        if section.detail is not None:
            row.details = _curve_rows(values, curve or [], row.chapter)
            section.detail.rows += row.details
    return section


def _key(values: dict[str, Any]) -> str:
    return f"{values['scope']}/{values['name']}"


def _scope_row(values: dict[str, Any], chapter: str, group: str, label: bool = True) -> Row:
    """A row of a scope: labelled by it (unless ``label`` is false), strong when overall."""
    strong = values["scope"] == "overall"
    return Row(values, row_label(values) if label else "", chapter, group, strong)


def _curve_rows(parent: dict[str, Any], points: list[dict[str, Any]], chapter: str) -> list[Row]:
    label, group = row_label(parent), _key(parent)
    return [
        Row(p, label, chapter, group, blank_in=("table",) if j else (), ids=_ids(parent))
        for j, p in enumerate(points)
    ]


def perplexity_section(report: Report) -> Section | None:
    """The perplexity of reference traces per scope of each target."""
    if not report.perplexity:
        return None
    titles = Titles(
        f"perplexity of reference traces, {PAIR}",
        f"Perplexity of reference traces, {PAIR}",
        f"Perplexity of reference traces, {LATEX_PAIR}.",
    )
    section = Section("perplexity", titles, (*IDS, *PERPLEXITY))
    previous = None
    for values in report.perplexity:
        key = _key(values)
        section.rows.append(
            Row(values, row_label(values) if key != previous else "", values["target"], key)
        )
        previous = key
    return section


def block_section(block: Block) -> Section:
    """One optional part (report.blocks) of every target."""
    title = block.title.replace("{", "{{").replace("}", "}}")
    titles = Titles(f"{title}, {PAIR}", f"{title}, {PAIR}", f"{title}, {LATEX_PAIR}.")
    section = Section(block.key, titles, (*IDS, *block.columns), table_label="scope")
    section.rows = [Row(v, row_label(v), v["target"], v["scope"]) for v in block.rows]
    return section


def series_section(report: Report) -> Section | None:
    """Per training series, per scope, one row per step (the base is step 0)."""
    if not report.series_rows:
        return None
    steps = tuple(c if c.key in _SERIES_SHOWN else replace(c, header=None) for c in SUMMARY)
    columns = (*IDS, *_numbered((_STEP, _MODEL, *(c for c in steps if c.header))))
    columns += (*(c for c in steps if not c.header), *SERIES_IDS, replace(TRUSTED, optional=True))
    section = Section(
        "series",
        Titles(
            "series {name}: {base} (step 0) → checkpoints",
            "Series {name}, from {base} (step 0)",
            "Training dynamics, series {name}, step 0 = {base}.",
        ),
        columns,
        level=1,
    )
    if report.series_curves is not None:
        section.detail = Section(
            "curve",
            Titles(
                "budget curves per step, series {name}",
                "Budget curves per step, series {name}, from {base} (step 0)",
                "Budget curves per step, series {name}, step 0 = {base}.",
            ),
            (*IDS, *SERIES_IDS, *_numbered((_STEP, replace(CURVE[0], names=True), *CURVE[1:]))),
            csv_tag="series_curve",
        )
    curves = report.series_curves or [None] * len(report.series_rows)
    previous = None
    for values, curve in zip(report.series_rows, curves, strict=True):
        key = _key(values)
        row = _scope_row(values, f"series:{values['series']}", key, label=key != previous)
        section.rows.append(row)
        if section.detail is not None:
            # LaTeX labels each step's first point, the others the scope's first only
            group, blank = f"{key}/{values['step']}", () if row.label else ("table", "markdown")
            row.details = [
                Row(
                    p,
                    "" if i else row_label(values),
                    row.chapter,
                    group,
                    blank_in=blank,
                    ids=_ids(values),
                )
                for i, p in enumerate(curve or [])
            ]
            section.detail.rows += row.details
        previous = key
    return section


def models_section(report: Report) -> Section | None:
    """The base's row, then one row per target (overall scope), for Markdown and LaTeX."""
    overall = [
        next((r for r in report.rows if r["target"] == t and r["scope"] == "overall"), None)
        for t in report.targets
    ]
    rows = [r for r in overall if r is not None]
    if not rows:
        return None
    section = Section(
        "models",
        Titles(
            "",
            "All models, overall (base {base})",
            "Support dynamics of every model over all questions, against {base}.",
        ),
        MODELS,
        label="model",
        level=1,
        formats=("markdown", "latex"),
    )
    first = rows[0]
    base = {"role": "base", "k": first["k"], "N": first["N"]}
    base |= {key: first[key]["base"] for key in ("pass@1", "pass@k")}
    section.rows.append(Row(base, shown(report.base), "models", "base"))
    for row in rows:
        values = {"role": "target", "k": row["k"], "N": row["N"]}
        values |= {key: row[key]["target"] for key in ("pass@1", "pass@k")}
        values |= {key: row[key] for key in (*CATEGORIES, *RATES)}
        section.rows.append(Row(values, shown(row["target"]), "models", "target"))
    return section


def pair_document(report: Report) -> Document:
    """Every section of ``report``, its chapters in reading order (module docstring)."""
    sections = [
        summary_section(report),
        perplexity_section(report),
        *map(block_section, report.blocks),
        rule_section(report.answer_rules),
        series_section(report),
        models_section(report),
    ]
    chapters = _pair_chapters(report)
    chapters += [
        Chapter(f"series:{name}", {"name": name, "base": report.base})
        for name in report.series_names()
    ]
    chapters.append(Chapter("models", {"base": report.base}))
    extra = {"grading_agreement": (1, report.grading_agreement)}
    return Document(
        chapters,
        [s for s in sections if s is not None],
        json_head={"format": REPORT_FORMAT},
        json_extra=extra if report.grading_agreement else {},
        json_order=JSON_ORDER,
        csv_cell=csv_value,
        preamble=["% leash report; needs \\usepackage{booktabs}", ""],
    )
