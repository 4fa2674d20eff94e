"""``leash sample --dry-run``: print the plan and the cost of a full and an adaptive run."""

from __future__ import annotations

from typing import Any


def _count(value: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:.3g}{unit}"
    return f"{value:,.0f}"


def _span(least: float, most: float) -> str:
    return _count(least) if least == most else f"{_count(least)} .. {_count(most)}"


def print_dry_run(console: Any, config: Any) -> None:
    """The models, benchmarks, budgets and rounds, then a table of samples and tokens."""
    from rich.table import Table
    from rich.text import Text

    from sampler.sample.adaptive_estimate import estimate_run

    plan, rounds, estimates = estimate_run(config)
    out = console.print
    out(Text(f"dry run: nothing is sampled, {config.output} is not changed"))
    for spec in config.models:
        out(Text(f"model {spec.name} ({spec.role}): {spec.path}, engine {spec.settings.engine}"))
    counts: dict[str, int] = {}
    for bench, _, _ in plan.shard_keys():
        counts[bench.name] = counts.get(bench.name, 0) + 1
    for name, n in counts.items():
        out(Text(f"benchmark {name}: {n:,} questions in shard {config.shard}"))
    rounds_text = ", ".join(f"{b:,}" for b in rounds)
    out(Text(f"k = {config.samples:,}, seed {config.seed}; adaptive rounds: {rounds_text}"))
    table = Table(title="samples and tokens", title_justify="left")
    for col in (
        "model",
        "questions",
        "full samples",
        "full tokens",
        "adaptive samples",
        "adaptive tokens",
        "adaptive / full",
    ):
        table.add_column(col, justify="left" if col == "model" else "right")
    notes = []
    for e in estimates:
        least_t, most_t = e.adaptive_tokens
        # samples whose token counts were never recorded (imported ones) sum to 0 tokens:
        # that is unknown, not free
        unknown = e.tokens_measured and e.tokens_per_sample == 0
        ratio = "-"
        if e.full_samples:
            lo, hi = e.adaptive_least / e.full_samples, e.adaptive_most / e.full_samples
            ratio = f"{lo:.3f}" if lo == hi else f"{lo:.3f} .. {hi:.3f}"
        table.add_row(
            Text(e.model),
            f"{e.questions:,}",
            _count(e.full_samples),
            "unknown" if unknown else _count(e.full_tokens),
            _span(e.adaptive_least, e.adaptive_most),
            "unknown" if unknown else _span(least_t, most_t),
            ratio,
        )
        if unknown:
            basis = "tokens per sample unknown: the folder's samples carry no token counts"
        elif e.tokens_measured:
            basis = f"{e.tokens_per_sample:,.0f} tokens per sample measured on the folder's samples"
        else:
            basis = (
                f"no samples yet: tokens at most max_tokens = {e.tokens_per_sample:,.0f} per sample"
            )
        notes.append(
            f"{e.model}: {e.questions_seen:,} of {e.questions:,} questions have samples,"
            f" {e.successes_seen:,} a verified success; {basis}"
        )
    out(table)
    for note in notes:
        out(Text(note))
    out(
        Text(
            "a range: questions without a verified success yet may stop at the next round or"
            f" draw all k. A pilot  leash sample -k {rounds[0]} -o {config.output}  is the first"
            " adaptive round (kept) and narrows it."
        )
    )
