"""Big synthetic results folders for the explorer's speed bench, written in bulk with pyarrow.

Rows are built as whole Arrow arrays (no Python loop per sample) and written to
sorted shards in the standard row-group layout, so 10 million samples take
seconds to minutes, not hours. Texts are short; verdicts are filled.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store.manifest import new_manifest
from sampler.store.schema import SAMPLES_DIR, BenchmarkEntry, ModelEntry
from sampler.store.shards.writer import (
    create_results,
    merge_questions,
    questions_table,
    write_shard_file,
)

MODELS = ("base", "rl-a", "rl-b")
BENCHMARKS = ("synth-a", "synth-b")
SHARD_ROWS = 2_000_000


def write_synthetic_folder(
    root: Path,
    n_samples: int,
    samples_per_question: int = 256,
    seed: int = 0,
    distinct_answers: int = 5,
    index: bool = True,
) -> int:
    """Write about ``n_samples`` samples (3 models, 2 benchmarks); return the real count.
    With ``index``, the folder's shard index too, as every leash command that writes shards
    leaves it.

    A wrong answer is one of ``distinct_answers - 1`` values per question (5: answers as
    concentrated as an RLVR model's; 1000: as varied as a base model's)."""
    rng = np.random.default_rng(seed)
    per_q = samples_per_question * len(MODELS)
    n_questions = max(2, n_samples // per_q)
    bench_of = np.array(BENCHMARKS)[np.arange(n_questions) % len(BENCHMARKS)]
    qids = (np.arange(n_questions) // len(BENCHMARKS) + 1).astype(str)
    order = np.lexsort((qids, bench_of))  # shard order: benchmark, then id as a string
    bench_of, qids = bench_of[order], qids[order]
    create_results(
        root,
        new_manifest(
            models=[ModelEntry(m, "base" if i == 0 else "target") for i, m in enumerate(MODELS)],
            benchmarks=[BenchmarkEntry(b, "math") for b in BENCHMARKS],
            synthetic=True,
            notes="bench/explore_speed.py synthetic folder",
        ),
    )
    gold = rng.integers(0, 1000, n_questions)
    merge_questions(
        root,
        questions_table(
            [
                {
                    "benchmark": b,
                    "question_id": q,
                    "problem": f"Synthetic problem {b}/{q}: what is {g} + 0?",
                    "gold": str(g),
                }
                for b, q, g in zip(bench_of.tolist(), qids.tolist(), gold.tolist(), strict=True)
            ]
        ),
    )
    # per question and model success rate; some zero so all categories occur
    rates = rng.beta(0.5, 1.0, size=(n_questions, len(MODELS)))
    rates[rng.random((n_questions, len(MODELS))) < 0.2] = 0.0

    questions_per_shard = max(1, SHARD_ROWS // per_q)
    written = 0
    for shard, start in enumerate(range(0, n_questions, questions_per_shard)):
        q = np.arange(start, min(n_questions, start + questions_per_shard))
        rows = q.size * per_q
        q_of_row = np.repeat(q, per_q)
        model_of_row = np.tile(np.repeat(np.arange(len(MODELS)), samples_per_question), q.size)
        sample = np.tile(np.arange(samples_per_question, dtype=np.int32), q.size * len(MODELS))
        correct = rng.random(rows) < rates[q_of_row, model_of_row]
        spread = rng.integers(1, max(2, distinct_answers), rows)
        wrong = gold[q_of_row] + spread  # never the gold
        answer_int = np.where(correct, gold[q_of_row], wrong)
        answer = pc.cast(pa.array(answer_int), pa.string())
        text = pc.binary_join_element_wise(
            pa.array(
                np.array(["Adding zero changes nothing, so the answer is $\\boxed{"]).repeat(rows)
            ),
            answer,
            pa.array(np.array(["}$."]).repeat(rows)),
            "",
        )
        status = pa.DictionaryArray.from_arrays(
            pa.array(np.where(correct, 0, 1).astype(np.int32)), pa.array(["correct", "incorrect"])
        )
        table = pa.table(
            {
                "benchmark": pa.array(bench_of[q_of_row]),
                "question_id": pa.array(qids[q_of_row]),
                "model": pa.DictionaryArray.from_arrays(
                    pa.array(model_of_row.astype(np.int32)), pa.array(MODELS)
                ).cast(pa.string()),
                "sample": pa.array(sample),
                "text": text.cast(pa.large_string()),
                "n_tokens": pa.array(np.full(rows, 16, dtype=np.int32)),
                "finish_reason": pa.array(np.full(rows, "stop")),
                "answer": answer,
                "correct": pa.array(correct),
                "status": status.cast(pa.string()),
                "token_entropy": pa.array(rng.gamma(4.0, 0.1, rows)),
            }
        )
        # the writer's own shard layout (sorted, row groups, statistics, dictionaries)
        write_shard_file(Path(root) / SAMPLES_DIR / f"part-bench-{shard:05d}.parquet", table)
        written += rows
    if index:  # as every writing command leaves a folder (sampler.store.shards.shard_index)
        from sampler.store.folder import ResultsFolder

        ResultsFolder.open(root).refresh_index()
    return written
