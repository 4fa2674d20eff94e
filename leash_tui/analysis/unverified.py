"""How many unverified samples belong to questions without a gold (pure pyarrow).

``leash verify`` grades a sample against its question's gold; a question without one
(an imported set with no answers) keeps its samples unverified however often verify
runs. Hints that say "run leash verify" must not say so for those.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc


def unverified_without_gold(counts: pa.Table, questions: pa.Table) -> int:
    """Unverified samples (``n - n_verified`` of ``counts``) of questions whose gold is
    missing or null in ``questions``."""
    missing = pc.subtract(counts.column("n"), counts.column("n_verified"))
    if not pc.any(pc.greater(missing, 0)).as_py():
        return 0
    keys = counts.select(["benchmark", "question_id"]).append_column("missing", missing)
    keys = keys.filter(pc.greater(keys.column("missing"), 0))
    for name in ("benchmark", "question_id"):
        column = keys.column(name)
        if pa.types.is_dictionary(column.type):
            keys = keys.set_column(
                keys.schema.get_field_index(name), name, column.cast(pa.string())
            )
    golds = questions.select(["benchmark", "question_id", "gold"])
    joined = keys.join(golds, ["benchmark", "question_id"], join_type="left outer")
    goldless = pc.is_null(joined.column("gold"))
    return int(pc.sum(joined.column("missing").filter(goldless)).as_py() or 0)
