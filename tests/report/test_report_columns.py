"""The column registry and the format list are the one source the renderers and the CLI use."""

from __future__ import annotations

import csv
import io

from leash_tui.commands.report import report as report_command
from leash_tui.explorer.widgets.summary_pane import COLUMNS as PANE_COLUMNS
from leash_tui.report.build import build_report
from leash_tui.report.columns import (
    SUMMARY,
    ReportColumn,
    csv_names,
    default_columns,
    headers,
    pane_columns,
)
from leash_tui.report.data import load_report_data
from leash_tui.report.formats import FORMATS
from leash_tui.report.render import RENDERERS, render_csv, render_markdown
from tests.support.folder_builders import build_folder

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C"},
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7"},
}


def _report(tmp_path, monkeypatch, **options):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))
    folder = build_folder(tmp_path / "results", SPEC)
    return build_report(load_report_data(folder, use_cache=False), **options)


def test_formats_are_one_list():
    choice = next(p for p in report_command.params if p.name == "fmt")
    assert tuple(choice.type.choices) == FORMATS
    assert tuple(RENDERERS) == FORMATS


def test_csv_header_is_the_registry(tmp_path, monkeypatch):
    text = render_csv(_report(tmp_path, monkeypatch))
    header = next(csv.reader(io.StringIO(text)))
    assert tuple(header) == csv_names(default_columns())
    assert "pass@k_target" in header and "sign_test_p" in header
    assert "NSCR_ci_lo" not in header  # optional columns only when asked for


def test_intervals_add_their_columns_everywhere(tmp_path, monkeypatch):
    report = _report(tmp_path, monkeypatch, bootstrap=200)
    header = next(csv.reader(io.StringIO(render_csv(report))))
    # every column but those of other options (--support-threshold; --risk folders' bound)
    others = ("support_threshold", "misclassified_bound")
    assert tuple(header) == csv_names(tuple(c for c in SUMMARY if c.key not in others))
    assert "misclassified_bound" not in header  # a folder sampled without --risk has no bound
    assert {"ci_level", "NSCR_ci_lo", "NSCR_ci_hi", "pass@k_diff_ci_hi"} <= set(header)
    text = render_markdown(report)
    head = next(line for line in text.splitlines() if line.startswith("| "))
    assert "NSCR CI" in head and "Δpass@k CI" in head
    assert "paired bootstrap over questions (200 resamples" in text


def test_markdown_header_is_the_registry(tmp_path, monkeypatch):
    text = render_markdown(_report(tmp_path, monkeypatch))
    head = next(line for line in text.splitlines() if line.startswith("| "))
    assert [c.strip() for c in head.strip("|").split("|")] == list(headers(default_columns()))


def test_pane_takes_its_columns_from_the_registry():
    assert [key for key, _ in PANE_COLUMNS[1:]] == [c.key for c, _ in pane_columns()]
    ranked = [c for c in SUMMARY if c.pane is not None]
    assert {c.key for c in ranked} == {key for key, _ in PANE_COLUMNS[1:]}
    assert PANE_COLUMNS[1][0] == "N"  # what decides triage comes first


def test_a_column_formats_its_kind():
    row = {"x": {"base": 0.25, "target": None}, "ci": {"NSCR": [-0.5, 0.125]}}
    pair = ReportColumn("x", "x", "pair")
    assert pair.cell(row) == "0.250 → –"
    assert pair.csv_values(row) == {"x_base": 0.25, "x_target": None}
    interval = ReportColumn("ci.NSCR", "NSCR CI", "interval")
    assert interval.cell(row) == "[-0.500, 0.125]"
    assert interval.csv_values(row) == {"ci.NSCR_lo": -0.5, "ci.NSCR_hi": 0.125}
    assert interval.cell({}) == "–"
