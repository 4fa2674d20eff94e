"""Small results folders for the verification tests, built with the writer functions."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from sampler.store.manifest import new_manifest
from sampler.store.schema import BenchmarkEntry, ModelEntry
from sampler.store.shards.writer import (
    append_samples,
    create_results,
    merge_questions,
    questions_table,
)
from tests.support.paths import BENCHMARK_FILES

#: The answer that makes sympy compute for minutes (5^(5^3125)...).
PATHOLOGICAL = r"\dfrac{5^{(5^{(5^{(5^5)})}-4)}-5}{16}"

BENCHMARKS_DIR = BENCHMARK_FILES


def build_folder(
    root: Path,
    questions: list[dict],
    shards: list[list[dict]],
    models: tuple[str, ...] = ("base",),
) -> Path:
    """A results folder with ``questions`` and one sample shard per list in ``shards``.

    Sample dicts need benchmark, question_id, model, sample and text; other columns optional.
    """
    benchmarks = sorted({q["benchmark"] for q in questions})
    entries = [ModelEntry(m, "base" if i == 0 else "target") for i, m in enumerate(models)]
    create_results(
        root, new_manifest(models=entries, benchmarks=[BenchmarkEntry(b) for b in benchmarks])
    )
    merge_questions(root, questions_table(questions))
    for rows in shards:
        append_samples(root, pa.Table.from_pylist(rows))
    return root


def boxed(answer: str, prefix: str = "Working.") -> str:
    return f"{prefix}\nSo the final answer is $\\boxed{{{answer}}}$."
