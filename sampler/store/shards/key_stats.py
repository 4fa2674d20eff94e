"""Per-(benchmark, question_id, model) statistics of samples, chunk by chunk, then merged.

Each chunk of rows is grouped (key_groups) and reduced to a few numbers per
group: the number of samples per verification status (and how many of those verdicts
are trusted source verdicts, not leash's), the sum and count of token entropies, how
many verified samples carry answer data, and the count of each answer class.
Partial results of all chunks are merged by key, so a folder of any size is
summarised with the memory of a few chunks.

Answer classes (the same as leash_tui.analysis.answer_stats.answer_distribution): every sample
verified correct is in one class; a verified sample without an answer (null or
empty) is in the class "NA"; any other verified sample is in the class of its
answer string. Unverified samples (status null) are in no class.

For answer entropy at a fixed N, each group also keeps its first verified samples by
sample index with their entropy class (store.entropy_samples): correct samples one
class, samples without an answer or truncated (``finish_reason`` "length") the class
"NA", any other answer the class of its store.answer_classes key, so that answers equal
up to notation (``2.5``, ``\\frac52``) are one class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store.schema import (
    STATUS_CORRECT,
    STATUS_ERROR,
    STATUS_INCORRECT,
    STATUS_NO_ANSWER,
    STATUS_NO_GOLD,
    STATUS_TIMEOUT,
    VERDICT_SOURCE_TRUSTED,
)
from sampler.store.shards.key_groups import GROUP_KEYS, SampleGroups, group_samples
from sampler.store.side_tables.answer_classes import answer_class_keys
from sampler.store.side_tables.entropy_samples import (
    DEFAULT_ENTROPY_SAMPLES,
    KIND_ANSWER,
    KIND_CORRECT,
    KIND_NA,
    empty_first,
    first_samples,
    merge_first,
)

#: the status columns of the counts, in order; then "other" (verified, unknown status),
#: "unverified" (status null) and "no gold" (status no_gold: graded against nothing, so
#: neither verified nor waiting for a verdict)
STATUS_SLOTS = (STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER, STATUS_TIMEOUT, STATUS_ERROR)
SLOT_OTHER = len(STATUS_SLOTS)
SLOT_UNVERIFIED = SLOT_OTHER + 1
SLOT_NO_GOLD = SLOT_UNVERIFIED + 1
SLOTS = SLOT_NO_GOLD + 1
COUNT_COLUMNS = ("n_correct", "n_incorrect", "n_no_answer", "n_timeout", "n_error")


@dataclass
class SampleStats:
    """Statistics per group (one row of ``keys`` each), from one chunk or merged."""

    keys: pa.Table  # benchmark, question_id, model as strings, sorted, one row per group
    status: np.ndarray  # groups x SLOTS sample counts, int64
    token_sum: np.ndarray  # float64 sum of token entropies
    token_n: np.ndarray  # int64 number of samples with a token entropy
    evidence: np.ndarray  # int64 verified samples with an answer or status no_answer
    classes: pa.Table  # group (int64), kind (int8), answer (string, null unless kind 2),
    #                    count (int64): one row per answer class present
    #: smallest and largest sample index per group (None when the rows' ``sample`` column
    #: was not read, or a footer summary predates them): what sample_keys checks for
    #: a sample key held twice
    sample_min: np.ndarray | None = None
    sample_max: np.ndarray | None = None
    #: the shard these statistics come from (None once merged)
    source: str | None = None
    #: int64 verified samples whose verdict is a trusted source verdict (``verdict_source``
    #: = "source", from ``leash import --trust-verdicts``), not leash's; None: all zero
    trusted: np.ndarray | None = None
    #: store.entropy_samples table: per group its first ``first_keep`` verified samples by
    #: sample index and their entropy class; None when the ``answer`` column was not read
    first: pa.Table | None = None
    first_keep: int = 0

    @property
    def groups(self) -> int:
        return self.keys.num_rows


def _dictionary(column: pa.ChunkedArray | pa.Array) -> pa.DictionaryArray:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column.cast(pa.string()))
    return column


def _codes(column: pa.DictionaryArray) -> np.ndarray:
    """Dictionary index per row, -1 for null."""
    return pc.fill_null(column.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)


def empty_classes() -> pa.Table:
    return pa.table(
        {
            "group": pa.array([], pa.int64()),
            "kind": pa.array([], pa.int8()),
            "answer": pa.array([], pa.string()),
            "count": pa.array([], pa.int64()),
        }
    )


class DuplicateSample(ValueError):
    """Rows of one chunk hold the same sample key twice (``key``: benchmark, question_id,
    model, sample)."""

    def __init__(self, key: tuple[str, str, str, int]):
        super().__init__(key)
        self.key = key


def sample_ranges(
    codes: np.ndarray, sample: np.ndarray, size: int
) -> tuple[int, int, np.ndarray, np.ndarray]:
    """Per group: smallest and largest sample index, and any (group, sample) seen twice.

    Returns (-1, -1, min, max); on a duplicate, its group and sample and empty arrays.
    Linear when the rows are in shard order (the usual case: shards are sorted),
    a sort otherwise.
    """
    packed = (codes.astype(np.int64) << 32) | (sample.astype(np.int64) + (1 << 31))
    if packed.size > 1 and not bool(np.all(packed[1:] > packed[:-1])):
        packed = np.sort(packed)
        same = np.flatnonzero(packed[1:] == packed[:-1])
        if same.size:
            key = int(packed[same[0]])
            return key >> 32, (key & 0xFFFFFFFF) - (1 << 31), np.empty(0), np.empty(0)
    group = packed >> 32
    value = (packed & 0xFFFFFFFF) - (1 << 31)
    lows = np.full(size, -1, dtype=np.int64)
    highs = np.full(size, -1, dtype=np.int64)
    if packed.size:
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ends = np.r_[starts[1:], packed.size] - 1
        lows[group[starts]] = value[starts]
        highs[group[ends]] = value[ends]
    return -1, -1, lows, highs


def chunk_stats(table: pa.Table, keep: int = DEFAULT_ENTROPY_SAMPLES) -> SampleStats:
    """Statistics of the rows of ``table`` (key columns; status, answer, token_entropy,
    verdict_source, finish_reason and sample when present, string columns plain or
    dictionary-encoded). ``keep``: first samples per group kept for answer entropy
    (without a ``sample`` column, row order stands for the sample index).

    With a ``sample`` column, a sample key present twice raises DuplicateSample.
    """
    grouped = group_samples(table, GROUP_KEYS)
    size, codes = grouped.count, grouped.codes
    names = table.column_names
    sample_min, sample_max = _sample_span(table, grouped)
    slots, status_code, status_values = _status_slots(table, codes.size)
    counts = np.bincount(codes * SLOTS + slots, minlength=size * SLOTS).reshape(size, SLOTS)
    token_sum, token_n = _token_sums(table, codes, size)

    evidence = np.zeros(size, dtype=np.int64)
    classes = empty_classes()
    first = None
    if "answer" in names:
        verified = slots < SLOT_UNVERIFIED
        correct = slots == 0
        answer = _dictionary(table.column("answer"))
        answer_values = answer.dictionary.to_pylist()
        answer_code = _codes(answer)
        empty = [i for i, v in enumerate(answer_values) if v == ""]
        has_answer = answer_code >= 0
        if empty:
            has_answer &= ~np.isin(answer_code, empty)
        no_answer_status = (
            status_code == status_values.index(STATUS_NO_ANSWER)
            if STATUS_NO_ANSWER in status_values
            else np.zeros(codes.size, dtype=bool)
        )
        evidence = np.bincount(
            codes[verified & (has_answer | no_answer_status)], minlength=size
        ).astype(np.int64)
        # class index: 0 correct, 1 NA, 2 + i the answer answer_values[i]
        width = len(answer_values) + 2
        cls = np.where(correct, KIND_CORRECT, np.where(has_answer, answer_code + 2, KIND_NA))
        keys = codes[verified] * width + cls[verified]
        if size * width <= max(4 * keys.size, 1 << 22):
            dense = np.bincount(keys, minlength=size * width)
            class_keys = np.flatnonzero(dense)
            class_counts = dense[class_keys]
        else:
            class_keys, class_counts = np.unique(keys, return_counts=True)
        group, index = np.divmod(class_keys, width)
        kind = np.minimum(index, KIND_ANSWER).astype(np.int8)
        answer_index = np.where(index >= 2, index - 2, 0)
        answers = pa.array(
            np.array(answer_values or [None], dtype=object)[answer_index],
            pa.string(),
            mask=index < 2,
        )
        classes = pa.table(
            {
                "group": pa.array(group.astype(np.int64)),
                "kind": pa.array(kind),
                "answer": answers,
                "count": pa.array(class_counts.astype(np.int64)),
            }
        )
        first = _first_table(table, codes, verified, correct, has_answer, answer_code,
                             answer_values, keep)  # fmt: skip
    trusted = _trusted_counts(table, codes, slots, size)
    return SampleStats(grouped.keys, counts.astype(np.int64), token_sum, token_n, evidence,
                       classes, sample_min, sample_max, trusted=trusted, first=first,
                       first_keep=keep if first is not None else 0)  # fmt: skip


def _int_column(table: pa.Table, name: str, null: int = -1) -> np.ndarray:
    column = table.column(name)
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    return pc.fill_null(column.cast(pa.int64()), null).to_numpy(zero_copy_only=False)


def _sample_span(
    table: pa.Table, grouped: SampleGroups
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Smallest and largest sample index per group (None without a ``sample`` column); a
    sample key present twice raises DuplicateSample."""
    if "sample" not in table.column_names:
        return None, None
    values = _int_column(table, "sample")
    dup_group, dup_sample, low, high = sample_ranges(grouped.codes, values, grouped.count)
    if dup_group >= 0:
        row = grouped.keys.slice(dup_group, 1).to_pylist()[0]
        raise DuplicateSample((*(str(row[k]) for k in GROUP_KEYS), dup_sample))
    return low, high


