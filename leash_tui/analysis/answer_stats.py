"""Per-question answer and token-entropy statistics of every model, from sample columns.

``answer_distribution`` and ``gold_share_and_rank`` compute them for one question's
samples (the explorer); their vectorised counterpart for all (benchmark, question_id,
model) groups at once is the store's ``answer_summary.answer_stats_table``
(same answer classes: no answer is "NA", all correct samples form one class), made from
the per-group answer-class counts of store.key_stats (the ``status``, ``answer`` and
``token_entropy`` columns, never the completion text); ``question_answer_stats`` applies
it to one question's rows.

The answer classes, which samples count, and the answer entropy over the first N samples
(the paper's) are defined once, in the store's answer_summary module docstring, and the
answer entropy has one implementation, the store's (``first_n_entropy``; one question's is
``question_answer_stats``); tests/support/reference_entropy.py recomputes it sample by
sample as its test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from sampler.store import DEFAULT_ENTROPY_SAMPLES, answer_stats_table, chunk_stats

NO_ANSWER = "NA"


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
