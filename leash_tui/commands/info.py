"""``leash info``: print what a results folder holds (rich tables, or JSON with --json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from leash_tui.safe_text import one_line


def _sampling_text(sampling: dict[str, Any]) -> str:
    if not sampling:
        return "–"
    return ", ".join(f"{k}={one_line(str(v), 40)}" for k, v in sampling.items())


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

    models = Table(title="Models", title_justify="left", show_edge=False)
    for col in ("model", "role", "source", "sampling"):
        models.add_column(col)
    for m in info["models"]:
        models.add_row(
            Text(one_line(m["name"])),
            Text(m["role"]),
            Text(one_line(m["source"] or "–", 50)),
            Text(_sampling_text(m["sampling"])),
        )
    console.print(models)

    benches = Table(title="Benchmarks", title_justify="left", show_edge=False)
    for col in ("benchmark", "domain", "verifier", "questions", "source"):
        benches.add_column(col, justify="right" if col == "questions" else "left")
    for b in info["benchmarks"]:
        benches.add_row(
            Text(one_line(b["name"])),
            Text(one_line(b["domain"])),
            Text(one_line(b["verifier"])),
            f"{b['questions']:,}",
            Text(one_line(b["source"] or "–", 60)),
        )
    console.print(benches)

    samples = Table(title="Samples", title_justify="left", show_edge=False)
    headers = (
        "model",
        "benchmark",
        "quest.",
        "per q",
        "samples",
        "verified",
        "correct",
        "no ans",
        "t/o",
        "err",
    )
    for col in headers:
        if col in ("model", "benchmark"):
            widest = max((len(one_line(s[col])) for s in info["samples"]), default=5)
            samples.add_column(col, min_width=min(widest, 24))
        else:
            samples.add_column(col, justify="right", no_wrap=True)
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
    console.print(samples)
    render_agreement(info.get("grading_agreement", []), console)
    render_missing(info.get("missing_questions", []), console)
    totals = info["totals"]
    line = f"{totals['samples']:,} samples in {info['shards']} shard(s)"
    line += f", {totals['verified']:,} verified"
    if totals["unverified"]:
        line += f"; {totals['unverified']:,} not yet verified (run: leash verify)"
    if info.get("shards_without_summary"):
        line += (
            f"; {info['shards_without_summary']} shard(s) without stored counts (written by"
            " another tool or an older leash): reports and the explorer scan them"
        )
    console.print(line)


def render_agreement(rows: list[dict[str, Any]], console: Console) -> None:
    """The per-model comparison of leash's verdicts with imported source verdicts."""
    if not rows:
        return
    table = Table(title="Grading: leash vs source verdicts", title_justify="left", show_edge=False)
    widest = max(len(one_line(row["model"])) for row in rows)
    table.add_column("model", min_width=min(widest, 24))
    for col in ("by source", "compared", "differ", "rate", "only leash ✓", "only source ✓"):
        table.add_column(col, justify="right", no_wrap=True)
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
    console.print(table)
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
    from leash_tui.commands.pandas_probe import skip_pandas_probe

    skip_pandas_probe()
    from leash_tui.report.info import describe_results
    from sampler.store.reader import Results

    description = describe_results(Results.open(results))
    if as_json:
        click.echo(json.dumps(description, indent=2, ensure_ascii=True))
        return
    render_info(description, Console(highlight=False))
