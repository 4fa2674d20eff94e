"""``--trust-verdicts``: the source verdicts of questions without a gold made their verdicts.

A staged sample whose question has no gold (leash cannot grade it) gets its source verdict
as ``correct``/``status``, marked ``verdict_source`` = VERDICT_SOURCE_TRUSTED so that reports
can count it. Samples of questions with a gold keep ``source_correct`` only: ``leash
verify`` grades them. The staged shards are rewritten in place before the commit.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from sampler.store import (
    STATUS_CORRECT,
    STATUS_INCORRECT,
    VERDICT_SOURCE_TRUSTED,
    ResultsFolder,
)


def trust_staged(folder: ResultsFolder, staged: list[Path], graded: set[tuple[str, str]]) -> int:
    """Rewrite the ``staged`` shards with the trusted verdicts; return how many there are."""
    trusted = 0
    for path in staged:
        table = folder.read_shard(path)
        source = table.column("source_correct").to_pylist()
        keys = zip(
            table.column("benchmark").to_pylist(),
            table.column("question_id").to_pylist(),
            strict=True,
        )
        trust = [s is not None and k not in graded for s, k in zip(source, keys, strict=True)]
        if not any(trust):
            continue
        pairs = list(zip(source, trust, strict=True))
        columns = {
            "correct": (pa.bool_(), [s if t else None for s, t in pairs]),
            "status": (
                pa.string(),
                [(STATUS_CORRECT if s else STATUS_INCORRECT) if t else None for s, t in pairs],
            ),
            "verdict_source": (
                pa.string(),
                [VERDICT_SOURCE_TRUSTED if t else None for t in trust],
            ),
        }
        for name, (kind, values) in columns.items():
            table = table.set_column(
                table.schema.get_field_index(name), name, pa.array(values, kind)
            )
        folder.journal.stage_shard(path, table)
        trusted += sum(trust)
    return trusted
