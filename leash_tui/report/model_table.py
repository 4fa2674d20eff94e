"""The report of a folder with one model: its own pass@k, curve and entropies, no comparison.

A folder that holds one model only (a base sampled before any RLVR checkpoint, one
imported run) has no pair to label P/E/S/O, so ``leash report`` shows this table
instead of refusing: per benchmark, then domain, then overall, the questions N, the
budget k (the smallest verified count, or ``--k``), pass@1, pass@k, the expected number
of questions in the model's support at k (the sum of pass@k), mean token and answer
entropy, and with ``--curves`` pass@k at k = 1, 2, 4, ... Samples not verified are not
counted; a question without a verified sample is left out and counted in a note.
Formats: the terminal table, JSON (``leash-model-report/1``: ``model``, ``rows``), CSV,
Markdown and LaTeX.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from leash_tui.analysis.answer_stats import model_stats
from leash_tui.analysis.budget_curves import curve_budgets
from leash_tui.analysis.pass_at_k import pass_at_k, pass_at_ks
from leash_tui.analysis.support import compare_questions, int_column, scope_entropies, scope_tables
from leash_tui.report.columns import ReportColumn
from leash_tui.report.data import ReportData
from leash_tui.report.sections import PEOPLE, Chapter, Document, Row, Section, Titles
from leash_tui.report.write_data import listing_document, spreadsheet_cell, write_csv, write_json
from leash_tui.report.write_plain import write_plain
from leash_tui.safe_text import visible
from sampler.errors import LeashError

MODEL_REPORT_FORMAT = "leash-model-report/1"
CSV_COLUMNS = (
    "scope", "name", "model", "k", "N", "support", "pass@1", "pass@k",
    "token_entropy", "answer_entropy", "curve_k", "curve_pass@k",
)  # fmt: skip


@dataclass
class ModelReport:
    """Rows of one model's table (each with ``curve`` when asked) and notes for the user."""

    model: str
    rows: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)


def build_model_report(
    data: ReportData, model: str, k: int | None = None, curves: bool = False
) -> ModelReport:
    """The one-model table of ``model`` (see the module docstring)."""
    try:
        questions = compare_questions(data.counts, model, model, k)
    except ValueError as exc:
        raise LeashError(f"--k {k}: {exc}") from None
    n = int_column(questions, "n_base")
    notes = [f"{model} is the only model with samples: its own numbers, no comparison"]
    if (n == 0).any():
        notes.append(
            f"{int((n == 0).sum())} question(s) have no verified sample yet, left out"
            " (run `leash verify`)"
        )
    stats = model_stats(data.answer_stats, model)
    rows = []
    for scope, name, part in scope_tables(questions, data.domains()):
        n_q, c_q = int_column(part, "n_base"), int_column(part, "c_base")
        budget = int(n_q.min()) if k is None else k
        at_k = pass_at_k(n_q, c_q, budget)
        token, answer = scope_entropies(part, stats)
        row: dict[str, Any] = {
            "scope": scope,
            "name": name,
            "model": model,
            "k": budget,
            "N": part.num_rows,
            "support": float(at_k.sum()),
            "pass@1": float(np.mean(c_q / n_q)),
            "pass@k": float(np.mean(at_k)),
            "token_entropy": token,
            "answer_entropy": answer,
        }
        if curves:
            ks = curve_budgets(budget)
            values = pass_at_ks(n_q, c_q, ks).mean(axis=0)
            row["curve"] = [{"k": kk, "pass@k": float(v)} for kk, v in zip(ks, values, strict=True)]
        rows.append(row)
    if not rows:
        raise LeashError(f"{data.root}: no question has verified samples of {model} to report")
    return ModelReport(model, rows, notes)


#: the columns of the one-model table (its label: the scope)
COLUMNS = (
    ReportColumn("k", "k", "text"),
    ReportColumn("N", "N", "text"),
    ReportColumn("support", "support", "fraction", digits=1),
    *(ReportColumn(key, key, "fraction") for key in ("pass@1", "pass@k")),
    ReportColumn("token_entropy", "token H", "fraction"),
    ReportColumn("answer_entropy", "answer H", "fraction"),
)


def model_section(report: ModelReport) -> Section:
    """The one-model table: a line per scope, the points of its curve under it."""
    section = Section("rows", Titles.same("{model} (one model)"), COLUMNS, formats=PEOPLE)
    for row in report.rows:
        label = row["name"] if row["scope"] == "benchmark" else f"{row['scope']}: {row['name']}"
        section.rows.append(Row(row, visible(label, keep_newlines=False)))
        section.rows += [
            Row({"pass@k": p["pass@k"]}, f"  k={p['k']}", sparse=True) for p in row.get("curve", [])
        ]
    return section


def render_model_report(report: ModelReport, fmt: str) -> str:
    """``report`` as text in ``fmt`` (table, json, csv, markdown, latex)."""
    if fmt in ("json", "csv"):
        document = model_document(report)
        return write_json(document, allow_nan=True) if fmt == "json" else write_csv(document)
    document = Document([Chapter("", {"model": report.model})], [model_section(report)])
    text = write_plain(document, fmt)
    extras = _extras(report)  # --estimate-k, --forecast, intervals: lines after the table
    if extras and fmt == "markdown":
        text += "\n" + "".join(f"- {line}\n" for line in extras)
    elif extras and fmt == "table":
        text += "".join(f"{line}\n" for line in extras)
    return text


def _extras(report: ModelReport) -> list[str]:
    from leash_tui.report.model_extras import extras_lines  # the options' additions

    return [visible(line, keep_newlines=False) for line in extras_lines(report)]


def model_document(report: ModelReport) -> Document:
    """JSON: the rows (each with its curve when asked); CSV: a line per row, then one per
    point of its curve (``curve_k``, ``curve_pass@k``)."""
    lines = []
    for row in report.rows:
        lines.append({c: row[c] for c in CSV_COLUMNS[:10]})
        names = {c: row[c] for c in CSV_COLUMNS[:3]}
        lines += [
            names | {"curve_k": p["k"], "curve_pass@k": p["pass@k"]} for p in row.get("curve", [])
        ]
    head = {"format": MODEL_REPORT_FORMAT, "model": report.model}
    return listing_document(head, "rows", report.rows, CSV_COLUMNS, lines, _csv_cell)


def _csv_cell(value: Any) -> Any:
    """Names made visible, then a spreadsheet's text (formulas quoted)."""
    return spreadsheet_cell(
        visible(value, keep_newlines=False) if isinstance(value, str) else value
    )
