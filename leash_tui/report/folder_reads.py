"""The report's and the explorer's own queries of a folder, built on the door's reads.

``agreement_samples``: every sample's key, leash status and imported source verdict
(analysis.grading_agreement compares them); ``exact_entropy_samples``: the exact
token-entropy sums ``leash entropy`` wrote. Each reads narrow columns only, and
nothing at all when the footer statistics show the column all null.
"""

from __future__ import annotations

import pyarrow as pa

from sampler.store import ResultsFolder, column_all_null

#: the columns of grading agreement (leash's verdict against an imported source verdict)
AGREEMENT_COLUMNS = ("benchmark", "question_id", "model", "status", "source_correct")
#: the columns of exact token-entropy sums (``leash entropy``)
EXACT_ENTROPY_COLUMNS = ("benchmark", "question_id", "model", "token_entropy_exact")


def agreement_samples(folder: ResultsFolder) -> pa.Table | None:
    """AGREEMENT_COLUMNS of every sample as plain strings and bools, or None when the
    footer statistics show ``source_correct`` all null (nothing imported with one)."""
    if column_all_null(folder, "source_correct"):
        return None
    table = folder.samples(columns=list(AGREEMENT_COLUMNS))
    return pa.table(
        {
            name: (
                table.column(name).cast(pa.string())
                if pa.types.is_dictionary(table.column(name).type)
                else table.column(name)
            )
            for name in AGREEMENT_COLUMNS
        }
    )


def exact_entropy_samples(folder: ResultsFolder) -> pa.Table | None:
    """EXACT_ENTROPY_COLUMNS of the shards whose footer statistics show an exact token
    entropy (``leash entropy``), or None when no shard has one."""
    pieces = [
        folder.read_shard(path, EXACT_ENTROPY_COLUMNS)
        for path in folder.shards_with_values("token_entropy_exact")
    ]
    if not pieces:
        return None
    table = pa.concat_tables([p.cast(pieces[0].schema) for p in pieces])
    return table.select(list(EXACT_ENTROPY_COLUMNS))
