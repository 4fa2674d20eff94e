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
import pyarrow.compute as pc

from sampler.store.question_order import natural_key
from sampler.store.row_keys import question_keys
from sampler.store.schema import Manifest

#: question names listed in one note before "… and N more"
LISTED = 8


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    return shown + (f" … and {len(names) - LISTED} more" if len(names) > LISTED else "")


def _natural(keys: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """(benchmark, question_id) pairs by benchmark, then id in natural order (4 before 29)."""
    return sorted(keys, key=lambda key: (key[0], natural_key(key[1])))


def _pairs(table: pa.Table) -> pa.Table:
    """The (benchmark, question_id) of ``table`` as plain strings, with their key (repeats
    kept: every use below is a set)."""
    keys = pa.table({k: table.column(k).cast(pa.string()) for k in ("benchmark", "question_id")})
    return keys.append_column("key", question_keys(keys))


def _without(left: pa.Table, right: pa.Table) -> set[tuple[str, str]]:
    """The pairs of ``left`` not in ``right`` (a hash lookup of the keys: only the few
    found become Python tuples, so 50,000 questions cost a few milliseconds)."""
    rows = left.filter(pc.invert(pc.is_in(left.column("key"), value_set=right.column("key"))))
    return set(
        zip(rows.column("benchmark").to_pylist(), rows.column("question_id").to_pylist(),
            strict=True)
    )  # fmt: skip


def coverage_notes(manifest: Manifest, questions: pa.Table, counts: pa.Table) -> list[str]:
    """Notes (one line each) on questions without samples of a model, and on samples
    of questions the questions table lacks. ``counts`` has benchmark, question_id,
    model (one row per group with samples)."""
    listed = _pairs(questions)
    model_col = counts.column("model").cast(pa.string())
    notes = []
    for model in manifest.models:
        mine = counts.filter(pc.equal(model_col, model.name))
        if mine.num_rows == 0:
            notes.append(f"model {model.name} has no samples")
            continue
        have = _pairs(mine)
        run_on = set(pc.unique(have.column("benchmark")).to_pylist())
        lacking = _natural(_without(listed, have))
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
    unlisted = _natural(_without(_pairs(counts), listed)) if counts.num_rows else []
    if unlisted:
        names = [f"{b}/{q}" for b, q in unlisted]
        what = "is missing" if listed.num_rows == 0 else "lacks them"
        notes.append(
            f"{len(unlisted)} question(s) have samples but no row in questions.parquet"
            f" (which {what}; no problem or gold for them): {_listing(names)}"
        )
    return notes
