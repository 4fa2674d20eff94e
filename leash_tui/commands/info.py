"""``leash info``: print what a results folder holds (rich tables, or JSON with --json)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from leash_tui.report.fit import FitColumn, FitTable, console_for, print_fitted
from leash_tui.safe_text import one_line

#: Every table below keeps names and counts whole: too wide for the terminal, it is split
#: or stacked (report.fit), never cut.
LEFT = "left"


def _sampling_text(sampling: dict[str, Any]) -> str:
    if not sampling:
        return "–"
    return ", ".join(f"{k}={one_line(str(v), 4096)}" for k, v in sampling.items())


def _table(title: str, *columns: FitColumn) -> FitTable:
    from rich import box

    return FitTable(
        columns,
        title=Text(title, style="bold"),
        title_justify=LEFT,
        box=box.HEAVY_HEAD,
        show_edge=False,
    )


def render_info(info: dict[str, Any], console: Console) -> None:
    """Print the description from report.info.describe_results as tables."""
    title = Text(f"{one_line(info['folder'], 100)}  ", style="bold")
    title.append(info["format"], style="dim")
    if info["synthetic"]:
        title.append("  SYNTHETIC DATA", style="bold yellow")
    console.print(title)
    console.print(
        Text(
            f"created {info['created'] or 'unknown'}; "
            + ", ".join(f"{k} {v}" for k, v in info["tool_versions"].items()),
            style="dim",
        )
    )

    models = _table(
        "Models",
        FitColumn("model", LEFT, key=True),
        FitColumn("role", LEFT),
        FitColumn("source", LEFT, wrap=True, group=1),
        FitColumn("sampling", LEFT, wrap=True, group=1),
    )
    for m in info["models"]:
        models.add_row(
            Text(one_line(m["name"])),
            Text(m["role"]),
            Text(one_line(m["source"] or "–", 4096)),
            Text(_sampling_text(m["sampling"])),
        )
    print_fitted(console, models)

    benches = _table(
        "Benchmarks",
        FitColumn("benchmark", LEFT, key=True),
        FitColumn("domain", LEFT),
        FitColumn("verifier", LEFT),
        FitColumn("questions"),
        FitColumn("source", LEFT, wrap=True, group=1),
    )
    for b in info["benchmarks"]:
        benches.add_row(
            Text(one_line(b["name"])),
            Text(one_line(b["domain"])),
            Text(one_line(b["verifier"])),
            f"{b['questions']:,}",
            Text(one_line(b["source"] or "–", 4096)),
        )
    print_fitted(console, benches)
    render_gold_sources(info.get("gold_sources", []), console)

    samples = _table(
        "Samples",
        FitColumn("model", LEFT, key=True),
        FitColumn("benchmark", LEFT, key=True),
        *(FitColumn(h) for h in ("quest.", "per q", "samples")),
        *(FitColumn(h, group=1) for h in ("verified", "correct", "no ans", "t/o", "err")),
    )
    for s in info["samples"]:
        lo, hi = s["samples_per_question"]
        samples.add_row(
            Text(one_line(s["model"])),
            Text(one_line(s["benchmark"])),
            f"{s['questions']:,}",
            f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}",
            f"{s['n']:,}",
            f"{s['n_verified']:,}",
            f"{s['n_correct']:,}",
            f"{s['n_no_answer']:,}",
            f"{s['n_timeout']:,}",
            f"{s['n_error']:,}",
        )
    print_fitted(console, samples)
    render_series(info.get("series", []), console)
    render_agreement(info.get("grading_agreement", []), console)
    render_missing(info.get("missing_questions", []), console)
    for note in info.get("format_effects", []):
        console.print(Text(f"warning: {note}", style="yellow"))
    if info.get("grader_note"):
        console.print(Text(f"warning: {info['grader_note']}", style="yellow"))
    for note in info.get("coverage", []):
        console.print(Text(f"warning: {note}", style="yellow"))
    totals = info["totals"]
    line = f"{totals['samples']:,} samples in {info['shards']:,} shard(s)"
    line += f", {totals['verified']:,} verified"
    if totals["unverified"]:
        line += f"; {totals['unverified']:,} not yet verified (run: leash verify)"
    if totals.get("no_gold"):
        line += (
            f"; {totals['no_gold']:,} samples of questions without a gold answer (no_gold),"
            " left out of P/E/S/O"
        )
    if totals.get("trusted_source_verdicts"):
        line += (
            f"; {totals['trusted_source_verdicts']:,} verdicts are the source's, not leash's"
            " (--trust-verdicts: questions without a gold)"
        )
    if info.get("shards_without_summary"):
        line += (
            f"; {info['shards_without_summary']} shard(s) without stored counts (written by"
            " another tool or an older leash): reports and the explorer scan them"
        )
    stale = info.get("shards_not_indexed")
    if info["shards"] and (stale or (stale is None and info["shards"] >= INDEX_NOTE_FROM)):
        what = "no shard index" if stale is None else f"{stale:,} shard(s) not in the shard index"
        line += f"; {what}: opens read their footers (leash compact --index-only mends it)"
    console.print(line)


#: a folder without a shard index gets a note from this many shards on (fewer open fast)
INDEX_NOTE_FROM = 64


def render_series(series: list[dict[str, Any]], console: Console) -> None:
    """One line per training series (targets NAME@STEP): its steps, the base as step 0."""
    for run in series:
        if run.get("error"):
            console.print(Text(f"warning: {one_line(run['error'])}", style="yellow"))
            continue
        steps = ", ".join(
            f"{step:,} ({one_line(model)})"
            for step, model in zip(run["steps"], run["models"], strict=True)
        )
        console.print(Text(f"series {one_line(run['name'])}: steps {steps}"))


def render_gold_sources(rows: list[dict[str, Any]], console: Console) -> None:
    """Where the golds came from, when any did not come from a gold field."""
    if all(row["source"] == "gold field" for row in rows):
        return
    table = _table(
        "Gold answers",
        FitColumn("benchmark", LEFT, key=True),
        FitColumn("taken from", LEFT, wrap=True, group=1),
        FitColumn("questions"),
    )
    for row in rows:
        table.add_row(
            Text(one_line(row["benchmark"])),
            Text(one_line(row["source"], 4096)),
            f"{row['questions']:,}",
        )
    print_fitted(console, table)


def render_agreement(rows: list[dict[str, Any]], console: Console) -> None:
    """The per-model comparison of leash's verdicts with imported source verdicts."""
    if not rows:
        return
    table = _table(
        "Grading: leash vs source verdicts",
        FitColumn("model", LEFT, key=True),
        *(FitColumn(h) for h in ("by source", "compared", "differ", "rate")),
        *(FitColumn(h, group=1) for h in ("only leash ✓", "only source ✓")),
    )
    for row in rows:
        rate = "–" if row["differ_rate"] is None else f"{100 * row['differ_rate']:.1f}%"
        table.add_row(
            Text(one_line(row["model"])),
            f"{row['with_source_verdict']:,}",
            f"{row['compared']:,}",
            f"{row['differ']:,}",
            rate,
            f"{row['leash_correct_source_incorrect']:,}",
            f"{row['leash_incorrect_source_correct']:,}",
        )
    print_fitted(console, table)
    if any(row["compared"] < row["with_source_verdict"] for row in rows):
        console.print(
            Text("samples without a leash verdict are not compared (run: leash verify)", "dim")
        )


