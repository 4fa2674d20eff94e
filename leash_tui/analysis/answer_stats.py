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

Answer entropy is the paper's (docs/support-dynamics.md, "Entropies"): over the first N
verified samples of the group by sample index (N = ``entropy_samples``, 32 by default;
all of them when fewer), with classes by verifier equivalence as store.key_stats makes
them (all correct samples one class; no answer or truncated: "NA"; any other answer:
its store.answer_classes key, so ``2.5`` and ``\\frac52`` are one class),

    H = -sum_j p_j ln p_j,   p_j = f_j / n,   n = min(N, verified samples),

computed as ln n - (sum_j f_j ln f_j) / n. It does not grow with the number of samples
drawn, unlike the plug-in entropy over all of them.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis import answer_class_votes
from leash_tui.analysis.answer_class_votes import class_ranks, vote_classes
from sampler.store.shards.key_stats import SLOT_UNVERIFIED, SampleStats, chunk_stats
from sampler.store.side_tables.answer_classes import answer_class_key
from sampler.store.side_tables.entropy_samples import (
    DEFAULT_ENTROPY_SAMPLES,
    KIND_ANSWER,
)

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
    "majority",
    "distinct_answers",
)


def first_n_entropy(
    first: pa.Table, size: int, n: int = DEFAULT_ENTROPY_SAMPLES
) -> tuple[np.ndarray, np.ndarray]:
    """(entropy, samples used) per group from a store.entropy_samples table: the answer
    entropy of the first ``n`` samples of each group by sample index (module docstring).

    Runs over batches of whole groups (about BATCH_ROWS rows each), so its temporaries stay
    those of a batch however many groups there are."""
    group = first.column("group").to_numpy().astype(np.int64, copy=False)
    sample = first.column("sample").to_numpy().astype(np.int64, copy=False)
    same = group[1:] == group[:-1]
    # merged tables come ordered by (group, sample): sort only one that is not
    if not (
        bool(np.all(group[1:] >= group[:-1])) and bool(np.all(~same | (sample[1:] > sample[:-1])))
    ):
        first = first.take(pa.array(np.lexsort((sample, group)), pa.int64()))
        group = first.column("group").to_numpy().astype(np.int64, copy=False)
        same = group[1:] == group[:-1]
    starts = np.flatnonzero(np.r_[True, ~same]) if group.size else np.zeros(0, np.int64)
    del same
    kind = first.column("kind").to_numpy()
    keys = first.column("key")
    used = np.zeros(size, dtype=np.int64)
    f_ln_f = np.zeros(size)
    for lo, hi in _group_batches(starts, group.size):
        local = starts[(starts >= lo) & (starts < hi)] - lo
        rank = np.arange(hi - lo) - np.repeat(local, np.diff(np.r_[local, hi - lo]))
        chosen = np.flatnonzero(rank < n)
        kept = group[lo:hi][chosen]
        code = pc.dictionary_encode(keys.slice(lo, hi - lo).take(pa.array(chosen)))
        code = code.combine_chunks() if isinstance(code, pa.ChunkedArray) else code
        key_code = pc.fill_null(code.indices, 0).to_numpy(zero_copy_only=False)
        # class: 0 correct, 1 NA, 2 + i the i-th distinct answer key of the batch
        batch_kind = kind[lo:hi][chosen]
        cls = np.where(batch_kind == KIND_ANSWER, 2 + key_code.astype(np.int64), batch_kind)
        width = int(cls.max(initial=0)) + 1
        pairs, f = np.unique(kept * width + cls, return_counts=True)
        used += np.bincount(kept, minlength=size)
        f_ln_f += np.bincount(pairs // width, weights=f * np.log(f), minlength=size)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = np.where(used > 0, np.log(used) - f_ln_f / used, 0.0)
    return np.maximum(entropy, 0.0), used


def _group_batches(starts: np.ndarray, total: int) -> list[tuple[int, int]]:
    """Row ranges of about BATCH_ROWS rows that begin at a group's first row (``starts``)
    and end where the next group begins."""
    edges = [0]
    while edges[-1] < total:
        at = int(np.searchsorted(starts, edges[-1] + answer_class_votes.BATCH_ROWS))
        edges.append(int(starts[at]) if at < starts.size else total)
    return list(itertools.pairwise(edges))


def answer_stats_table(
    stats: SampleStats, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES
) -> pa.Table:
    """One row per group of ``stats`` (see ANSWER_STATS_COLUMNS); answer entropy over the
    first ``entropy_samples`` samples of each group (ValueError when ``stats`` keeps fewer)."""
    size = stats.groups
    n_verified = stats.status[:, :SLOT_UNVERIFIED].sum(axis=1).astype(np.int64)
    n_correct = stats.status[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        gold_share = n_correct / n_verified
    n_classes, rank = class_ranks(stats.classes, n_correct, size)
    majority, distinct = vote_classes(stats.classes, size)
    if stats.first is None:
        entropy, used = np.zeros(size), np.zeros(size, dtype=np.int64)
    else:
        if stats.first_keep < entropy_samples:
            raise ValueError(
                f"the statistics keep {stats.first_keep} samples per question, not"
                f" {entropy_samples}"
            )
        entropy, used = first_n_entropy(stats.first, size, entropy_samples)
    entropy_ok = (stats.evidence > 0) & (n_verified > 0) & (used > 0)

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
            "majority": floats(majority, n_verified > 0),
            "distinct_answers": pa.array(distinct),
        }
    )


def question_answer_stats(
    table: pa.Table, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES
) -> pa.Table:
    """Answer statistics of the sample rows in ``table`` (key columns, status, answer,
    token_entropy, and sample and finish_reason when present; string columns plain or
    dictionary-encoded)."""
    return answer_stats_table(chunk_stats(table, entropy_samples), entropy_samples)


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


def answer_entropy(
    answers: Iterable[str | None],
    correct: Iterable[bool | None],
    samples: Iterable[int] | None = None,
    truncated: Iterable[bool | None] | None = None,
    n: int = DEFAULT_ENTROPY_SAMPLES,
) -> float | None:
    """Answer entropy (nats) of one question's verified samples, as the module docstring
    defines it: the first ``n`` by sample index (``samples``; default: the order given),
    correct ones one class, no answer or ``truncated`` "NA", others by answer class key.
    None without samples."""
    answers, correct = _as_list(answers), _as_list(correct)
    index = _as_list(samples) if samples is not None else list(range(len(answers)))
    cut = _as_list(truncated) if truncated is not None else [False] * len(answers)
    rows = sorted(zip(index, answers, correct, cut, strict=True), key=lambda r: r[0])[:n]
    classes: Counter = Counter()
    for _, answer, ok, was_cut in rows:
        if was_cut or (not ok and not answer):
            classes[None] += 1
        elif ok:
            classes[True] += 1
        else:
            classes[answer_class_key(answer)] += 1
    total = sum(classes.values())
    if total == 0:
        return None
    return float(-sum((c / total) * math.log(c / total) for c in classes.values()))


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
