"""``leash entropy``: exact token entropy of stored samples by teacher forcing.

For each model given and each question, the first N samples (by sample index; the
paper's avg@32 protocol) are fed back through the model after the prompt they were
sampled on (sampled_prompts), and each sample gets ``token_entropy_exact``: the mean
over its generated positions of H_t = -sum_v p_t(v) ln p_t(v), the full vocabulary.
The positions are those sampling scored: every token of the stored text and, when the
sample ended with the end-of-sequence token (``finish_reason`` = stop), the position
that drew it.

Resumable: the work is grouped by shard; after each group the shard is read again and
rewritten whole with the new values (an atomic rename), holding the folder's shard
rewrite lock (the one ``leash verify`` holds), so neither loses the other's columns.
A rerun skips samples that already have the value. ``shard`` (I/N) takes a
deterministic 1/N of the questions (by a hash of benchmark and id), so N processes can
share a folder.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.errors import LeashError
from sampler.sample.sampled_prompts import sampled_prompt
from sampler.scoring.teacher_forcing import teacher_forcing_engine
from sampler.store import SAMPLE_KEY_COLUMNS, ResultsFolder, as_folder

EXACT_COLUMN = "token_entropy_exact"
_READ = [*SAMPLE_KEY_COLUMNS, "text", "finish_reason", EXACT_COLUMN]
#: a shard is rewritten at least every this many new values (bounds the work a kill loses)
FLUSH_EVERY = 256

Progress = Callable[[str, int, int], None]  # (model, done, total)


@dataclass
class EntropySummary:
    """What one run did, per model: samples scored and samples that already had a value."""

    scored: dict[str, int]
    skipped: dict[str, int]
    fallback_prompt: list[str]


def holds(shard: tuple[int, int], benchmark: str, question_id: str) -> bool:
    """Whether question (benchmark, question_id) belongs to shard I of N (stable hash)."""
    index, count = shard
    return zlib.crc32(f"{benchmark}\x1f{question_id}".encode()) % count == index


def _todo(results: ResultsFolder, model: str, samples: int, shard: tuple[int, int]):
    """Per shard file: the rows of ``model`` among its first ``samples`` samples of each
    question in this shard still without an exact value; and how many already have one."""
    todo: dict[Path, pa.Table] = {}
    done = 0
    for path in results.shard_paths():
        table = results.read_shard(path, _READ, conform=True).select(_READ)
        table = table.filter(
            pc.and_(
                pc.equal(table.column("model"), model), pc.less(table.column("sample"), samples)
            )
        )
        if shard != (0, 1) and table.num_rows:
            keep = [
                holds(shard, b, q)
                for b, q in zip(
                    table.column("benchmark").to_pylist(),
                    table.column("question_id").to_pylist(),
                    strict=True,
                )
            ]
            table = table.filter(pa.array(keep))
        missing = pc.is_null(table.column(EXACT_COLUMN))
        done += table.num_rows - int(pc.sum(missing.cast(pa.int64())).as_py() or 0)
        table = table.filter(missing)
        if table.num_rows:
            todo[path] = table
    return todo, done


def write_values(
    results: ResultsFolder, path: Path, values: Mapping[tuple[str, str, str, int], float]
) -> int:
    """Fill ``token_entropy_exact`` of shard ``path`` for the keyed samples (atomic rewrite
    under the shard rewrite lock; values already present are kept). Returns rows filled."""
    if not values:
        return 0
    with results.locks.rewrite():
        table = results.read_shard(path, conform=True)
        keys = zip(*(table.column(c).to_pylist() for c in SAMPLE_KEY_COLUMNS), strict=True)
        current = table.column(EXACT_COLUMN).to_pylist()
        filled = 0
        for i, key in enumerate(keys):
            if current[i] is None and key in values:
                current[i] = values[key]
                filled += 1
        if filled:
            column = pa.array(current, pa.float64())
            table = table.set_column(
                table.schema.get_field_index(EXACT_COLUMN), EXACT_COLUMN, column
            )
            results.replace_shard(path, table)
        return filled


def exact_entropy(
    folder: ResultsFolder | Path | str,
    models: Mapping[str, str],
    samples: int = 32,
    engine: str = "hf",
    shard: tuple[int, int] = (0, 1),
    dtype: str = "auto",
    device: str | None = None,
    fallback_template: str = "boxed",
    progress: Progress | None = None,
) -> EntropySummary:
    """Compute and store the exact token entropy of the first ``samples`` samples per
    question of each model in ``models`` (name -> checkpoint path)."""
    results = as_folder(folder)
    root = results.root
    manifest = results.manifest
    for name in models:
        if manifest.model(name) is None:
            known = ", ".join(m.name for m in manifest.models) or "none"
            raise LeashError(f"--model {name}: no such model in {root} (models: {known})")
    problems = {
        (b, q): p
        for b, q, p in zip(
            results.questions.column("benchmark").to_pylist(),
            results.questions.column("question_id").to_pylist(),
            results.questions.column("problem").to_pylist(),
            strict=True,
        )
    }
    summary = EntropySummary({}, {}, [])
    for name, path in models.items():
        todo, already = _todo(results, name, samples, shard)
        total = sum(t.num_rows for t in todo.values())
        summary.skipped[name], summary.scored[name] = already, 0
        if progress:
            progress(name, 0, total)
        if not total:
            continue
        scorer = teacher_forcing_engine(engine, path, dtype=dtype, device=device)
        scorer.start()
        try:
            recipe = sampled_prompt(manifest.model(name), scorer.tokenizer, fallback_template)
            if not recipe.recorded:
                summary.fallback_prompt.append(name)
            prompts: dict[tuple[str, str], list[int]] = {}
            for shard_path, table in todo.items():
                values: dict[tuple[str, str, str, int], float] = {}
                for row in table.to_pylist():
                    question = (row["benchmark"], row["question_id"])
                    if question not in prompts:
                        problem = problems.get(question)
                        if problem is None:
                            raise LeashError(
                                f"{root}/questions.parquet: question {question[0]}/{question[1]}"
                                " has no problem text, so its prompt cannot be rebuilt"
                            )
                        prompts[question] = recipe.token_ids(problem, scorer.tokenizer)
                    scores = scorer.score(
                        prompts[question],
                        scorer.encode(row["text"]),
                        after_last=row["finish_reason"] == "stop",
                    )
                    mean = scores.mean_entropy
                    key = (*question, row["model"], row["sample"])
                    values[key] = float("nan") if mean is None else mean
                    summary.scored[name] += 1
                    if len(values) >= FLUSH_EVERY:
                        write_values(results, shard_path, _finite(values))
                        values = {}
                    if progress:
                        progress(name, summary.scored[name], total)
                write_values(results, shard_path, _finite(values))
        finally:
            scorer.close()
            results.refresh_index()
    return summary


def _finite(values: Mapping[tuple[str, str, str, int], float]) -> dict:
    """Empty samples (no position scored) stay null."""
    return {k: v for k, v in values.items() if not np.isnan(v)}