def render_missing(pairs: list[dict[str, Any]], console: Console, shown: int = 8) -> None:
    """Warn, by name, about questions one model of a pair has and the other lacks."""
    for pair in pairs:
        base, target = pair["base"], pair["target"]
        for has, lacks, names in (
            (base, target, pair["only_base"]),
            (target, base, pair["only_target"]),
        ):
            if not names:
                continue
            listed = ", ".join(one_line(n, 40) for n in names[:shown])
            if len(names) > shown:
                listed += f" … and {len(names) - shown} more (--json lists all)"
            console.print(
                Text(
                    f"warning: {len(names)} question(s) have samples of {one_line(has)} but none"
                    f" of {one_line(lacks)}, and are left out of {one_line(base)} vs"
                    f" {one_line(target)}: {listed}",
                    style="yellow",
                )
            )


@click.command("info")
@click.argument("results", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the description as JSON.")
def info(results: Path, as_json: bool) -> None:
    """Describe RESULTS: format, models and roles, benchmarks and domains, sample counts."""
    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe

    skip_pandas_probe()
    from leash_tui.report.info import describe_results
    from sampler.store import ResultsFolder

    description = describe_results(ResultsFolder.open(results))
    if as_json:
        click.echo(json.dumps(description, indent=2, ensure_ascii=True))
        return
    render_info(description, console_for(sys.stdout))
