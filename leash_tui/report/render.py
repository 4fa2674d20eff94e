"""Render a support-dynamics report as a rich table, JSON, CSV, Markdown or LaTeX.

All formats show the same rows: per target, the benchmarks, then the domains, then
overall. JSON is docs/interchange.md section 2 (numbers unrounded, undefined = null);
CSV is one flat table for scripts (full precision, undefined = empty cell); the
table, Markdown and LaTeX are for people (rounded, undefined = en dash) and say
the epsilon of each budget shown.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from typing import Any

from leash_tui.report.all_models_table import MODEL_HEADERS, latex_note, model_rows
from leash_tui.report.blocks import Block
from leash_tui.report.build import Report, report_json
from leash_tui.report.cells import (
    CSV_TRUSTED_COLUMNS,
    CURVE,
    CURVE_HEADERS,
    DASH,
    PERPLEXITY_HEADERS,
    SERIES_CURVE_HEADERS,
    SERIES_HEADERS,
    curve_cells,
    epsilon_note,
    perplexity_lines,
    row_cells,
    row_label,
    series_blocks,
    series_cells,
    series_curve_cells,
    shown,
)
from leash_tui.report.columns import (
    ID_CSV,
    TRUSTED,
    ReportColumn,
    csv_names,
    groups,
    headers,
    present,
)
from leash_tui.report.formats import FORMATS


def render_json(report: Report) -> str:
    return json.dumps(report_json(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return repr(value)
    return value


def _flat(row: dict[str, Any], columns: tuple[ReportColumn, ...]) -> dict[str, Any]:
    """A summary row as CSV cells, named by the column registry."""
    flat: dict[str, Any] = {key: shown(row[key]) for key in ID_CSV}
    for column in columns:
        flat |= column.csv_values(row)
    if "series" in row:
        flat["series"], flat["step"] = shown(row["series"]), row["step"]
    if "trusted_source_verdicts" in row:
        flat |= TRUSTED.csv_values(row)
    return flat


def _curve_flat(row: dict[str, Any], point: dict[str, Any]) -> dict[str, Any]:
    """A budget-curve point as CSV cells, named like the summary's."""
    cells = {key: shown(row[key]) for key in ID_CSV}
    for column in CURVE:
        cells |= column.csv_values(point)
    return cells


def render_csv(report: Report) -> str:
    """One table; with curves, a first column ``row`` tells summary rows from curve points."""
    out = io.StringIO()
    with_curves = report.curves is not None
    with_series = bool(report.series_rows)
    summary = present([*report.rows, *report.series_rows])
    names = csv_names(summary)
    columns = ["row", *names] if with_curves or with_series else list(names)
    if with_series:
        columns += ["series", "step"]
    if any("trusted_source_verdicts" in row for row in [*report.rows, *report.series_rows]):
        columns += CSV_TRUSTED_COLUMNS
    if report.perplexity:
        if "row" not in columns:
            columns.insert(0, "row")
        columns += ["category", "source", "n_traces", "perplexity_base", "perplexity_target"]
    if report.blocks and "row" not in columns:
        columns.insert(0, "row")
    for block in report.blocks:
        columns += [n for c in block.columns for n in c.csv_names() if n not in columns]
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for target in report.targets:
        for row, curve in report.rows_of(target):
            flat = _flat(row, summary)
            if with_curves or report.blocks:
                flat["row"] = "summary"
            writer.writerow({k: _csv_value(v) for k, v in flat.items()})
            for point in curve or []:
                cells = _curve_flat(row, point)
                cells["row"] = "curve"
                writer.writerow({k: _csv_value(v) for k, v in cells.items()})
    for row in report.perplexity:
        cells = {key: shown(row[key]) for key in ("scope", "name", "base", "target", "source")}
        cells |= {"row": "perplexity", "category": row["category"], "n_traces": row["n_traces"]}
        cells["perplexity_base"] = row["perplexity"]["base"]
        cells["perplexity_target"] = row["perplexity"]["target"]
        writer.writerow({k: _csv_value(v) for k, v in cells.items()})
    for block in report.blocks:
        for row in block.rows:
            cells = {key: shown(row[key]) for key in ID_CSV} | {"row": block.key}
            for column in block.columns:
                cells |= column.csv_values(row)
            writer.writerow({k: _csv_value(v) for k, v in cells.items()})
    for name in report.series_names():
        for row, curve in report.series_of(name):
            flat = _flat(row, summary) | {
                "row": "series",
                "series": shown(name),
                "step": row["step"],
            }
            writer.writerow({k: _csv_value(v) for k, v in flat.items()})
            for point in curve or []:
                cells = _curve_flat(row, point)
                cells |= {"row": "series_curve", "series": shown(name), "step": row["step"]}
                writer.writerow({k: _csv_value(v) for k, v in cells.items()})
    return out.getvalue()


