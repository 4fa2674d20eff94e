"""``leash entropy RESULTS --model NAME=PATH``: exact token entropy by teacher forcing.

Runs sampler.scoring.exact_entropy (the first N samples of each question through the
model, full-vocabulary entropy at every generated position) and stores
``token_entropy_exact`` per sample; reports then use it and say so.
"""

from __future__ import annotations

from pathlib import Path

import click

from leash_tui.commands.shared.teacher_forcing_options import engine_options, model_option


@click.command("entropy")
@click.argument("results", type=click.Path(path_type=Path))
@model_option("A model of the folder and its checkpoint (repeatable), e.g. base=Qwen/Qwen2.5-1.5B.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="First N samples of each question (by sample index), the paper's avg@32.",
)
@click.option(
    "--shard", default=None, metavar="I/N", help="Do a deterministic 1/N of the questions."
)
@engine_options
def entropy(
    results: Path,
    models: tuple[str, ...],
    samples: int,
    shard: str | None,
    engine: str,
    dtype: str,
    device: str | None,
    template: str,
) -> None:
    """Exact token entropy (full vocabulary, teacher forcing) of stored samples.

    Resumable: rerun the same command after an interruption; samples that already
    have a value are skipped. Stored as token_entropy_exact; reports prefer it.
    """
    from leash_tui.commands.shared.teacher_forcing_options import model_progress, parse_models
    from sampler.sample.config import parse_shard
    from sampler.scoring.exact_entropy import exact_entropy
    from sampler.store import ResultsFolder

    chosen = parse_models(models)
    part = parse_shard(shard) if shard else None
    progress, report = model_progress("entropy")
    try:
        summary = exact_entropy(
            ResultsFolder.open(results),
            chosen,
            samples=samples,
            engine=engine,
            shard=(part.index, part.count) if part else (0, 1),
            dtype=dtype,
            device=device,
            fallback_template=template,
            progress=report,
        )
    finally:
        progress.stop()
    for name in chosen:
        click.echo(
            f"{name}: {summary.scored[name]:,} sample(s) scored,"
            f" {summary.skipped[name]:,} already had an exact token entropy",
            err=True,
        )
    for name in summary.fallback_prompt:
        click.echo(
            f"note: {name} has no sampling record in the manifest; its prompts used the"
            f" {template!r} template",
            err=True,
        )
