"""A report as one document of sections, which every format walks (report.write_people, write_data).

A ``Section`` is one table of the report: a key (its JSON key and the ``row`` value of
its CSV lines), titles, its columns from the one column table (``report.columns``:
header, format, group, width rule, JSON key, CSV names), its rows and a note. A row
holds its raw values (what JSON writes and CSV flattens) and its cells for people
(label first), and names the chapter it stands in: a pair (base → target), a training
series, the models' table. The formats for people (table, Markdown, LaTeX) show, chapter
by chapter, each section's rows of that chapter; the formats for scripts (JSON, CSV)
write each section whole. A section may be the ``detail`` of another (a budget curve is
the detail of a summary row): the formats for people show it as a table of its own,
JSON nests each row's detail under the detail's key, CSV writes it under its row.

Titles are templates per format (the formats were written apart and say the same thing
in their own words): ``{base}``, ``{target}`` and ``{name}`` are filled with the
chapter's names escaped for the format.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from leash_tui.report.columns import ReportColumn

PEOPLE = ("table", "markdown", "latex")
DATA = ("json", "csv")
EVERY_FORMAT = (*PEOPLE, *DATA)


@dataclass(frozen=True)
class Titles:
    """A section's title in each format for people (a ``str.format`` template each)."""

    table: str
    markdown: str
    latex: str

    @classmethod
    def same(cls, text: str) -> Titles:
        return cls(text, text, text)


@dataclass
class Row:
    """One row: raw values by JSON key, its label for people, and where it stands.

    Its cells for people are its columns' values formatted (``ReportColumn.cell``);
    ``ids`` are CSV cells naming a detail row (its parent row's names), kept out of its
    JSON; ``group`` rows stand together (a rule between groups); ``strong`` rows are the
    overall ones (bold); ``blank_in`` names the formats that leave its label blank
    (it continues the row above: a curve's later points); ``details`` are its rows of
    the section's detail.
    """

    values: dict[str, Any]
    label: str = ""
    chapter: str = ""
    group: str = ""
    strong: bool = False
    blank_in: tuple[str, ...] = ()
    sparse: bool = False  # columns its values lack are blank (not an en dash)
    ids: dict[str, Any] = field(default_factory=dict)
    details: list[Row] = field(default_factory=list)

    def merged(self) -> dict[str, Any]:
        """Its names and values together (what its columns read)."""
        return {**self.ids, **self.values} if self.ids else self.values

    def cells(self, columns: list[ReportColumn], fmt: str) -> list[str]:
        """The label (in ``fmt``), then each of ``columns`` formatted for people."""
        values = self.merged()
        label = "" if fmt in self.blank_in else self.label
        cells = ["" if self.sparse and c.key not in values else c.cell(values) for c in columns]
        return [label, *cells]


@dataclass
class Section:
    """One table of a report (see the module docstring).

    ``columns`` are every column of its rows: those with a header are the tables', the
    others CSV only. ``label`` is the header of the label column (``table_label`` in the
    terminal, where it differs); ``level`` 1 is a chapter's main table (a bold title,
    a ``##`` heading); ``note`` writes the text under a chapter's table from its rows;
    ``formats`` says which formats show the section; ``csv_tag`` is the ``row`` value of
    its CSV lines (default: its key); ``bold_markdown`` bolds strong rows in Markdown too.
    """

    key: str
    titles: Titles
    columns: tuple[ReportColumn, ...]
    rows: list[Row] = field(default_factory=list)
    label: str = ""
    table_label: str | None = None
    level: int = 2
    note: Callable[[list[dict[str, Any]]], str] | None = None
    formats: tuple[str, ...] = EVERY_FORMAT
    csv_tag: str | None = None
    bold_markdown: bool = False
    detail: Section | None = None

    def shows(self, fmt: str) -> bool:
        return fmt in self.formats

    def tag(self) -> str:
        return self.key if self.csv_tag is None else self.csv_tag

    def shown_columns(self, rows: list[Row]) -> list[ReportColumn]:
        """The columns the tables show for ``rows``: those with a header, less the
        optional ones none of ``rows`` has."""
        return [
            c
            for c in self.columns
            if c.header is not None
            and (not c.optional or any(c.value(row.merged()) is not None for row in rows))
        ]

    def headers(self, columns: list[ReportColumn]) -> tuple[str, ...]:
        """The label's header, then each of ``columns``'."""
        return (self.label, *(c.header or "" for c in columns))

    def rows_of(self, chapter: str) -> list[Row]:
        return [row for row in self.rows if row.chapter == chapter]


@dataclass(frozen=True)
class Chapter:
    """What the formats for people show together, with the names its titles use."""

    key: str
    names: Mapping[str, str]


@dataclass
class Document:
    """A report: its chapters and sections, and what the scripts' formats add.

    ``json_head`` opens the JSON document (its ``format``); ``json_order`` ranks sections
    by key for JSON (the order of a contract's keys, where it differs from the sections'
    order; unranked keys keep their place, rank 0); ``csv_cell`` turns a raw value into a
    CSV cell; ``json_extra`` are keys JSON writes and no other format shows, each after
    the sections of lower rank; ``preamble`` opens the LaTeX file.
    """

    chapters: list[Chapter]
    sections: list[Section]
    json_head: dict[str, Any] = field(default_factory=dict)
    json_extra: dict[str, tuple[int, Any]] = field(default_factory=dict)
    json_order: Mapping[str, int] = field(default_factory=dict)
    csv_cell: Callable[[Any], Any] = str
    preamble: list[str] = field(default_factory=list)

    def parts(self, fmt: str) -> Iterator[tuple[Chapter, Section, list[Row]]]:
        """(chapter, section, its rows in the chapter) in reading order, for people: per
        chapter each section that has rows there, its detail right after it."""
        for chapter in self.chapters:
            for section in self.sections:
                for part in (section, section.detail):
                    if part is None or not part.shows(fmt):
                        continue
                    rows = part.rows_of(chapter.key)
                    if rows:
                        yield chapter, part, rows


def terminal_listing(
    key: str, title: str, columns: tuple[ReportColumn, ...], label: str, caption: str | None
) -> Section:
    """A section for the terminal only: ``title`` in bold, ``caption`` under it, the rows'
    label under ``label`` (a listing such as the witnesses or the losses)."""
    return Section(
        key,
        Titles.same(title),
        columns,
        label=label,
        level=1,
        note=(lambda rows: caption) if caption else None,
        formats=("table",),
    )