def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def _md_table(headers: tuple[str, ...], lines: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |"]
    out.append("|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|")
    out += ["| " + " | ".join(cells) + " |" for cells in lines]
    return out


def render_markdown(report: Report) -> str:
    out: list[str] = []
    for target in report.targets:
        pairs = report.rows_of(target)
        rows = [r for r, _ in pairs]
        pair = f"{_md_escape(shown(report.base))} → {_md_escape(shown(target))}"
        out.append(f"## {pair}")
        out.append("")
        lines, columns = [], present(rows)
        for row in rows:
            cells = row_cells(row, columns=columns)
            cells[0] = _md_escape(cells[0])
            if row["scope"] == "overall":
                cells[0] = f"**{cells[0]}**"
            lines.append(cells)
        out += _md_table(headers(columns), lines)
        out += ["", epsilon_note(rows, report.zeta), ""]
        if report.curves is not None:
            out += [f"### Budget curves, {pair}", ""]
            curve_lines = []
            for row, curve in pairs:
                for point in curve or []:
                    cells = curve_cells(row, point)
                    cells[0] = _md_escape(cells[0])
                    curve_lines.append(cells)
            out += _md_table(CURVE_HEADERS, curve_lines)
            out.append("")
        lines = perplexity_lines(report, target)
        if lines:
            out += [f"### Perplexity of reference traces, {pair}", ""]
            out += _md_table(
                PERPLEXITY_HEADERS, [[_md_escape(c) for c in cells] for _, cells in lines]
            )
            out.append("")
        for block in report.blocks:
            block_lines = [
                [_md_escape(c) for c in block_cells(block, r)] for r in block_rows(block, target)
            ]
            if block_lines:
                out += [f"### {_md_escape(block.title)}, {pair}", ""]
                out += [*_md_table(headers(block.columns), block_lines), ""]
    for name in report.series_names():
        title = f"{_md_escape(shown(name))}, from {_md_escape(shown(report.base))} (step 0)"
        out += [f"## Series {title}", ""]
        lines, curve_lines = [], []
        for block in series_blocks(report.series_of(name)):
            for j, (row, curve) in enumerate(block):
                cells = series_cells(row, j == 0)
                cells[0], cells[2] = _md_escape(cells[0]), _md_escape(cells[2])
                lines.append(cells)
                for i, point in enumerate(curve or []):
                    curve_cells_ = series_curve_cells(row, point, j == 0 and i == 0)
                    curve_cells_[0] = _md_escape(curve_cells_[0])
                    curve_lines.append(curve_cells_)
        out += [*_md_table(SERIES_HEADERS, lines), ""]
        if report.series_curves is not None:
            out += [f"### Budget curves per step, series {title}", ""]
            out += [*_md_table(SERIES_CURVE_HEADERS, curve_lines), ""]
    models = model_rows(report)
    if models:  # last: the paper's table: one row per model, over all questions
        out += [f"## All models, overall (base {_md_escape(shown(report.base))})", ""]
        out += [*_md_table(MODEL_HEADERS, [[_md_escape(c) for c in m] for m in models]), ""]
    return "\n".join(out)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex_cells(cells: list[str]) -> str:
    first = latex_escape(cells[0])
    rest = [c.replace(DASH, "--").replace(" → ", r" $\to$ ") for c in cells[1:]]
    return " & ".join([first, *rest]) + r" \\"


def _latex_table(
    caption: str, headers: tuple[str, ...], lines: list[tuple[str, list[str]]]
) -> list[str]:
    heads = [
        latex_escape(h).replace("pass@k", r"pass@$k$").replace("Δ", r"$\Delta$") for h in headers
    ]
    heads = [r"$k$" if h == "k" else r"$N$" if h == "N" else h for h in heads]
    out = [
        r"\begin{table}[ht]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{l" + "r" * (len(headers) - 1) + "}",
        r"\toprule",
        " & ".join(heads) + r" \\",
        r"\midrule",
    ]
    previous = None
    for scope, cells in lines:
        if previous is not None and scope != previous:
            out.append(r"\midrule")
        out.append(_latex_cells(cells))
        previous = scope
    out += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}", ""]
    return out


