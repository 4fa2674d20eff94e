"""Per-group reductions of the answer-class counts (SampleStats.classes), batch by batch.

``SampleStats.classes`` holds one row per (group, answer class) present: the correct
class, "NA" and one row per distinct wrong answer string. With answers as varied as a
base model's that is most of a sample's worth of rows (25 million samples: about 16
million rows), so everything here runs over record batches of BATCH_ROWS rows, with
numpy temporaries the size of a batch, and never turns answer strings into Python
objects but for the few that pyarrow cannot key (store.answer_classes.answer_class_keys).

``vote_classes`` gives maj@n and the number of distinct voting classes; ``class_ranks``
the number of answer classes and the rank of the correct one (answer_stats).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store.side_tables.answer_classes import answer_class_keys
from sampler.store.side_tables.entropy_samples import KIND_ANSWER, KIND_CORRECT

#: rows per batch: bounds the numpy temporaries (about 40 bytes a row) of every pass
BATCH_ROWS = 1 << 20


def _batches(classes: pa.Table) -> list[pa.RecordBatch]:
    return classes.select(["group", "kind", "count", "answer"]).to_batches(BATCH_ROWS)


def _columns(batch: pa.RecordBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(group int64, kind, count int64) of a batch, without copies where possible."""
    group = batch.column(0).to_numpy().astype(np.int64, copy=False)
    kind = batch.column(1).to_numpy()
    count = batch.column(2).to_numpy().astype(np.int64, copy=False)
    return group, kind, count


def class_ranks(
    classes: pa.Table, n_correct: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """(answer classes, 1 + classes strictly more frequent than the correct one) per group,
    classes by answer string as answer_stats.gold_share_and_rank counts them."""
    n_classes = np.zeros(size, dtype=np.int64)
    above = np.zeros(size, dtype=np.int64)
    for batch in _batches(classes):
        group, kind, count = _columns(batch)
        n_classes += np.bincount(group, minlength=size)
        more = (count > n_correct[group]) & (kind != KIND_CORRECT)
        above += np.bincount(group[more], minlength=size)
    return n_classes, 1 + above


def _answer_codes(
    batches: list[pa.RecordBatch],
) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Per batch, the index of each row's answer in one dictionary of the distinct strings;
    per distinct string, the code of its class key and whether another string has that
    key too (``2.5`` beside ``5/2``)."""
    answers = pa.chunked_array([b.column(3) for b in batches])
    if pa.types.is_dictionary(answers.type):  # a dictionary-encoded answer column, as is
        encoded = answers.unify_dictionaries()
    else:
        encoded = pc.dictionary_encode(answers.cast(pa.string()))
    # one dictionary shared by every chunk (a value twice in it: its rows are summed)
    dictionary = encoded.chunk(0).dictionary
    index = [pc.fill_null(c.indices, 0).to_numpy() for c in encoded.chunks]
    keys = pc.dictionary_encode(answer_class_keys(dictionary))
    code = pc.fill_null(keys.indices, 0).to_numpy().astype(np.int64)
    strings_per_key = np.bincount(code, minlength=len(keys.dictionary))
    return index, code, strings_per_key[code] > 1


def _wrong_rows(
    batch: pa.RecordBatch, index: np.ndarray, shared: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(group, count, answer index, shared key?) of the batch's wrong-answer rows."""
    group, kind, count = _columns(batch)
    wrong = kind == KIND_ANSWER
    value = index[wrong]
    return group[wrong], count[wrong], value, shared[value]


def _shared_cells(
    held: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """(group, count) per (group, class key) of the rows whose key several strings share."""
    group = np.concatenate([h[0] for h in held]) if held else np.zeros(0, np.int64)
    code = np.concatenate([h[1] for h in held]) if held else np.zeros(0, np.int64)
    count = np.concatenate([h[2] for h in held]) if held else np.zeros(0, np.int64)
    width = int(code.max(initial=0)) + 1
    cells, inverse = np.unique(group * width + code, return_inverse=True)
    totals = np.bincount(inverse.reshape(-1), weights=count, minlength=cells.size)
    return cells // width, totals.astype(np.int64)


def vote_classes(classes: pa.Table, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(maj@n, distinct answers) of each group.

    maj@n: 1 when the correct class is the most frequent answer class of all verified
    samples, 1/t when it ties with t − 1 others, else 0. Samples without an answer
    do not vote; wrong answers vote by their store.answer_classes key, so ``2.5`` and
    ``5/2`` are one vote (``classes``: SampleStats.classes, one row per answer string).

    maj@n (Wang et al., self-consistency, arXiv 2203.11171) with ties broken uniformly.
    Distinct answers: the number of these voting classes (correct one included).

    The class key is computed once per distinct answer string; only the rows whose key
    several strings share are summed per (group, key), every other row is a voting
    class of its own. Two passes: the largest class of each group, then its ties.
    """
    correct = np.zeros(size, dtype=np.int64)
    has_correct = np.zeros(size, dtype=bool)
    top = np.zeros(size, dtype=np.int64)
    distinct = np.zeros(size, dtype=np.int64)
    batches = _batches(classes)
    if not batches:
        return np.zeros(size), distinct
    index, code, shared = _answer_codes(batches)
    held = []
    for batch, rows in zip(batches, index, strict=True):
        group, kind, count = _columns(batch)
        right = kind == KIND_CORRECT
        correct += np.bincount(group[right], weights=count[right], minlength=size).astype(np.int64)
        has_correct[group[right]] = True
        group, count, value, joint = _wrong_rows(batch, rows, shared)
        np.maximum.at(top, group[~joint], count[~joint])
        distinct += np.bincount(group[~joint], minlength=size)
        held.append((group[joint], code[value[joint]], count[joint]))
    cell_group, cell_total = _shared_cells(held)
    np.maximum.at(top, cell_group, cell_total)
    distinct += np.bincount(cell_group, minlength=size)
    top = np.maximum(top, correct)
    ties = np.bincount(cell_group[cell_total == top[cell_group]], minlength=size)
    for batch, rows in zip(batches, index, strict=True):
        group, count, _, joint = _wrong_rows(batch, rows, shared)
        alone_group = group[~joint]
        ties += np.bincount(alone_group[count[~joint] == top[alone_group]], minlength=size)
    wins = has_correct & (correct == top)
    share = np.where(wins, 1.0 / np.maximum(ties + wins, 1), 0.0)
    return share, distinct + has_correct
