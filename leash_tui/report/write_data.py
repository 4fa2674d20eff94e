"""The formats for scripts, each one walk over a report's sections: JSON and CSV.

JSON is the document's head (its ``format``), then each section's rows under its key,
a row's detail nested under the detail's key (numbers unrounded, undefined = null).
CSV is one flat table: a ``row`` column first when the report has more than one kind
of line (its value names the section), then the union of the sections' CSV names in
section order; a row's detail lines follow it (full precision, undefined = empty cell).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from leash_tui.report.columns import ReportColumn, present
from leash_tui.report.sections import Document, Row, Section, Titles
from leash_tui.safe_text import visible


def json_document(document: Document) -> dict[str, Any]:
    """The document as one JSON value: head, sections by key (in the contract's order)."""
    items: list[tuple[int, int, str, Any]] = []
    for i, section in enumerate(s for s in document.sections if s.shows("json")):
        rank = document.json_order.get(section.key, 0)
        items.append((rank, i, section.key, [_json_row(section, row) for row in section.rows]))
    for key, (rank, value) in document.json_extra.items():
        items.append((rank, len(items) + 1_000_000, key, value))
    return {**document.json_head, **{key: value for _, _, key, value in sorted(items)}}


def _json_row(section: Section, row: Row) -> dict[str, Any]:
    if section.detail is None:
        return row.values
    return {**row.values, section.detail.key: [detail.values for detail in row.details]}


def write_json(document: Document, allow_nan: bool = False) -> str:
    text = json.dumps(json_document(document), indent=2, ensure_ascii=False, allow_nan=allow_nan)
    return text + "\n"


def csv_value(value: Any) -> Any:
    """A raw value as a CSV cell: undefined (None, NaN) empty, floats at full precision,
    text from the folder with its control characters made visible."""
    if value is None:
        return ""
    if isinstance(value, str):
        return visible(value, keep_newlines=False)
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    return value


def _data_sections(document: Document) -> list[Section]:
    """The CSV's sections in order, each detail right after its section."""
    out = []
    for section in document.sections:
        if section.shows("csv"):
            out += [section] if section.detail is None else [section, section.detail]
    return out


def csv_names(document: Document) -> list[str]:
    """The CSV header: ``row`` when there is more than one kind of line, then every name."""
    sections = _data_sections(document)
    names = ["row"] if len(sections) > 1 else []
    for section in sections:
        columns = present([row.merged() for row in section.rows], section.columns)
        names += [name for c in columns for name in c.csv_names() if name not in names]
    return names


def _record(section: Section, row: Row, tagged: bool) -> dict[str, Any]:
    values = row.merged()
    record: dict[str, Any] = {}
    for column in section.columns:
        for name, value in column.csv_values(values).items():
            if value is not None or not column.optional:
                record[name] = value
    if tagged and section.tag():
        record["row"] = section.tag()
    return record


def csv_records(document: Document) -> list[dict[str, Any]]:
    """Every CSV line as {name: raw value}, rows followed by their detail lines."""
    tagged = len(_data_sections(document)) > 1
    out = []
    for section in document.sections:
        if not section.shows("csv"):
            continue
        for row in section.rows:
            out.append(_record(section, row, tagged))
            if section.detail is not None:
                out += [_record(section.detail, detail, tagged) for detail in row.details]
    return out


def write_csv(document: Document) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=csv_names(document), lineterminator="\n")
    writer.writeheader()
    for record in csv_records(document):
        writer.writerow({key: document.csv_cell(value) for key, value in record.items()})
    return out.getvalue()


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet opens as text: empty for None, formulas quoted."""
    from leash_tui.safe_text import spreadsheet_safe

    return "" if value is None else spreadsheet_safe(value)


def listing_document(
    head: dict[str, Any],
    key: str,
    records: list[dict[str, Any]],
    columns: Sequence[str],
    lines: list[dict[str, Any]],
    cell: Callable[[Any], Any] = spreadsheet_cell,
) -> Document:
    """A listing's document: JSON ``head`` and ``records`` under ``key``; CSV one line per
    item of ``lines`` in ``columns``, each value written by ``cell`` (default: a
    spreadsheet's text, formulas quoted)."""
    listed = Section(key, Titles.same(""), (), [Row(r) for r in records], formats=("json",))
    flat = tuple(ReportColumn(name, None, "text") for name in columns)
    table = Section("lines", Titles.same(""), flat, [Row(v) for v in lines], formats=("csv",))
    return Document([], [listed, table], json_head=head, csv_cell=cell)