def render_latex(report: Report) -> str:
    out = ["% leash report; needs \\usepackage{booktabs}", ""]
    for target in report.targets:
        pairs = report.rows_of(target)
        rows = [r for r, _ in pairs]
        pair = rf"{latex_escape(shown(report.base))} $\to$ {latex_escape(shown(target))}"
        eps = latex_note(latex_escape(epsilon_note(rows, report.zeta)))
        columns = present(rows)
        lines = [(r["scope"], row_cells(r, columns=columns)) for r in rows]
        out += _latex_table(f"Support dynamics, {pair}. {eps}", headers(columns), lines)
        if report.curves is not None:
            curve_lines = [(r["name"], curve_cells(r, p)) for r, c in pairs for p in c or []]
            out += _latex_table(f"Budget curves, {pair}.", CURVE_HEADERS, curve_lines)
        lines = perplexity_lines(report, target)
        if lines:
            escaped = [
                (key, [latex_escape(c) if i < 3 else c for i, c in enumerate(cells)])
                for key, cells in lines
            ]
            out += _latex_table(
                f"Perplexity of reference traces, {pair}.", PERPLEXITY_HEADERS, escaped
            )
        for block in report.blocks:
            block_lines = [(r["scope"], block_cells(block, r)) for r in block_rows(block, target)]
            if block_lines:
                caption = f"{latex_escape(block.title)}, {pair}."
                out += _latex_table(caption, headers(block.columns), block_lines)
    for name in report.series_names():
        title = f"series {latex_escape(shown(name))}, step 0 = {latex_escape(shown(report.base))}"
        lines, curve_lines = [], []
        for block in series_blocks(report.series_of(name)):
            for j, (row, curve) in enumerate(block):
                key = f"{row['scope']}/{row['name']}"
                cells = series_cells(row, j == 0)
                cells[2] = latex_escape(cells[2])
                lines.append((key, cells))
                curve_lines += [
                    (f"{key}/{row['step']}", series_curve_cells(row, p, i == 0))
                    for i, p in enumerate(curve or [])
                ]
        out += _latex_table(f"Training dynamics, {title}.", SERIES_HEADERS, lines)
        if report.series_curves is not None:
            caption = f"Budget curves per step, {title}."
            out += _latex_table(caption, SERIES_CURVE_HEADERS, curve_lines)
    models = model_rows(report)
    if models:  # last: the paper's table: one row per model, over all questions
        base = latex_escape(shown(report.base))
        caption = f"Support dynamics of every model over all questions, against {base}."
        out += _latex_table(caption, MODEL_HEADERS, [(m[1], m) for m in models])
    return "\n".join(out)


def render_table(report: Report, width: int | None = None) -> str:
    """The table as plain text; at its natural width unless ``width`` is given."""
    console = table_console(io.StringIO(), width, color=False)
    print_table(report, console)
    return console.file.getvalue()


def table_console(file: Any, width: int | None, color: bool) -> Any:
    """A console for ``file``: ``width`` None means the terminal's width on a terminal,
    else the table's natural width (a pipe or file is never cut)."""
    from leash_tui.report.fit import PIPE_WIDTH, console_for

    console = console_for(file, color=color)
    if width is not None:
        console.width = width
    elif not color:
        console.width = PIPE_WIDTH
    return console


#: Column groups kept together when a report is too wide for the terminal.
_CURVE_GROUPS = groups(CURVE) | {"pass@k": 0}


def _fit_columns(headers: tuple[str, ...], groups: dict[str, int]) -> list[Any]:
    from leash_tui.report.fit import FitColumn

    first = FitColumn("scope", justify="left", key=True)
    return [first, *(FitColumn(h, group=groups[h]) for h in headers[1:])]


def _plain_columns(
    headers: tuple[str, ...], left: tuple[int, ...], keys: tuple[int, ...]
) -> list[Any]:
    """Columns of a small table: ``keys`` name the row (repeated in every part of a split)."""
    from leash_tui.report.fit import FitColumn

    return [
        FitColumn(h, justify="left" if i in left else "right", key=i in keys, group=i)
        for i, h in enumerate(headers)
    ]


