"""Which samples carry a trusted source verdict that ``leash verify`` must keep.

``leash import --trust-verdicts`` keeps the source tool's verdict of a sample whose
question has no gold, marked ``verdict_source`` = VERDICT_SOURCE_TRUSTED. Verification
never overwrites such a verdict while the question has no gold (not even with
``--force``: leash has nothing to grade it against) and does not count it as an
error; once the question has a gold, the sample is graded like any other.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store import VERDICT_SOURCE_TRUSTED, ResultsFolder, column_all_null

Question = tuple[str, str]  # (benchmark, question_id)


def trusted_rows(table: pa.Table, graded: Collection[Question]) -> tuple[np.ndarray, np.ndarray]:
    """(keep, regrade) boolean masks over the rows of ``table`` (benchmark, question_id,
    verdict_source columns): trusted verdicts of questions without a gold (``graded``
    holds the questions that have one), and trusted verdicts leash can now grade."""
    size = table.num_rows
    if "verdict_source" not in table.column_names:
        return np.zeros(size, dtype=bool), np.zeros(size, dtype=bool)
    marked = pc.fill_null(
        pc.equal(table.column("verdict_source").cast(pa.string()), VERDICT_SOURCE_TRUSTED), False
    )
    trusted = np.asarray(marked.to_numpy(zero_copy_only=False), dtype=bool)
    if not trusted.any():
        return trusted, trusted.copy()
    benchmark = table.column("benchmark").cast(pa.string()).to_pylist()
    question = table.column("question_id").cast(pa.string()).to_pylist()
    has_gold = np.array(
        [t and (b, q) in graded for t, b, q in zip(trusted, benchmark, question, strict=True)],
        dtype=bool,
    )
    return trusted & ~has_gold, trusted & has_gold


def shard_trusted_rows(
    results: ResultsFolder, path: Path, graded: Collection[Question]
) -> tuple[np.ndarray, np.ndarray]:
    """``trusted_rows`` of shard ``path``: nothing read when its footer statistics show
    ``verdict_source`` all null, else three narrow columns."""
    if column_all_null(results, "verdict_source", path):
        empty = np.zeros(results.footer_facts(path).rows, dtype=bool)
        return empty, empty.copy()
    table = results.read_shard(path, ["benchmark", "question_id", "verdict_source"])
    return trusted_rows(table, graded)
