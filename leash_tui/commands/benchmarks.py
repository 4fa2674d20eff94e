"""``leash benchmarks``: list the presets, or load benchmark files and show what was read."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from leash_tui.safe_text import one_line


@click.command("benchmarks")
@click.argument("specs", nargs=-1, metavar="[NAME=[VERIFIER:]PATH]...")
@click.option("--problem-field", help="Field holding the problem (custom files).")
@click.option("--gold-field", help="Field holding the gold answer (custom files).")
@click.option("--id-field", help="Field holding the question id (default: position).")
@click.option(
    "--gold-from-solution", metavar="FIELD", help="Take the gold from the last \\boxed{} of FIELD."
)
@click.option("--domain", help="Domain tag (default: the preset's, or 'math').")
def benchmarks(specs, problem_field, gold_field, id_field, gold_from_solution, domain) -> None:
    """List benchmark presets; with NAME=PATH arguments, load each file and summarise it.

    NAME picks a preset (math500, aime24, aime25, amc23, minerva_math, olympiadbench)
    that knows the file's field quirks; any other NAME uses the generic mapping or
    the --*-field options. PATH may be .jsonl, .json, .parquet, .csv, or
    hf:ORG/NAME[:split] when the `datasets` package is installed.
    """
    from sampler.benchmarks.loading import load_benchmark, parse_bench_spec
    from sampler.benchmarks.presets import PRESETS, custom_mapping
    from sampler.verify.verifiers import verifiers

    console = Console(highlight=False)
    if not specs:
        table = Table(title="Benchmark presets", title_justify="left", show_edge=False)
        table.add_column("name")
        table.add_column("fields and quirks")
        for preset in PRESETS.values():
            table.add_row(preset.name, Text(preset.description))
        console.print(table)
        kinds = Table(title="Verifiers", title_justify="left", show_edge=False)
        kinds.add_column("name")
        kinds.add_column("grades")
        for verifier in verifiers().values():
            kinds.add_row(verifier.name, Text(verifier.description))
        console.print(kinds)
        console.print(
            "use: leash benchmarks NAME=PATH (or NAME=VERIFIER:PATH,"
            " NAME=reasoning-gym:TASK:SIZE:SEED) to check a benchmark loads"
        )
        return
    table = Table(show_edge=False)
    for col in ("benchmark", "domain", "verifier", "questions", "first id", "first gold", "source"):
        table.add_column(col)
    custom = any((problem_field, gold_field, id_field, gold_from_solution))
    warnings: list[str] = []
    for spec in specs:
        name, source = parse_bench_spec(spec, verifiers())
        mapping = None
        if custom:
            preset = PRESETS.get(name)
            mapping = custom_mapping(
                problem_field,
                gold_field,
                id_field,
                gold_from_solution,
                base=preset.mapping if preset else None,
            )
        bench = load_benchmark(name, source, verifiers(), mapping=mapping, domain=domain)
        warnings += bench.warnings
        first = bench.questions[0]
        table.add_row(
            Text(bench.name),
            Text(bench.domain),
            Text(bench.verifier),
            f"{len(bench.questions):,}",
            Text(one_line(first.question_id, 24)),
            Text(one_line(first.gold, 30)),
            Text(one_line(bench.source, 50)),
        )
    console.print(table)
    for warning in warnings:
        Console(stderr=True, highlight=False).print(Text(f"warning: {warning}", style="yellow"))
