"""The plain layout for people, one walk per format over a document's sections.

The one-model report's layout (report.model_table): a fixed-width text table under its
title (columns two spaces apart, the label left, numbers right), a Markdown table under
its title in bold (only ``|`` escaped), a LaTeX ``tabular`` between ``\\hline`` rules
with the title as a comment. Each section's rows are its lines; a row may leave the
columns its values lack blank (a curve's point under its row).
"""

from __future__ import annotations

from leash_tui.report.sections import Document, Row, Section
from leash_tui.report.write_people import fill_title, latex_escape


def _lines(section: Section, rows: list[Row], fmt: str) -> tuple[tuple[str, ...], list[list[str]]]:
    columns = section.shown_columns(rows)
    return section.headers(columns), [row.cells(columns, fmt) for row in rows]


def _text(headers: tuple[str, ...], lines: list[list[str]], title: str) -> list[str]:
    widths = [max(len(h), *(len(c[i]) for c in lines)) for i, h in enumerate(headers)]

    def line(cells: list[str] | tuple[str, ...]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    return [title, line(headers), *map(line, lines)]


def _markdown(headers: tuple[str, ...], lines: list[list[str]], title: str) -> list[str]:
    out = [f"**{title}**", "", "| " + " | ".join(headers) + " |"]
    out.append("|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|")
    return out + ["| " + " | ".join(_pipes(c) for c in cells) + " |" for cells in lines]


def _latex(headers: tuple[str, ...], lines: list[list[str]], title: str) -> list[str]:
    out = ["\\begin{tabular}{l" + "r" * (len(headers) - 1) + "}", "\\hline"]
    out.append(" & ".join(map(latex_escape, headers)) + " \\\\ \\hline")
    out += [" & ".join(map(latex_escape, cells)) + " \\\\" for cells in lines]
    return [*out, "\\hline", "\\end{tabular}", f"% {title}"]


def _pipes(text: str) -> str:
    return text.replace("|", "\\|")


_LAYOUTS = {
    "table": (_text, str),
    "markdown": (_markdown, _pipes),
    "latex": (_latex, latex_escape),
}


def write_plain(document: Document, fmt: str) -> str:
    """Every section of ``document`` in ``fmt`` (table, markdown or latex), plain layout."""
    layout, escape = _LAYOUTS[fmt]
    out: list[str] = []
    for chapter, section, rows in document.parts(fmt):
        headers, lines = _lines(section, rows, fmt)
        out += layout(headers, lines, fill_title(section.titles.markdown, chapter, escape))
    return "\n".join(out) + "\n"