def _status_slots(table: pa.Table, rows: int) -> tuple[np.ndarray, np.ndarray, list[str | None]]:
    """(count slot, status code) per row and the status values the codes index."""
    if "status" not in table.column_names:
        unverified = np.full(rows, SLOT_UNVERIFIED, dtype=np.int64)
        return unverified, np.full(rows, -1, dtype=np.int64), []
    status = _dictionary(table.column("status"))
    values = status.dictionary.to_pylist()
    code = _codes(status)
    slot_of = np.array(
        [
            STATUS_SLOTS.index(v)
            if v in STATUS_SLOTS
            else SLOT_NO_GOLD
            if v == STATUS_NO_GOLD
            else SLOT_OTHER
            for v in values
        ]
        or [SLOT_OTHER],
        dtype=np.int64,
    )
    slots = np.where(code >= 0, slot_of[np.maximum(code, 0)], SLOT_UNVERIFIED)
    return slots, code, values


def _token_sums(table: pa.Table, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Sum and count of the token entropies per group (samples without one left out)."""
    if "token_entropy" not in table.column_names:
        return np.zeros(size), np.zeros(size, dtype=np.int64)
    token = table.column("token_entropy")
    token = token.combine_chunks() if isinstance(token, pa.ChunkedArray) else token
    values = pc.fill_null(token.cast(pa.float64()), np.nan).to_numpy(zero_copy_only=False)
    ok = np.isfinite(values)  # null, nan or inf (a crafted shard's): no measurement
    token_sum = np.bincount(codes, weights=np.where(ok, values, 0.0), minlength=size)
    return token_sum, np.bincount(codes[ok], minlength=size).astype(np.int64)


def _trusted_counts(table: pa.Table, codes: np.ndarray, slots: np.ndarray, size: int) -> np.ndarray:
    """Verdicts per group that are trusted source verdicts (``verdict_source``)."""
    trusted = np.zeros(size, dtype=np.int64)
    if "verdict_source" not in table.column_names:
        return trusted
    marked = _dictionary(table.column("verdict_source"))
    marks = marked.dictionary.to_pylist()
    if VERDICT_SOURCE_TRUSTED not in marks:
        return trusted
    hit = (_codes(marked) == marks.index(VERDICT_SOURCE_TRUSTED)) & (slots != SLOT_UNVERIFIED)
    return np.bincount(codes[hit], minlength=size).astype(np.int64)


def _first_table(
    table: pa.Table,
    codes: np.ndarray,
    verified: np.ndarray,
    correct: np.ndarray,
    has_answer: np.ndarray,
    answer_code: np.ndarray,
    answer_values: list[str | None],
    keep: int,
) -> pa.Table:
    """store.entropy_samples table of the verified rows (see the module docstring)."""
    names = table.column_names
    truncated = np.zeros(codes.size, dtype=bool)
    if "finish_reason" in names:
        finish = _dictionary(table.column("finish_reason"))
        reasons = finish.dictionary.to_pylist()
        if "length" in reasons:
            truncated = _codes(finish) == reasons.index("length")
    if "sample" in names:
        index = _int_column(table, "sample")
    else:
        index = np.arange(codes.size, dtype=np.int64)
    kind = np.where(
        truncated | ~(correct | has_answer),
        KIND_NA,
        np.where(correct, KIND_CORRECT, KIND_ANSWER),
    ).astype(np.int8)
    rows = np.flatnonzero(verified)
    is_answer = kind[rows] == KIND_ANSWER
    # one class key per distinct answer string, not per row, vectorised: a chunk of answers
    # as varied as a base model's holds 145k strings (11 µs each one by one: 1.6 s a chunk)
    strings = pa.array(answer_values or [None], pa.string())
    value_keys = answer_class_keys(pc.if_else(pc.equal(strings, ""), None, strings))
    key = value_keys.take(pa.array(np.maximum(answer_code[rows], 0), mask=~is_answer))
    return first_samples(codes[rows], index[rows], kind[rows], key, keep)


def merge_stats(parts: Sequence[SampleStats]) -> SampleStats:
    """One SampleStats with the sum of ``parts`` per key (keys sorted)."""
    parts = [p for p in parts if p.groups]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return _no_stats()
    merged = group_samples(pa.concat_tables([p.keys for p in parts]), GROUP_KEYS)
    size = merged.count
    offsets = np.cumsum([0] + [p.groups for p in parts])
    targets = [
        merged.codes[start : start + part.groups]
        for part, start in zip(parts, offsets[:-1], strict=True)
    ]

    def summed(name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        total = np.zeros(shape, dtype=dtype)
        for part, target in zip(parts, targets, strict=True):
            value = getattr(part, name)
            if value is not None:
                np.add.at(total, target, value)
        return total

    sample_min, sample_max = _merged_ranges(parts, targets, size)
    pairs = list(zip(parts, targets, strict=True))
    classes = _sum_classes(
        [_relabelled(p.classes, t) for p, t in pairs if p.classes.num_rows], size
    )
    with_first = all(p.first is not None for p in parts)
    keep = min(p.first_keep for p in parts) if with_first else 0
    first = None
    if with_first:
        pieces = [(p.first, t) for p, t in pairs if p.first is not None and p.first.num_rows]
        first = merge_first([_relabelled(table, t) for table, t in pieces], keep)
    return SampleStats(
        merged.keys, summed("status", (size, SLOTS), np.int64), summed("token_sum", (size,), float),
        summed("token_n", (size,), np.int64), summed("evidence", (size,), np.int64), classes,
        sample_min, sample_max, trusted=summed("trusted", (size,), np.int64), first=first,
        first_keep=keep,
    )  # fmt: skip


def _merged_ranges(
    parts: Sequence[SampleStats], targets: Sequence[np.ndarray], size: int
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Smallest and largest sample index per merged group (None unless every part has them)."""
    if not all(p.sample_min is not None and p.sample_max is not None for p in parts):
        return None, None
    low = np.full(size, np.iinfo(np.int64).max)
    high = np.full(size, -1, dtype=np.int64)
    for part, target in zip(parts, targets, strict=True):
        np.minimum.at(low, target, part.sample_min)
        np.maximum.at(high, target, part.sample_max)
    return low, high


def _no_stats() -> SampleStats:
    keys = pa.table({k: pa.array([], pa.string()) for k in GROUP_KEYS})
    empty = np.zeros(0, dtype=np.int64)
    return SampleStats(keys, np.zeros((0, SLOTS), np.int64), np.zeros(0), empty, empty,
                       empty_classes(), first=empty_first(),
                       first_keep=DEFAULT_ENTROPY_SAMPLES)  # fmt: skip


def _relabelled(table: pa.Table, target: np.ndarray) -> pa.Table:
    """``table`` with its part-local ``group`` codes mapped to the merged ones."""
    local = table.column("group").to_numpy()
    return table.set_column(0, "group", pa.array(target[local]))


def restricted(stats: SampleStats, keep: np.ndarray) -> SampleStats:
    """``stats`` of the groups where ``keep`` (a bool per group) is set, in their order,
    group codes renumbered: what a per-group computation needs of those groups alone."""
    code = np.cumsum(keep) - 1

    def rows(table: pa.Table | None) -> pa.Table | None:
        if table is None:
            return None
        group = table.column("group").to_numpy()
        held = keep[group]
        table = table.filter(pa.array(held))
        return table.set_column(0, "group", pa.array(code[group[held]], pa.int64()))

    def cut(values: np.ndarray | None) -> np.ndarray | None:
        return None if values is None else values[keep]

    return SampleStats(
        stats.keys.filter(pa.array(keep)), stats.status[keep], stats.token_sum[keep],
        stats.token_n[keep], stats.evidence[keep], rows(stats.classes), cut(stats.sample_min),
        cut(stats.sample_max), trusted=cut(stats.trusted), first=rows(stats.first),
        first_keep=stats.first_keep,
    )  # fmt: skip


def _sum_classes(tables: list[pa.Table], size: int) -> pa.Table:
    """The class counts of ``tables`` (merged group codes) summed per (group, kind, answer).

    A group held by one part only (the usual case: shards are sorted by question, so a
    question's samples sit in one shard) needs no summing; only the rows of groups that
    several parts hold go through a hash aggregation, so time and memory stay those of
    a concatenation however varied the answers are.
    """
    if not tables:
        return empty_classes()
    parts_of = np.zeros(size, dtype=np.int64)
    for table in tables:
        parts_of[np.unique(table.column("group").to_numpy())] += 1
    whole = pa.concat_tables(tables)
    if whole.num_rows == 0 or parts_of.max(initial=0) <= 1:
        return whole.select(["group", "kind", "answer", "count"])
    shared = parts_of[whole.column("group").to_numpy()] > 1
    summed = (
        whole.filter(pa.array(shared))
        .group_by(["group", "kind", "answer"], use_threads=False)
        .aggregate([("count", "sum")])
    )
    summed = summed.rename_columns(
        ["count" if c == "count_sum" else c for c in summed.column_names]
    ).select(["group", "kind", "answer", "count"])
    alone = whole.filter(pa.array(~shared)).select(["group", "kind", "answer", "count"])
    return pa.concat_tables([alone, summed.cast(alone.schema)])


def counts_table(stats: SampleStats) -> pa.Table:
    """Verdict counts: benchmark, question_id, model, n, n_verified, n_correct, ..., n_error,
    n_trusted (verdicts that are trusted source verdicts, not leash's), n_no_gold (samples
    of questions without a gold, neither verified nor unverified)."""
    s = stats.status
    trusted = stats.trusted if stats.trusted is not None else np.zeros(stats.groups, np.int64)
    return pa.table(
        {
            **{k: stats.keys.column(k) for k in GROUP_KEYS},
            "n": pa.array(s.sum(axis=1).astype(np.int64)),
            "n_verified": pa.array(s[:, :SLOT_UNVERIFIED].sum(axis=1).astype(np.int64)),
            **{name: pa.array(s[:, i]) for i, name in enumerate(COUNT_COLUMNS)},
            "n_trusted": pa.array(trusted.astype(np.int64)),
            "n_no_gold": pa.array(s[:, SLOT_NO_GOLD].astype(np.int64)),
        }
    )
