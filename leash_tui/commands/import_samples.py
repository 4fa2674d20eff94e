"""``leash import``: the CLI face of sampler.importers (interchange JSONL, evaluation outputs)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from leash_tui.commands.shared.options import output_option
from leash_tui.safe_text import one_line, visible
from sampler.importers.format_table import FORMATS


@click.command("import")
@click.argument("sources", nargs=-1, required=True, metavar="[MODEL=]PATH...")
@click.option(
    "--from",
    "fmt",
    type=click.Choice(list(FORMATS)),
    default="jsonl",
    show_default=True,
    help="Format of the input.",
)
@click.option(
    "--base",
    "base",
    metavar="MODEL",
    help="The base model (required for a new folder; verl: MODEL@0 when there is a step 0).",
)
@output_option("Results folder to create or extend.", required=True)
@click.option(
    "--bench",
    "benches",
    multiple=True,
    metavar="NAME[=SPEC]",
    help="NAME: the benchmark of all inputs of an evaluation output (default: from folder or"
    " file names). NAME=[VERIFIER:]PATH or NAME=reasoning-gym:TASK:SIZE:SEED: take that"
    " benchmark's questions and verifier from the spec (repeatable).",
)
@click.option(
    "--gold-from",
    "gold_from",
    multiple=True,
    metavar="BENCH=SPEC",
    help="Join the golds of a benchmark file (SPEC as for --bench) to BENCH's imported"
    " questions by problem text, for formats that log no gold (TRL); questions left"
    " without one are named (repeatable).",
)
@click.option(
    "--source-metric",
    metavar="NAME",
    help="lighteval / lm-eval: the metric whose score is the source's verdict; verl: the"
    " field (default acc, else score); trl: the reward column (default accuracy_reward).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="A field the sample format does not define is an error (default: a warning).",
)
@click.option(
    "--trust-verdicts",
    is_flag=True,
    help="Keep the source's verdict as the verdict of samples whose question has no gold"
    " (leash cannot grade them); reports count them apart.",
)
@click.option(
    "--skip-bad-records",
    is_flag=True,
    help="Skip a record that cannot be read (a truncated line of a killed run, a record"
    " missing a field) instead of refusing the import; skipped records are counted by file"
    " and reason in the summary and the manifest's notes.",
)
def import_(
    sources: tuple[str, ...],
    fmt: str,
    base: str | None,
    output: Path,
    benches: tuple[str, ...],
    source_metric: str | None,
    gold_from: tuple[str, ...],
    strict: bool,
    trust_verdicts: bool,
    skip_bad_records: bool,
) -> None:
    """Build or extend a results folder from samples made elsewhere.

    \b
    --from jsonl      FILE.jsonl ...      interchange JSONL; each line names its model
    --from qwen-eval  MODEL=OUTPUT_DIR    Qwen2.5-Math evaluation harness (--save_outputs)
    --from lighteval  MODEL=DETAILS_DIR   lighteval --save-details Parquet files
    --from lm-eval    MODEL=OUTPUT_DIR    lm-evaluation-harness --log_samples JSONL
    --from verl       MODEL=DUMP_DIR      verl validation/rollout dumps: MODEL@STEP each
                                          (MODEL@0 the base); or main_generation Parquet
    --from trl        MODEL=COMPLETIONS   TRL GRPOTrainer log_completions Parquet: MODEL@STEP
    --from nemo-skills MODEL=EVAL_RESULTS NeMo-Skills output-rs<seed>.jsonl, a sample each
    --from skyrl      MODEL=DUMPED_EVALS  SkyRL global_step_<N>_evals: MODEL@N each
    --from nemo-rl    MODEL=SAVE_PATH     NeMo-RL eval evaluation_data.json, or GRPO
                                          val_data_step<N>.jsonl: MODEL@N each
    --from verifiers  MODEL=OUTPUTS       verifiers vf-eval runs: traces.jsonl (0.4),
                                          results.jsonl (before)
    --from prime-rl   MODEL=OUTPUT_DIR    prime-rl rollouts/step_<N> traces: MODEL@N each
                                          (or any traces.jsonl of episodes: MODEL)
    --from inspect    MODEL=LOG.eval      Inspect AI log (needs inspect_ai installed)

    Every record is checked before anything is written: a bad one stops the import
    with its file, line and the field that was expected, and leaves the folder
    unchanged (--skip-bad-records skips it instead, and counts it). Importing into an
    existing folder adds samples and never overwrites
    one already there. A verdict in the input (`correct`, `status`, a harness's
    score) is kept as the source's verdict only; run `leash verify` next to grade
    every sample that has a gold with leash's verifier, so that all models are
    graded alike. Samples whose question has no gold keep the source's verdict as
    their verdict only with --trust-verdicts, and reports say how many counts rest
    on such verdicts.
    """
    from sampler.errors import LeashError
    from sampler.importers.run_import import import_samples, parse_source

    parsed = [parse_source(text) for text in sources]
    specs = [b for b in benches if "=" in b]
    names = [b for b in benches if "=" not in b]
    if len(names) > 1:
        raise LeashError(f"--bench given {len(names)} names; give one (or NAME=SPEC options)")
    summary = import_samples(
        fmt,
        parsed,
        output,
        base=base,
        bench=names[0] if names else None,
        source_metric=source_metric,
        strict=strict,
        specs=specs,
        trust_verdicts=trust_verdicts,
        gold_from=gold_from,
        skip_bad_records=skip_bad_records,
    )
    warnings = Console(stderr=True, highlight=False, markup=False)
    for warning in summary.warnings:
        warnings.print(Text("warning: ", style="bold") + Text(visible(warning)), soft_wrap=True)
    for note in summary.notes:
        warnings.print(Text("note: ", style="bold") + Text(visible(note)), soft_wrap=True)
    console = Console(highlight=False, markup=False)  # the summary is the command's output
    verb = "created" if summary.created else "extended"
    console.print(
        f"{verb} {one_line(str(output))}: {summary.samples:,} samples from {summary.files:,}"
        f" file(s) ({summary.with_verdict:,} with a verdict,"
        f" {summary.with_source_verdict:,} with a source verdict),"
        f" {summary.questions_added:,} new questions"
    )
    if summary.trusted_verdicts:
        console.print(
            f"  {summary.trusted_verdicts:,} source verdicts kept as verdicts"
            " (--trust-verdicts: questions without a gold)"
        )
    for model, count in sorted(summary.models.items()):
        console.print(f"  {one_line(model)}: {count:,} samples")
    for bench_name, count in sorted(summary.benchmarks.items()):
        console.print(f"  benchmark {one_line(bench_name)}: {count:,} samples")
    for skipped in summary.skipped:
        console.print(Text("  skipped: ") + Text(visible(skipped)), soft_wrap=True)
    if summary.with_verdict < summary.samples:
        console.print(f"next: leash verify {one_line(str(output))}")
