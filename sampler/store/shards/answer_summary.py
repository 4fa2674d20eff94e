"""Per-group answer statistics of a folder's key statistics: entropy, classes, votes, rank.

``answer_stats_table`` reduces a SampleStats (store.key_stats: per-group status counts,
answer-class counts and first verified samples) to one row per (benchmark, question_id,
model), with the same answer classes as the one-question functions of
leash_tui.analysis.answer_stats (no answer is "NA", all correct samples one class). It
lives in the store because the shard index keeps its result for the default N
(shards.shard_index), so that opening a folder of answers as varied as a base model's
never decodes its millions of answer classes.

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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store.shards import answer_class_votes
from sampler.store.shards.answer_class_votes import class_ranks, vote_classes
from sampler.store.shards.key_stats import SLOT_UNVERIFIED, SampleStats
from sampler.store.side_tables.entropy_samples import (
    DEFAULT_ENTROPY_SAMPLES,
    KIND_ANSWER,
)

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
