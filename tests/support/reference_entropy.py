"""A sample-by-sample reference of the answer entropy, the test of the store's one implementation.

``answer_entropy`` follows the definition in sampler/store/shards/answer_summary.py's
docstring literally (the first N verified samples by sample index; correct ones one
class; no answer or truncated "NA"; others by answer-class key), so that the tests can
hold the vectorised ``first_n_entropy`` (and everything built on it) against it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from sampler.store import DEFAULT_ENTROPY_SAMPLES, answer_class_key


def _as_list(values: Any) -> list:
    if isinstance(values, pa.ChunkedArray | pa.Array):
        return values.to_pylist()
    return list(values)


def answer_entropy(
    answers: Iterable[str | None],
    correct: Iterable[bool | None],
    samples: Iterable[int] | None = None,
    truncated: Iterable[bool | None] | None = None,
    n: int = DEFAULT_ENTROPY_SAMPLES,
) -> float | None:
    """Answer entropy (nats) of one question's verified samples, as answer_summary
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
