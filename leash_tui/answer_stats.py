"""Per-question answer and token-entropy statistics of every model, from sample columns.

The vectorised counterpart of support_analysis.answer_distribution /
answer_entropy / gold_share_and_rank (same answer classes: no answer is "NA",
all correct samples form one class), computed for all (benchmark, question_id,
model) groups at once from the ``status``, ``answer`` and ``token_entropy``
columns. Never touches completion text.

Only verified samples (status not null) enter the answer statistics. Token entropy
is a property of the generated text, so every sample that carries a value counts.
A group has answer data when some verified sample has an answer or the verifier
found none (status ``no_answer``); otherwise its answer entropy and gold rank are
null (its gold share, c/n, is still defined).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.sample_groups import SampleGroups, group_count, group_sum
from sampler.results_schema import STATUS_CORRECT, STATUS_NO_ANSWER

ANSWER_STATS_COLUMNS = (
    "benchmark",
    "question_id",
    "model",
    "n_verified",
    "token_entropy_sum",
    "token_entropy_n",
    "answer_entropy",
    "answer_classes",
    "gold_share",
    "gold_rank",
)


def _dictionary(column: pa.ChunkedArray | pa.Array) -> pa.DictionaryArray:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column.cast(pa.string()))
    return column


def _codes(column: pa.DictionaryArray) -> np.ndarray:
    """Dictionary index per row, -1 for null."""
    return pc.fill_null(column.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)


def question_answer_stats(table: pa.Table, groups: SampleGroups) -> pa.Table:
    """One row per group of ``groups`` (see ANSWER_STATS_COLUMNS).

    ``table`` holds the rows ``groups`` was made from, with columns status, answer
    and token_entropy (string columns plain or dictionary-encoded).
    """
    size = groups.count
    status = _dictionary(table.column("status"))
    status_values = status.dictionary.to_pylist()
    status_code = _codes(status)
    verified = status_code >= 0

    def status_is(value: str) -> np.ndarray:
        if value not in status_values:
            return np.zeros(status_code.size, dtype=bool)
        return status_code == status_values.index(value)

    correct = status_is(STATUS_CORRECT)
    answer = _dictionary(table.column("answer"))
    answer_values = answer.dictionary.to_pylist()
    answer_code = _codes(answer)
    empty = [i for i, v in enumerate(answer_values) if v == ""]
    has_answer = answer_code >= 0
    if empty:
        has_answer &= ~np.isin(answer_code, empty)

    # answer classes: 0 = correct, 1 = NA, 2 + i = the wrong answer answer_values[i]
    classes = np.where(correct, 0, np.where(has_answer, answer_code + 2, 1))
    width = len(answer_values) + 2
    keys = groups.codes[verified] * width + classes[verified]
    if size * width <= max(4 * keys.size, 1 << 22):
        dense = np.bincount(keys, minlength=size * width)
        class_keys = np.flatnonzero(dense)
        class_counts = dense[class_keys]
    else:
        class_keys, class_counts = np.unique(keys, return_counts=True)
    class_group = class_keys // width
    is_correct_class = class_keys % width == 0

    n_verified = group_count(groups, verified)
    n_correct = group_count(groups, correct)
    with np.errstate(divide="ignore", invalid="ignore"):
        # H = ln(total) - sum(c ln c) / total over the group's classes
        c_ln_c = np.bincount(
            class_group, weights=class_counts * np.log(class_counts), minlength=size
        )
        entropy = np.log(n_verified) - c_ln_c / n_verified
        gold_share = n_correct / n_verified
    entropy = np.maximum(entropy, 0.0)  # -0.0 and rounding below zero for one class
    more_frequent = class_counts > n_correct[class_group]
    rank = 1 + np.bincount(class_group[more_frequent & ~is_correct_class], minlength=size)
    n_classes = np.bincount(class_group, minlength=size)

    evidence = verified & (has_answer | status_is(STATUS_NO_ANSWER))
    has_data = group_count(groups, evidence) > 0
    entropy_ok = has_data & (n_verified > 0)

    token = table.column("token_entropy")
    token = token.combine_chunks() if isinstance(token, pa.ChunkedArray) else token
    token_values = pc.fill_null(token.cast(pa.float64()), np.nan).to_numpy(zero_copy_only=False)
    token_ok = ~np.isnan(token_values)

    def floats(values: np.ndarray, valid: np.ndarray) -> pa.Array:
        return pa.array(np.where(valid, values, 0.0), pa.float64(), mask=~valid)

    return pa.table(
        {
            **{name: groups.keys.column(name) for name in groups.keys.column_names},
            "n_verified": pa.array(n_verified),
            "token_entropy_sum": pa.array(group_sum(groups, np.where(token_ok, token_values, 0))),
            "token_entropy_n": pa.array(group_count(groups, token_ok)),
            "answer_entropy": floats(entropy, entropy_ok),
            "answer_classes": pa.array(n_classes.astype(np.int64)),
            "gold_share": floats(gold_share, n_verified > 0),
            "gold_rank": pa.array(rank.astype(np.int64), mask=~(entropy_ok & (n_correct > 0))),
        }
    )


def model_stats(stats: pa.Table, model: str) -> pa.Table:
    """The rows of one model, without the model column (for summary_rows' entropies)."""
    rows = stats.filter(pc.equal(stats.column("model"), model))
    return rows.drop_columns(["model"])
