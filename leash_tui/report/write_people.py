"""The formats for people, each one walk over a report's sections: terminal table, Markdown, LaTeX.

Every writer takes a ``report.sections.Document`` and writes, chapter by chapter, each
section's rows of that chapter under its title (names escaped for the format), its note
under it. The terminal tables fit the console without cutting a name or a number
(report.fit); Markdown tables are GitHub's; LaTeX tables are booktabs tables with the
note in the caption.
"""

from __future__ import annotations

import re
from typing import Any

from leash_tui.report.columns import ARROW, DASH, ReportColumn
from leash_tui.report.sections import Chapter, Document, Row, Section
from leash_tui.safe_text import visible

#: a number as the notes write it (no trailing full stop)
_NUMBER = r"[0-9](?:[0-9.eE+\-]*[0-9])?"


def fill_title(template: str, chapter: Chapter, escape: Any) -> str:
    """``template`` with the chapter's names, made visible and escaped for the format."""
    names = chapter.names.items()
    return template.format(**{k: escape(visible(v, keep_newlines=False)) for k, v in names})


def _ends_group(rows: list[Row], i: int) -> bool:
    return i + 1 == len(rows) or rows[i + 1].group != rows[i].group


# -- terminal ------------------------------------------------------------------------------


def print_document(document: Document, console: Any) -> None:
    """Every section of ``document`` as fitted tables (report.fit), in reading order."""
    for chapter, section, rows in document.parts("table"):
        print_section(section, chapter, rows, console)


def print_section(section: Section, chapter: Chapter, rows: list[Row], console: Any) -> None:
    from rich.text import Text

    from leash_tui.report.fit import FitTable, print_fitted
    from leash_tui.safe_text import safe

    title = fill_title(section.titles.table, chapter, str)
    note = section.note([row.values for row in rows]) if section.note else None
    columns = section.shown_columns(rows)
    table = FitTable(
        fit_columns(section, columns),
        title=Text(title, style="bold" if section.level == 1 else "") if title else None,
        caption=Text(note) if note else None,
    )
    for i, row in enumerate(rows):
        label, *cells = row.cells(columns, "table")
        first = safe(label, "bold" if row.strong else "")
        styled = [safe(cell, c.style) for cell, c in zip(cells, columns, strict=True)]
        table.add_row(first, *styled, end_section=_ends_group(rows, i))
    print_fitted(console, table)


def fit_columns(section: Section, columns: list[ReportColumn]) -> list[Any]:
    """The label column, then each of ``columns`` with its width rule."""
    from leash_tui.report.fit import FitColumn

    label = section.label if section.table_label is None else section.table_label
    return [
        FitColumn(label, justify="left", key=True),
        *(
            FitColumn(c.header or "", justify=c.justify, key=c.names, group=c.group, wrap=c.wrap)
            for c in columns
        ),
    ]


# -- Markdown ------------------------------------------------------------------------------


def md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def md_table(headers: tuple[str, ...], lines: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |"]
    out.append("|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|")
    out += ["| " + " | ".join(cells) + " |" for cells in lines]
    return out


def write_markdown(document: Document) -> str:
    out: list[str] = []
    for chapter, section, rows in document.parts("markdown"):
        heading = "#" * (section.level + 1)
        out.append(f"{heading} {fill_title(section.titles.markdown, chapter, md_escape)}")
        columns = section.shown_columns(rows)
        lines = []
        for row in rows:
            cells = [md_escape(cell) for cell in row.cells(columns, "markdown")]
            if row.strong and section.bold_markdown:
                cells[0] = f"**{cells[0]}**"
            lines.append(cells)
        out += ["", *md_table(section.headers(columns), lines), ""]
        if section.note:
            out += [section.note([row.values for row in rows]), ""]
    return "\n".join(out)


# -- LaTeX ---------------------------------------------------------------------------------

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


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


def _latex_head(header: str) -> str:
    head = latex_escape(header).replace("pass@k", r"pass@$k$").replace("Δ", r"$\Delta$")
    return {"k": r"$k$", "N": r"$N$"}.get(head, head)


def _latex_row(row: Row, columns: list[ReportColumn]) -> str:
    """The label and text cells escaped; en dashes and arrows of the numbers in LaTeX."""
    text = [True, *(c.kind in ("text", "name") for c in columns)]
    cells = [
        latex_escape(cell) if text[i] else cell
        for i, cell in enumerate(row.cells(columns, "latex"))
    ]
    rest = [c.replace(DASH, "--").replace(ARROW, r" $\to$ ") for c in cells[1:]]
    return " & ".join([cells[0], *rest]) + r" \\"


def latex_table(section: Section, rows: list[Row], caption: str) -> list[str]:
    columns = section.shown_columns(rows)
    headers = section.headers(columns)
    out = [
        r"\begin{table}[ht]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{l" + "r" * (len(headers) - 1) + "}",
        r"\toprule",
        " & ".join(map(_latex_head, headers)) + r" \\",
        r"\midrule",
    ]
    for i, row in enumerate(rows):
        if i and row.group != rows[i - 1].group:
            out.append(r"\midrule")
        out.append(_latex_row(row, columns))
    out += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}", ""]
    return out


def write_latex(document: Document) -> str:
    out = list(document.preamble)
    for chapter, section, rows in document.parts("latex"):
        caption = fill_title(section.titles.latex, chapter, latex_escape)
        if section.note:
            caption += " " + latex_note(latex_escape(section.note([row.values for row in rows])))
        out += latex_table(section, rows, caption)
    return "\n".join(out)
