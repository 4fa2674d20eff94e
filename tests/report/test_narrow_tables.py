"""`leash report` and `leash info` at 80 columns and narrower: every scope name in full and
every count shown; too wide a table is split or stacked, never cut; a pipe gets full width."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from leash_tui.cli import cli
from leash_tui.commands.info import render_info
from leash_tui.report.build import build_report
from leash_tui.report.cells import COUNTS, HEADERS, fmt_count, row_label
from leash_tui.report.data import load_report_data
from leash_tui.report.fit import console_for
from leash_tui.report.info import describe_results
from leash_tui.report.render import render_table
from sampler.store.folder import ResultsFolder
from tests.support.folder_builders import build_folder, counts_spec

BENCHES = ("olympiadbench_physics_en_comp", "minerva_math")
BASE, TARGET = "Qwen2.5-Math-1.5B-base", "Qwen2.5-Math-1.5B-rlvr-step500"
DOMAINS = {BENCHES[0]: "physics-competition", BENCHES[1]: "math"}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def folder(tmp_path):
    spec = {}
    for b, bench in enumerate(BENCHES):
        for q in range(12):
            base, target = (q * 5 + b) % 9, (q * 7 + b) % 9
            spec[(bench, str(q))] = {BASE: counts_spec(base, 8), TARGET: counts_spec(target, 8)}
    return build_folder(tmp_path / "results", spec, base=BASE, targets=(TARGET,), domains=DOMAINS)


def built_report(folder):
    return build_report(load_report_data(folder, use_cache=False))


def fitted_rows(folder, width: int):
    """The table at ``width`` (never wider, nothing cut with "…") and (label, row) of the
    target's rows."""
    report = built_report(folder)
    text = render_table(report, width=width)
    assert max(cell_len(line) for line in lines_of(text)) <= width
    assert "…" not in text
    return text, [(row_label(row), row) for row, _ in report.rows_of(TARGET)]


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def counts_shown(text: str, label: str) -> list[list[str]]:
    """The number cells on the lines that start with ``label`` (one list per line)."""
    lines = [line.strip() for line in lines_of(text)]
    return [line.split()[len(label.split()) :] for line in lines if line.startswith(label)]


@pytest.mark.parametrize("width", [80, 100])
def test_report_fits_the_width_with_every_name_and_count(folder, width):
    text, rows = fitted_rows(folder, width)
    for label, row in rows:
        assert re.search(rf"^\s*{re.escape(label)}(\s|$)", text, re.M), label
        counts = [fmt_count(row[c]) for c in COUNTS]
        # the P E S O counts of the row appear, in order, on a line naming it
        shown = counts_shown(text, label)
        assert any(" ".join(counts) in " ".join(cells) for cells in shown), (label, counts)


@pytest.mark.parametrize("width", [60, 44])
def test_report_narrower_than_a_part_stacks_rows_as_records(folder, width):
    text, rows = fitted_rows(folder, width)
    for label, row in rows:
        # the name on a line of its own, its counts on the next
        counts = r"\s+".join(f"{c} {fmt_count(row[c])}" for c in COUNTS)
        assert re.search(rf"^{re.escape(label)}\n.*{counts}", text, re.M), label


def test_report_to_a_pipe_is_one_table_at_full_width(folder):
    result = CliRunner().invoke(cli, ["report", str(folder)])
    assert result.exit_code == 0, result.output
    header = next(line for line in lines_of(result.output) if " SRR " in line)
    assert all(h in header for h in HEADERS[1:])  # every column on one line: not split
    assert "(1/" not in result.output and "…" not in result.output
    assert BENCHES[0] in result.output


@pytest.mark.parametrize("width", [80, 50])
def test_info_fits_the_width_with_every_name_and_count(folder, width):
    description = describe_results(ResultsFolder.open(folder))
    console = console_for(io.StringIO())
    console.width = width
    render_info(description, console)
    text = console.file.getvalue()
    assert max(cell_len(line) for line in lines_of(text)) <= width
    assert "…" not in text
    for name in (*BENCHES, BASE, TARGET):
        assert name in text
    for entry in description["samples"]:
        assert f"{entry['n_correct']:,}" in text and f"{entry['n']:,}" in text


def test_info_to_a_pipe_shows_long_sources_and_sampling_whole(folder):
    import json

    manifest = json.loads((folder / "manifest.json").read_text())
    source = "qwen-eval: /data/evals/prime-qwen-eval-run-2025-07-14/outputs/" + "x" * 60
    manifest["models"][0]["source"] = source
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(cli, ["info", str(folder)])  # not a terminal: a pipe
    assert result.exit_code == 0, result.output
    assert source in result.output and "…" not in result.output


def test_report_notes_come_after_the_table(tmp_path):
    spec = {("b", "1"): {"base": "C I", "rlvr": "C ?"}, ("b", "2"): {"base": "C", "rlvr": "I"}}
    root = build_folder(tmp_path / "notes", spec)
    result = CliRunner().invoke(cli, ["report", str(root)])
    assert result.exit_code == 0, result.output
    assert "not verified yet" in result.stderr and "note:" not in result.stdout
    output = result.output  # both streams, in the order written
    assert output.index(" SRR ") < output.index("note:")
