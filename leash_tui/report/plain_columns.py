"""Dictionary-encoded columns as plain strings, before a join or a group-by; golds by question.

The store hands key and label columns (benchmark, question_id, model, status, answer_rule)
dictionary-encoded; joining two tables or grouping needs them plain. ``gold_answers`` maps
each question of the questions table to its gold (witness and loss tables).
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa


def plain_strings(table: pa.Table, names: Iterable[str]) -> pa.Table:
    """``table`` with each of ``names`` that is dictionary-encoded cast to plain strings."""
    for name in names:
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            table = table.set_column(
                table.schema.get_field_index(name), name, column.cast(pa.string())
            )
    return table


def gold_answers(questions: pa.Table) -> dict[tuple[str, str], str | None]:
    """(benchmark, question_id) -> gold of every question of ``questions``."""
    keys = zip(
        questions.column("benchmark").to_pylist(),
        questions.column("question_id").to_pylist(),
        strict=True,
    )
    return dict(zip(keys, questions.column("gold").to_pylist(), strict=True))
