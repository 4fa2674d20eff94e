"""Which listed questions lack samples, and which sampled questions are not listed.

The questions table lists every question a folder was built with; sample shards
hold the samples. A deleted shard (or a deleted questions table) loses rows
without any error, and a count over what is left looks plausible. These notes say
so: per model, the listed questions it has no sample of, and the questions that
have samples but no row in the questions table (so no problem and no gold).
"""

from __future__ import annotations

import pyarrow as pa

from sampler.store.schema import Manifest

#: question names listed in one note before "… and N more"
LISTED = 8


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    return shown + (f" … and {len(names) - LISTED} more" if len(names) > LISTED else "")


def coverage_notes(manifest: Manifest, questions: pa.Table, counts: pa.Table) -> list[str]:
    """Notes (one line each) on questions without samples of a model, and on samples
    of questions the questions table lacks. ``counts`` has benchmark, question_id,
    model (one row per group with samples)."""
    listed = set(
        zip(
            questions.column("benchmark").to_pylist(),
            questions.column("question_id").to_pylist(),
            strict=True,
        )
    )
    by_model: dict[str, set[tuple[str, str]]] = {}
    for b, q, m in zip(
        counts.column("benchmark").to_pylist(),
        counts.column("question_id").to_pylist(),
        counts.column("model").to_pylist(),
        strict=True,
    ):
        by_model.setdefault(m, set()).add((b, q))
    notes = []
    for model in manifest.models:
        have = by_model.get(model.name, set())
        lacking = sorted(listed - have)
        if not have:
            notes.append(f"model {model.name} has no samples")
        elif lacking:
            names = [f"{b}/{q}" for b, q in lacking]
            notes.append(
                f"{len(lacking)} question(s) of questions.parquet have no samples of"
                f" {model.name} (a shard deleted?): {_listing(names)}"
            )
    sampled = set().union(*by_model.values()) if by_model else set()
    unlisted = sorted(sampled - listed)
    if unlisted:
        names = [f"{b}/{q}" for b, q in unlisted]
        what = "is missing" if not listed else "lacks them"
        notes.append(
            f"{len(unlisted)} question(s) have samples but no row in questions.parquet"
            f" (which {what}; no problem or gold for them): {_listing(names)}"
        )
    return notes
