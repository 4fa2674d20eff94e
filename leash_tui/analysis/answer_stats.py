"""Per-question answer and token-entropy statistics of every model, from sample columns.

``answer_distribution``, ``answer_entropy`` and ``gold_share_and_rank`` compute them for
one question's samples (the explorer); ``answer_stats_table`` is their vectorised
counterpart (same answer classes: no answer is "NA",
all correct samples form one class), computed for all (benchmark, question_id,
model) groups at once from the per-group answer-class counts of store.key_stats
(made from the ``status``, ``answer`` and ``token_entropy`` columns, never the
completion text).

Only verified samples (status not null) enter the answer statistics. Token entropy
is a property of the generated text, so every sample that carries a value counts.
A group has answer data when some verified sample has an answer or the verifier
found none (status ``no_answer``); otherwise its answer entropy and gold rank are
null (its gold share, c/n, is still defined).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store.key_stats import KIND_CORRECT, SLOT_UNVERIFIED, SampleStats, chunk_stats

NO_ANSWER = "NA"

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


def answer_stats_table(stats: SampleStats) -> pa.Table:
    """One row per group of ``stats`` (see ANSWER_STATS_COLUMNS)."""
    size = stats.groups
    n_verified = stats.status[:, :SLOT_UNVERIFIED].sum(axis=1).astype(np.int64)
    n_correct = stats.status[:, 0]
    group = stats.classes.column("group").to_numpy().astype(np.int64)
    count = stats.classes.column("count").to_numpy().astype(np.float64)
    is_correct = stats.classes.column("kind").to_numpy() == KIND_CORRECT
    with np.errstate(divide="ignore", invalid="ignore"):
        # H = ln(total) - sum(c ln c) / total over the group's classes
        c_ln_c = np.bincount(group, weights=count * np.log(count), minlength=size)
        entropy = np.maximum(np.log(n_verified) - c_ln_c / n_verified, 0.0)
        gold_share = n_correct / n_verified
    more_frequent = (count > n_correct[group]) & ~is_correct
    rank = 1 + np.bincount(group[more_frequent], minlength=size)
    n_classes = np.bincount(group, minlength=size).astype(np.int64)
    entropy_ok = (stats.evidence > 0) & (n_verified > 0)

    def floats(values: np.ndarray, valid: np.ndarray) -> pa.Array:
        return pa.array(np.where(valid, values, 0.0), pa.float64(), mask=~valid)

    return pa.table(
        {
            **{name: stats.keys.column(name) for name in stats.keys.column_names},
            "n_verified": pa.array(n_verified),
            "token_entropy_sum": pa.array(stats.token_sum.astype(np.float64)),
            "token_entropy_n": pa.array(stats.token_n.astype(np.int64)),
            "answer_entropy": floats(entropy, entropy_ok),
            "answer_classes": pa.array(n_classes),
            "gold_share": floats(gold_share, n_verified > 0),
            "gold_rank": pa.array(rank.astype(np.int64), mask=~(entropy_ok & (n_correct > 0))),
        }
    )


def question_answer_stats(table: pa.Table) -> pa.Table:
    """Answer statistics of the sample rows in ``table`` (key columns, status, answer,
    token_entropy; string columns plain or dictionary-encoded)."""
    return answer_stats_table(chunk_stats(table))


def model_stats(stats: pa.Table, model: str) -> pa.Table:
    """The rows of one model, without the model column (for summary_rows' entropies)."""
    rows = stats.filter(pc.equal(stats.column("model"), model))
    return rows.drop_columns(["model"])


def _answer_classes(
    answers: Iterable[str | None], correct: Iterable[bool | None]
) -> tuple[Counter, Counter]:
    """Counts per class key (None = NA, True = the correct class, str = a wrong answer)."""
    classes: Counter = Counter()
    correct_strings: Counter = Counter()
    for answer, ok in zip(_as_list(answers), _as_list(correct), strict=True):
        if ok:
            classes[True] += 1
            if answer:
                correct_strings[answer] += 1
        elif answer is None or answer == "":
            classes[None] += 1
        else:
            classes[answer] += 1
    return classes, correct_strings


def _as_list(values: Any) -> list:
    if isinstance(values, pa.ChunkedArray | pa.Array):
        return values.to_pylist()
    return list(values)


def answer_distribution(
    answers: Iterable[str | None], correct: Iterable[bool | None]
) -> list[tuple[str, int, bool]]:
    """(answer, count, is_correct) per answer class, most frequent first.

    Pass the verified samples of one model on one question. No answer (None or "")
    is the class "NA"; every correct sample is in one class, labelled with its most
    frequent answer string. Ties: correct class first, then by answer, NA last.
    """
    classes, correct_strings = _answer_classes(answers, correct)
    out = []
    for key, count in classes.items():
        if key is True:
            label = correct_strings.most_common(1)[0][0] if correct_strings else "correct"
            out.append((label, count, True))
        else:
            out.append((NO_ANSWER if key is None else key, count, False))
    return sorted(out, key=lambda r: (-r[1], not r[2], r[0] == NO_ANSWER, r[0]))


def answer_entropy(answers: Iterable[str | None], correct: Iterable[bool | None]) -> float | None:
    """Entropy (nats) of the answer classes of one question's samples; None without samples."""
    classes, _ = _answer_classes(answers, correct)
    total = sum(classes.values())
    if total == 0:
        return None
    return float(-sum((n / total) * math.log(n / total) for n in classes.values()))


def gold_share_and_rank(
    answers: Iterable[str | None], correct: Iterable[bool | None]
) -> tuple[float | None, int | None]:
    """Share of samples that are correct, and the rank of the correct class by frequency.

    Rank 1 = most frequent; a class tied with it does not push it down (rank = 1 +
    number of classes strictly more frequent). (None, None) without samples; rank
    None when no sample is correct.
    """
    classes, _ = _answer_classes(answers, correct)
    total = sum(classes.values())
    if total == 0:
        return None, None
    hits = classes.get(True, 0)
    if hits == 0:
        return 0.0, None
    return hits / total, 1 + sum(1 for n in classes.values() if n > hits)
