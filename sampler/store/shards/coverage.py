"""Which listed questions lack samples, and which sampled questions are not listed.

The questions table lists every question a folder was built with; sample shards
hold the samples. A deleted shard (or a deleted questions table) loses rows
without any error, and a count over what is left looks plausible. These notes say
so: per model, the benchmarks it was never run on, the listed questions of the
other benchmarks it has no sample of (rows lost), and the questions that have
samples but no row in the questions table (so no problem and no gold). Ids are
listed in natural order (4 before 29).
"""

from __future__ import annotations

import pyarrow as pa

from sampler.store.question_order import natural_key
from sampler.store.schema import Manifest

#: question names listed in one note before "… and N more"
LISTED = 8


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    return shown + (f" … and {len(names) - LISTED} more" if len(names) > LISTED else "")


def _natural(keys: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """(benchmark, question_id) pairs by benchmark, then id in natural order (4 before 29)."""
    return sorted(keys, key=lambda key: (key[0], natural_key(key[1])))


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
        if not have:
            notes.append(f"model {model.name} has no samples")
            continue
        run_on = {b for b, _ in have}
        lacking = _natural(listed - have)
        never = [key for key in lacking if key[0] not in run_on]
        for bench in dict.fromkeys(b for b, _ in never):
            n = sum(1 for b, _ in never if b == bench)
            notes.append(
                f"{model.name} was never run on {bench} ({n} question(s) without its samples)"
            )
        lost = [key for key in lacking if key[0] in run_on]
        if lost:
            names = [f"{b}/{q}" for b, q in lost]
            notes.append(
                f"{len(lost)} question(s) of questions.parquet have no samples of"
                f" {model.name} although it has samples of their benchmark (a shard"
                f" deleted?): {_listing(names)}"
            )
    sampled = set().union(*by_model.values()) if by_model else set()
    unlisted = _natural(sampled - listed)
    if unlisted:
        names = [f"{b}/{q}" for b, q in unlisted]
        what = "is missing" if not listed else "lacks them"
        notes.append(
            f"{len(unlisted)} question(s) have samples but no row in questions.parquet"
            f" (which {what}; no problem or gold for them): {_listing(names)}"
        )
    return notes
