"""One string key per (benchmark, question_id) row, for hash lookups on whole columns.

Acero joins on the two columns cost tens of milliseconds per call at 50,000 questions and
return rows in no set order; a single key column lets ``pc.is_in`` and ``pc.index_in``
answer membership and position at once, in the caller's row order. The key is the
benchmark's length in characters, a colon, the benchmark, then the question id (and for a
group, the question id's length, a colon, the id, then the model): prefix-free, so two
different pairs never share a key whatever characters the ids hold.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc


def question_keys(table: pa.Table) -> pa.Array:
    """The key of every row of ``table`` (its ``benchmark`` and ``question_id`` columns)."""
    return _keys(table, ("benchmark", "question_id"))


def group_keys(table: pa.Table) -> pa.Array:
    """The key of every row's (benchmark, question_id, model): a group of samples."""
    return _keys(table, ("benchmark", "question_id", "model"))


def _keys(table: pa.Table, columns: tuple[str, ...]) -> pa.Array:
    """Each column but the last as its length, a colon and its value; then the last."""
    parts: list[pa.ChunkedArray | str] = []
    for name in columns[:-1]:
        values = table.column(name).cast(pa.string())
        parts += [pc.utf8_length(values).cast(pa.string()), ":", values]
    parts.append(table.column(columns[-1]).cast(pa.string()))
    return pc.binary_join_element_wise(*parts, "").combine_chunks()