def print_table(report: Report, console: Any) -> None:
    """One block per target: rows per benchmark, then per domain, then overall.

    Names and numbers are never cut: a table wider than the console is split into
    parts (counts, rates, pass@k, entropies), each repeating the row names, or at
    very narrow widths stacked as one record per row (report.fit).
    """
    from rich.text import Text

    from leash_tui.report.fit import FitTable, print_fitted
    from leash_tui.safe_text import safe

    for target in report.targets:
        pairs = report.rows_of(target)
        rows = [r for r, _ in pairs]
        columns = present(rows)
        table = FitTable(
            _fit_columns(headers(columns), groups(columns)),
            title=Text(f"{shown(report.base)} → {shown(target)}", style="bold"),
            caption=Text(epsilon_note(rows, report.zeta)),
        )
        for i, row in enumerate(rows):
            cells = row_cells(row, columns=columns)
            last_of_scope = i + 1 == len(rows) or rows[i + 1]["scope"] != row["scope"]
            style = "bold" if row["scope"] == "overall" else ""
            table.add_row(safe(cells[0], style), *cells[1:], end_section=last_of_scope)
        print_fitted(console, table)
        if report.curves is not None:
            curves = FitTable(
                _fit_columns(CURVE_HEADERS, _CURVE_GROUPS),
                title=Text(f"budget curves, {shown(report.base)} → {shown(target)}"),
            )
            for row, curve in pairs:
                points = curve or []
                for j, point in enumerate(points):
                    cells = curve_cells(row, point)
                    label = safe(cells[0] if j == 0 else "")
                    curves.add_row(label, *cells[1:], end_section=j + 1 == len(points))
            print_fitted(console, curves)
        lines = perplexity_lines(report, target)
        if lines:
            ppl = FitTable(
                _plain_columns(PERPLEXITY_HEADERS, left=(0, 1, 2), keys=(0, 1, 2)),
                title=Text(
                    f"perplexity of reference traces, {shown(report.base)} → {shown(target)}"
                ),
            )
            for j, (key, cells) in enumerate(lines):
                last = j + 1 == len(lines) or lines[j + 1][0] != key
                ppl.add_row(safe(cells[0]), cells[1], safe(cells[2]), *cells[3:], end_section=last)
            print_fitted(console, ppl)
        for block in report.blocks:
            _print_block(block, target, report.base, console)
    for name in report.series_names():
        _print_series(report, name, console)


def block_rows(block: Block, target: str) -> list[dict[str, Any]]:
    return [row for row in block.rows if row["target"] == target]


def block_cells(block: Block, row: dict[str, Any]) -> list[str]:
    """A block row's label and cells, from the block's registry columns."""
    return [row_label(row), *(c.cell(row) for c in block.columns)]


def _print_block(block: Block, target: str, base: str, console: Any) -> None:
    """One optional part (report.blocks) for one target, as a fitted table."""
    from rich.text import Text

    from leash_tui.report.fit import FitTable, print_fitted
    from leash_tui.safe_text import safe

    rows = block_rows(block, target)
    if not rows:
        return
    table = FitTable(
        _fit_columns(headers(block.columns), groups(block.columns)),
        title=Text(f"{block.title}, {shown(base)} → {shown(target)}"),
    )
    for i, row in enumerate(rows):
        cells = block_cells(block, row)
        last = i + 1 == len(rows) or rows[i + 1]["scope"] != row["scope"]
        table.add_row(safe(cells[0]), *cells[1:], end_section=last)
    print_fitted(console, table)


def _print_series(report: Report, name: str, console: Any) -> None:
    """One training series: per scope, a row per step (the base is step 0)."""
    from rich.text import Text

    from leash_tui.report.fit import FitTable, print_fitted
    from leash_tui.safe_text import safe

    blocks = series_blocks(report.series_of(name))
    title = f"series {shown(name)}: {shown(report.base)} (step 0) → checkpoints"
    table = FitTable(
        _plain_columns(SERIES_HEADERS, left=(0, 2), keys=(0, 1, 2)),
        title=Text(title, style="bold"),
    )
    for block in blocks:
        for j, (row, _) in enumerate(block):
            cells = series_cells(row, j == 0)
            style = "bold" if row["scope"] == "overall" else ""
            table.add_row(safe(cells[0], style), *cells[1:], end_section=j + 1 == len(block))
    print_fitted(console, table)
    if report.series_curves is None:
        return
    curves = FitTable(
        _plain_columns(SERIES_CURVE_HEADERS, left=(0,), keys=(0, 1, 2)),
        title=Text(f"budget curves per step, series {shown(name)}"),
    )
    for block in blocks:
        for j, (row, curve) in enumerate(block):
            points = curve or []
            for i, point in enumerate(points):
                cells = series_curve_cells(row, point, j == 0 and i == 0)
                curves.add_row(safe(cells[0]), *cells[1:], end_section=i + 1 == len(points))
    print_fitted(console, curves)


_BY_NAME: dict[str, Callable[[Report], str]] = {
    "json": render_json,
    "csv": render_csv,
    "markdown": render_markdown,
    "latex": render_latex,
    "table": render_table,
}
#: one renderer per name of report.formats.FORMATS, in that order
RENDERERS: dict[str, Callable[[Report], str]] = {name: _BY_NAME[name] for name in FORMATS}
