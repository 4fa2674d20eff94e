"""The vectorised answer statistics (majority vote, distinct answers, answer classes, gold
rank) equal the per-question definitions on varied answers, notation-equal ones included,
whatever the batches and however a question's samples are split between shards."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leash_tui.analysis.answer_stats import (
    answer_distribution,
    gold_share_and_rank,
    question_answer_stats,
)
from sampler.store.shards import answer_class_votes
from sampler.store.shards.answer_summary import answer_stats_table
from sampler.store.shards.key_stats import chunk_stats, merge_stats
from sampler.store.side_tables.answer_classes import answer_class_key, answer_class_keys
from tests.support.reference_entropy import answer_entropy

#: answers equal up to notation, and near misses that are not
POOL = [
    "2.5", r"\frac52", "5/2", "2.50", "+2.5", "--2.5", "5", "5.0", "05", "{5}", "5.",
    "-0.5", r"-\frac12", "-1/2", "0", "-0", "0.0", "1e3", "1000", "1000.000", "x+1",
    "x + 1", "(1,2)", r"\left(1,2\right)", "7", "8", "1/0", "=5", r"\sqrt{2}", "٣",
    "12345678901234567890", "1234567890123456789.5", ".5", "a.b.", "",
]  # fmt: skip
GOLD = "42"


def test_keys_of_tricky_answers_equal_the_scalar_key():
    values = pa.array([*POOL, None])
    assert answer_class_keys(values).to_pylist() == [
        None if v is None else answer_class_key(v) for v in values.to_pylist()
    ]
    assert answer_class_keys(pa.array([], pa.string())).to_pylist() == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0123456789+-./eE{}\\$ ~xfrac٣\xa0", max_size=12)))
def test_keys_of_random_strings_equal_the_scalar_key(texts):
    assert answer_class_keys(pa.array(texts, pa.string())).to_pylist() == [
        answer_class_key(t) for t in texts
    ]


def reference(answers: list[str | None], correct: list[bool], samples: list[int]) -> dict:
    """One question's statistics straight from the definitions, one sample at a time."""
    votes: Counter = Counter()
    for answer, ok in zip(answers, correct, strict=True):
        if ok:
            votes[True] += 1
        elif answer:
            votes[answer_class_key(answer)] += 1
    top = max(votes.values(), default=0)
    tied = sum(1 for v in votes.values() if v == top)
    share, rank = gold_share_and_rank(answers, correct)
    return {
        "majority": 1 / tied if votes.get(True, 0) == top > 0 else 0.0,
        "distinct_answers": len(votes),
        "answer_classes": len(answer_distribution(answers, correct)),
        "gold_share": share,
        "gold_rank": rank,
        "answer_entropy": answer_entropy(answers, correct, samples=samples),
    }


def random_rows(rng: np.random.Generator, questions: int) -> pa.Table:
    """Samples of 2 models on ``questions`` questions: gold, no answer, notation-equal
    answers from POOL and many distinct numbers, in a shuffled row order."""
    rows = []
    for q in range(questions):
        distinct = int(rng.integers(1, 400))
        for model in ("base", "rl"):
            for s in range(int(rng.integers(1, 60))):
                u = rng.random()
                answer = (
                    GOLD
                    if u < 0.2
                    else None
                    if u < 0.3
                    else POOL[int(rng.integers(len(POOL)))]
                    if u < 0.6
                    else str(int(rng.integers(distinct)) + 100)
                )
                status = "correct" if answer == GOLD else "no_answer" if not answer else (
                    "incorrect"
                )  # fmt: skip
                rows.append(("b", str(q), model, s, status, answer))
    order = rng.permutation(len(rows))
    columns = list(zip(*(rows[i] for i in order), strict=True))
    return pa.table(
        {
            "benchmark": pa.array(columns[0]),
            "question_id": pa.array(columns[1]),
            "model": pa.array(columns[2]),
            "sample": pa.array(columns[3], pa.int32()),
            "status": pa.array(columns[4]),
            "answer": pa.array(columns[5], pa.string()),
            "finish_reason": pa.array(["stop"] * len(rows)),
        }
    )


def rounded(row: dict) -> dict:
    return {k: round(v, 12) if isinstance(v, float) else v for k, v in row.items()}


def expected(table: pa.Table) -> dict[tuple[str, str], dict]:
    groups: dict[tuple[str, str], tuple[list, list, list]] = {}
    for row in table.to_pylist():
        key = (row["question_id"], row["model"])
        answers, correct, samples = groups.setdefault(key, ([], [], []))
        answers.append(row["answer"])
        correct.append(row["status"] == "correct")
        samples.append(row["sample"])
    return {key: rounded(reference(*lists)) for key, lists in groups.items()}


def got(stats: pa.Table) -> dict[tuple[str, str], dict]:
    names = (
        "majority",
        "distinct_answers",
        "answer_classes",
        "gold_share",
        "gold_rank",
        "answer_entropy",
    )
    return {
        (row["question_id"], row["model"]): rounded({name: row[name] for name in names})
        for row in stats.to_pylist()
    }


@pytest.mark.parametrize("batch_rows", [answer_class_votes.BATCH_ROWS, 7])
def test_vectorised_statistics_equal_the_definitions(monkeypatch, batch_rows):
    monkeypatch.setattr(answer_class_votes, "BATCH_ROWS", batch_rows)
    rng = np.random.default_rng(24)
    table = random_rows(rng, 30)
    want = expected(table)
    # gold rank is shown only where the answer entropy is defined (every group here)
    assert got(question_answer_stats(table)) == want
    # the same samples spread over four shards that split questions between them
    parts = [chunk_stats(table.slice(i, 500)) for i in range(0, table.num_rows, 500)]
    assert len(parts) >= 4
    assert got(answer_stats_table(merge_stats(parts))) == want
    # answer strings stored dictionary-encoded give the same statistics
    stats = chunk_stats(table)
    answers = stats.classes.column("answer")
    stats.classes = stats.classes.set_column(2, "answer", pc.dictionary_encode(answers))
    assert got(answer_stats_table(stats)) == want


def test_notation_equal_answers_are_one_vote_however_many_strings():
    # 2.5 written three ways (3 votes) beats 7 (2 votes) and the gold (2): maj@n 0
    answers = ["2.5", r"\frac52", "5/2", "7", "7", GOLD, GOLD]
    table = pa.table(
        {
            "benchmark": ["b"] * 7,
            "question_id": ["1"] * 7,
            "model": ["m"] * 7,
            "status": ["correct" if a == GOLD else "incorrect" for a in answers],
            "answer": answers,
        }
    )
    row = question_answer_stats(table).to_pylist()[0]
    assert (row["majority"], row["distinct_answers"], row["answer_classes"]) == (0.0, 3, 5)
    # with one vote fewer for 2.5 the gold ties with 7 and 2.5: a third
    row = question_answer_stats(table.slice(1)).to_pylist()[0]
    assert row["majority"] == pytest.approx(1 / 3)


def test_answer_entropy_does_not_depend_on_the_order_of_the_first_samples_table():
    table = random_rows(np.random.default_rng(5), 12)
    stats = chunk_stats(table)
    assert stats.first is not None
    want = answer_stats_table(stats).column("answer_entropy").to_pylist()
    shuffled = np.random.default_rng(6).permutation(stats.first.num_rows)
    stats.first = stats.first.take(pa.array(shuffled))
    assert answer_stats_table(stats).column("answer_entropy").to_pylist() == pytest.approx(want)
    assert answer_stats_table(stats, 8).column("answer_entropy").to_pylist() != want
