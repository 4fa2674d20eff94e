"""``leash perplexity RESULTS --traces FILE.jsonl|reference --model NAME=PATH``.

Scores each trace under each model by teacher forcing (sampler.scoring.trace_perplexity) and
stores token count and mean NLL per (trace, model) in ``perplexity.parquet``; ``leash
report`` then shows perplexity per benchmark, category and source.
"""

from __future__ import annotations

from pathlib import Path

import click

from leash_tui.commands.shared.teacher_forcing_options import engine_options, model_option


@click.command("perplexity")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--traces",
    required=True,
    metavar="FILE.jsonl|reference",
    help="JSON Lines with benchmark, question_id, source, text; or 'reference' for the"
    " questions' reference solutions.",
)
@model_option("A model of the folder and its checkpoint (repeatable), e.g. base=Qwen/Qwen2.5-1.5B.")
@engine_options
@click.option(
    "--gpu-memory-utilization",
    type=float,
    default=0.9,
    show_default=True,
    help="Share of GPU memory for vLLM (--engine vllm).",
)
@click.option("--enforce-eager", is_flag=True, help="No CUDA graphs (--engine vllm).")
def perplexity(
    results: Path,
    traces: str,
    models: tuple[str, ...],
    engine: str,
    dtype: str,
    device: str | None,
    template: str,
    gpu_memory_utilization: float,
    enforce_eager: bool,
) -> None:
    """Perplexity of reference traces under each model (prompt as sampled, no end token).

    Engines: hf (transformers) or vllm (its prompt log-probabilities).

    Resumable: (trace, model) pairs already scored are skipped.
    """
    from leash_tui.commands.shared.teacher_forcing_options import model_progress, parse_models
    from sampler.scoring.trace_perplexity import score_traces
    from sampler.store import ResultsFolder

    chosen = parse_models(models)
    progress, report = model_progress("perplexity")
    try:
        scored = score_traces(
            ResultsFolder.open(results),
            traces,
            chosen,
            engine=engine,
            dtype=dtype,
            device=device,
            fallback_template=template,
            progress=report,
            gpu_memory_utilization=gpu_memory_utilization,
            enforce_eager=enforce_eager,
        )
    finally:
        progress.stop()
    for name, count in scored.items():
        click.echo(f"{name}: {count:,} trace(s) scored", err=True)
