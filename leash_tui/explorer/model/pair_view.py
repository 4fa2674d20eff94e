"""One base/target pair's per-question comparison as numpy columns, and a list row of it.

``PairView`` holds ``analysis.support.compare_questions`` for the pair, joined with the
questions table (problem, gold), as numpy arrays that the explorer's filters and sorts
index; ``QuestionRow`` is one row of it, everything a list row shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: The default order: shrinkage first, then expansion, preservation, out of support;
#: questions without verified samples of a model (no category) come last.
SUPPORT_ORDER = {"S": 0, "E": 1, "P": 2, "O": 3}
UNCOMPARED = 4


@dataclass(frozen=True)
class QuestionRow:
    """One question of the list, for one pair (everything a list row shows)."""

    index: int  # row of the pair comparison
    benchmark: str
    question_id: str
    category: str
    n_base: int
    c_base: int
    n_target: int
    c_target: int
    k: int
    fisher_p: float | None
    #: S/E: 95% upper bound of the losing side's success rate (analysis.support)
    losing_upper: float | None
    pass1_base: float | None  # None when a model has no verified sample of the question
    pass1_target: float | None
    problem: str | None
    gold: str | None


def evidence_text(row: QuestionRow) -> str:
    """ " · target: p < 3.7e-04 at 95%" for an S or E question (the losing side's success
    rate, by its Clopper–Pearson upper bound), else nothing."""
    if row.losing_upper is None or row.category not in ("S", "E"):
        return ""
    side = "target" if row.category == "S" else "base"
    return f" · {side}: p < {row.losing_upper:.2g} at 95%"


def pair_keys(benchmark: pa.ChunkedArray, question_id: pa.ChunkedArray) -> pa.ChunkedArray:
    return pc.binary_join_element_wise(
        benchmark.cast(pa.string()), question_id.cast(pa.string()), "\x1f"
    )


def column_array(table: pa.Table, name: str, dtype=float) -> np.ndarray:
    column = table.column(name)
    if pa.types.is_floating(column.type) or dtype is float:
        column = pc.fill_null(column.cast(pa.float64()), np.nan)
    return column.to_numpy().astype(dtype)


class PairView:
    """The comparison of the base with one target, with numpy columns for filters and sorts."""

    def __init__(self, table: pa.Table, questions: pa.Table):
        self.table = table
        n = table.num_rows
        cats = table.column("category").cast(pa.string())
        self.category = np.full(n, UNCOMPARED, dtype=np.int8)
        for name, rank in SUPPORT_ORDER.items():
            self.category[
                pc.fill_null(pc.equal(cats, name), False).to_numpy(zero_copy_only=False)
            ] = rank
        self.fisher_p = column_array(table, "fisher_p")
        self.losing_upper = column_array(table, "losing_upper")
        self.c_base = column_array(table, "c_base", np.int64)
        self.c_target = column_array(table, "c_target", np.int64)
        self.drop = column_array(table, "pass1_base") - column_array(table, "pass1_target")
        bench = table.column("benchmark").cast(pa.string())
        encoded = pc.dictionary_encode(bench).combine_chunks()
        self.benchmark_names: list[str] = encoded.dictionary.to_pylist()
        self.benchmark_code = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)
        self.keys = pair_keys(table.column("benchmark"), table.column("question_id"))
        question_row = pc.index_in(
            self.keys,
            value_set=pair_keys(questions.column("benchmark"), questions.column("question_id")),
        )
        self.question_row = pc.fill_null(question_row, -1).to_numpy(zero_copy_only=False)
        has_q = self.question_row >= 0
        take = pa.array(np.where(has_q, self.question_row, 0))
        empty = pa.nulls(n, pa.large_string())
        if questions.num_rows:
            problems = questions.column("problem").take(take)
            self.problem = pc.if_else(pa.array(has_q), problems, empty)
            self.gold = pc.if_else(
                pa.array(has_q), questions.column("gold").take(take), pa.nulls(n, pa.string())
            )
        else:
            self.problem, self.gold = empty, pa.nulls(n, pa.string())
        self.natural = self._natural_order()

    def _natural_order(self) -> np.ndarray:
        """Rank of each row in (benchmark, numeric id, id) order."""
        qid = self.table.column("question_id").cast(pa.string())
        numeric = pc.and_(pc.utf8_is_digit(qid), pc.less_equal(pc.utf8_length(qid), 18))
        numeric_np = pc.fill_null(numeric, False).to_numpy(zero_copy_only=False)
        values = pc.cast(pc.if_else(numeric, qid, "0"), pa.int64()).to_numpy(zero_copy_only=False)
        position = np.arange(self.table.num_rows)  # string order within a benchmark
        order = np.lexsort((position, values, ~numeric_np, self.benchmark_code))
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return rank

    def row(self, i: int) -> QuestionRow:
        t = self.table
        p = self.fisher_p[i]

        def get(name: str) -> Any:
            return t.column(name)[i].as_py()

        return QuestionRow(
            index=i,
            benchmark=get("benchmark"),
            question_id=get("question_id"),
            category=get("category") or "?",
            n_base=int(get("n_base")),
            c_base=int(get("c_base")),
            n_target=int(get("n_target")),
            c_target=int(get("c_target")),
            k=int(get("k")),
            fisher_p=None if np.isnan(p) else float(p),
            losing_upper=None if np.isnan(self.losing_upper[i]) else float(self.losing_upper[i]),
            pass1_base=get("pass1_base"),
            pass1_target=get("pass1_target"),
            problem=self.problem[i].as_py(),
            gold=self.gold[i].as_py(),
        )
