"""What ``leash info`` says about a results folder, as plain data (no terminal code here)."""

from __future__ import annotations

from typing import Any

import pyarrow.compute as pc

from leash_tui.results_reader import Results
from sampler.results_schema import FORMAT

COUNT_FIELDS = (
    "n",
    "n_verified",
    "n_correct",
    "n_incorrect",
    "n_no_answer",
    "n_timeout",
    "n_error",
)


def describe_results(results: Results) -> dict[str, Any]:
    """A JSON-ready description: format, models, benchmarks and per model x benchmark counts."""
    manifest = results.manifest
    counts = results.verdict_counts()
    questions = results.questions
    per_bench_questions: dict[str, int] = {}
    if questions.num_rows:
        grouped = questions.group_by("benchmark").aggregate([("question_id", "count")])
        per_bench_questions = dict(
            zip(
                grouped.column("benchmark").to_pylist(),
                grouped.column("question_id_count").to_pylist(),
                strict=True,
            )
        )
    samples = []
    if counts.num_rows:
        per_pair = counts.group_by(["model", "benchmark"]).aggregate(
            [(f, "sum") for f in COUNT_FIELDS]
            + [("question_id", "count"), ("n", "min"), ("n", "max")]
        )
        for row in per_pair.to_pylist():
            entry = {"model": row["model"], "benchmark": row["benchmark"]}
            entry.update({f: row[f"{f}_sum"] for f in COUNT_FIELDS})
            entry["questions"] = row["question_id_count"]
            entry["samples_per_question"] = [row["n_min"], row["n_max"]]
            samples.append(entry)
        samples.sort(key=lambda e: (_model_order(manifest, e["model"]), e["benchmark"]))
    total = int(pc.sum(counts.column("n")).as_py() or 0) if counts.num_rows else 0
    verified = int(pc.sum(counts.column("n_verified")).as_py() or 0) if counts.num_rows else 0
    return {
        "folder": str(results.root),
        "format": manifest.format or FORMAT,
        "created": manifest.created,
        "synthetic": manifest.synthetic,
        "tool_versions": manifest.tool_versions,
        "models": [
            {"name": m.name, "role": m.role, "source": m.source, "sampling": m.sampling}
            for m in manifest.models
        ],
        "benchmarks": [
            {
                "name": b.name,
                "domain": b.domain,
                "source": b.source,
                "questions": per_bench_questions.get(b.name, 0),
            }
            for b in manifest.benchmarks
        ],
        "samples": samples,
        "totals": {"samples": total, "verified": verified, "unverified": total - verified},
        "shards": len(results.shard_paths()),
    }


def _model_order(manifest, name: str) -> tuple[int, int]:
    for index, model in enumerate(manifest.models):
        if model.name == name:
            return (0 if model.role == "base" else 1, index)
    return (2, 0)
