"""Verdict counts and per-question answer statistics from sample rows and shards."""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leash_tui.analysis.answer_stats import (
    gold_share_and_rank,
    question_answer_stats,
)
from leash_tui.report.data import load_report_data
from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.shards import key_groups
from sampler.store.shards.key_groups import group_samples, read_shard_columns
from sampler.store.shards.reader import count_verdicts
from sampler.store.shards.writer import append_samples
from tests.support.folder_builders import build_folder, sample_rows, samples_table
from tests.support.reference_entropy import answer_entropy

COUNT_COLUMNS = ["n", "n_verified", "n_correct", "n_incorrect", "n_no_answer", "n_timeout",
                 "n_error"]  # fmt: skip


def naive_counts(rows):
    """The counts by hand: a dict (benchmark, qid, model) -> [n, verified, per status...]."""
    out: dict[tuple, list[int]] = {}
    statuses = ["correct", "incorrect", "no_answer", "timeout", "error"]
    for r in rows:
        key = (r["benchmark"], r["question_id"], r["model"])
        entry = out.setdefault(key, [0] * 7)
        entry[0] += 1
        if r["status"] is not None:
            entry[1] += 1
            if r["status"] in statuses:
                entry[2 + statuses.index(r["status"])] += 1
    return out


def test_verdict_counts_over_several_shards(tmp_path):
    spec = {
        ("alg", "1"): {"base": "C C I7 N", "rlvr": "C ? ? T"},
        ("alg", "10"): {"base": "E I I", "rlvr": "C C C C C"},
        ("alg", "2"): {"base": "?", "rlvr": "N N"},
        ("geo", "1"): {"base": "C", "rlvr": "I"},
    }
    root = build_folder(tmp_path / "r", spec, shards=3)
    # more samples of a question already present, in a later shard
    extra = sample_rows("alg", "1", "base", "C I", first_sample=4)
    append_samples(root, samples_table(extra))
    results = ResultsFolder.open(root)
    assert len(results.shard_paths()) == 4
    counts = results.verdict_counts()
    rows = [r for p in results.shard_paths() for r in read_rows(p)]
    expected = naive_counts(rows)
    keys = list(zip(*(counts.column(c).to_pylist() for c in ("benchmark", "question_id", "model")),
                    strict=True))  # fmt: skip
    assert keys == sorted(expected)  # one row per key, sorted as strings ("1" < "10" < "2")
    for i, key in enumerate(keys):
        assert [counts.column(c)[i].as_py() for c in COUNT_COLUMNS] == expected[key]
    assert expected[("alg", "1", "base")] == [6, 6, 3, 2, 1, 0, 0]  # C C I7 N + C I


def read_rows(path):
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


def test_verdict_counts_unknown_status_is_verified_but_uncategorised():
    table = samples_table(
        [
            {"benchmark": "b", "question_id": "1", "model": "m", "status": s}
            for s in ["correct", "maybe", None]
        ]
    )
    row = count_verdicts(table).to_pylist()[0]
    assert (row["n"], row["n_verified"], row["n_correct"], row["n_incorrect"]) == (3, 2, 1, 0)


def test_verdict_counts_of_an_empty_folder(tmp_path):
    root = build_folder(tmp_path / "r", {})
    counts = ResultsFolder.open(root).verdict_counts()
    assert counts.num_rows == 0
    assert counts.column_names == [
        "benchmark", "question_id", "model", *COUNT_COLUMNS, "n_trusted", "n_no_gold"
    ]  # fmt: skip


def test_unreadable_shard_is_named(tmp_path):
    root = build_folder(tmp_path / "r", {("b", "1"): {"base": "C", "rlvr": "I"}})
    bad = root / "samples" / "part-zzzz.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(LeashError, match=r"part-zzzz\.parquet"):
        ResultsFolder.open(root).verdict_counts()


def test_grouping_keeps_distinct_keys_apart():
    # plain (not dictionary) columns, keys that would collide if concatenated naively
    table = pa.table(
        {"benchmark": ["a", "a", "ab", "a"], "question_id": ["b1", "b1", "1", "b1"],
         "model": ["m", "n", "m", "m"]}
    )  # fmt: skip
    groups = group_samples(table)
    assert groups.keys.to_pylist() == [
        {"benchmark": "a", "question_id": "b1", "model": "m"},
        {"benchmark": "a", "question_id": "b1", "model": "n"},
        {"benchmark": "ab", "question_id": "1", "model": "m"},
    ]
    assert groups.codes.tolist() == [0, 1, 2, 0]


def test_read_shard_columns_fills_a_missing_optional_column(tmp_path):
    import pyarrow.parquet as pq

    root = build_folder(tmp_path / "r", {("b", "1"): {"base": "C", "rlvr": "I"}})
    old = root / "samples" / "part-0-old.parquet"
    pq.write_table(
        pa.table({"benchmark": ["b"], "question_id": ["2"], "model": ["base"],
                  "sample": pa.array([0], pa.int32()), "text": ["x"], "status": ["correct"]}),
        old,
    )  # fmt: skip
    paths = ResultsFolder.open(root).shard_paths()
    table = read_shard_columns(paths, ["benchmark", "question_id", "model", "token_entropy"])
    assert table.num_rows == 3
    assert table.column("token_entropy").null_count == 3


# -- answer statistics: vectorised == per question ------------------------------------
token = st.sampled_from(["C", "I7", "I8", "I9", "N", "?", "T", "T7", "E", "C42"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(token, min_size=1, max_size=12), min_size=1, max_size=6),
       st.randoms())  # fmt: skip
def test_answer_stats_match_the_per_question_functions(specs, rnd):
    rows = []
    for i, spec in enumerate(specs):
        for model in ("base", "rl"):
            tokens = list(spec)
            rnd.shuffle(tokens)
            values = [rnd.choice([None, rnd.random()]) for _ in tokens]
            rows += sample_rows("b", str(i), model, " ".join(tokens), token_entropy=values)
    rnd.shuffle(rows)  # the functions must not rely on row order
    table = samples_table(rows)
    stats = question_answer_stats(table).to_pylist()
    assert len(stats) == 2 * len(specs)
    for got in stats:
        mine = [
            r for r in rows if (r["question_id"], r["model"]) == (got["question_id"], got["model"])
        ]
        verified = [r for r in mine if r["status"] is not None]
        answers = [r["answer"] for r in verified]
        correct = [r["status"] == "correct" for r in verified]
        has_data = any(r["answer"] or r["status"] == "no_answer" for r in verified)
        assert got["n_verified"] == len(verified)
        if has_data:
            assert got["answer_entropy"] == pytest.approx(
                answer_entropy(answers, correct), abs=1e-12
            )
        else:
            assert got["answer_entropy"] is None
        share, rank = gold_share_and_rank(answers, correct)
        assert got["gold_share"] == share
        assert got["gold_rank"] == (rank if has_data else None)
        values = [r["token_entropy"] for r in mine if r["token_entropy"] is not None]
        assert got["token_entropy_n"] == len(values)
        assert got["token_entropy_sum"] == pytest.approx(sum(values))


def test_answer_stats_hand_values():
    rows = sample_rows("b", "1", "m", "C C42 I7 I7 I7 N ?")
    table = samples_table(rows)
    got = question_answer_stats(table).to_pylist()[0]
    # verified: 6; classes correct 2, "7" 3, NA 1
    expected = -sum(p * math.log(p) for p in (2 / 6, 3 / 6, 1 / 6))
    assert got["answer_entropy"] == pytest.approx(expected)
    assert (got["gold_share"], got["gold_rank"], got["answer_classes"]) == (2 / 6, 2, 3)


def test_answer_stats_without_answers_are_null():
    # verdicts imported without extracted answers: no answer data
    rows = [
        {"benchmark": "b", "question_id": "1", "model": "m", "status": s, "answer": None,
         "token_entropy": None}
        for s in ("correct", "incorrect", "incorrect")
    ]  # fmt: skip
    table = samples_table(rows)
    got = question_answer_stats(table).to_pylist()[0]
    assert got["answer_entropy"] is None and got["gold_rank"] is None
    assert got["gold_share"] == pytest.approx(1 / 3)
    assert got["token_entropy_n"] == 0


def test_statistics_of_a_question_split_over_shards_and_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(key_groups, "CHUNK_ROWS", 1)  # every row group its own chunk
    root = build_folder(tmp_path / "r", {("b", "1"): {"base": "C I7 I8 N", "rlvr": "C"}})
    later = [("C42 I7 I7 ?", 4), ("I8 T9 E N", 8), ("C I5 I7 I7", 12)]
    for spec, first in later:
        append_samples(root, samples_table(sample_rows("b", "1", "base", spec, first_sample=first,
                                                       token_entropy=[0.5] * 4)))  # fmt: skip
    results = ResultsFolder.open(root)
    assert len(results.shard_paths()) == 4
    data = load_report_data(root, use_cache=False)
    rows = read_shard_columns(results.shard_paths(), ["model", "status", "answer"]).to_pylist()
    verified = [r for r in rows if r["model"] == "base" and r["status"] is not None]
    answers = [r["answer"] for r in verified]
    correct = [r["status"] == "correct" for r in verified]
    base = data.answer_stats.filter(pc.equal(data.answer_stats.column("model"), "base"))
    got = base.to_pylist()[0]
    assert got["n_verified"] == len(verified) == 15
    assert got["answer_entropy"] == pytest.approx(answer_entropy(answers, correct))
    assert (got["gold_share"], got["gold_rank"]) == gold_share_and_rank(answers, correct)
    assert (got["token_entropy_n"], got["token_entropy_sum"]) == (12, pytest.approx(6.0))
    counts = data.counts.filter(pc.equal(data.counts.column("model"), "base")).to_pylist()[0]
    assert (counts["n"], counts["n_correct"], counts["n_timeout"], counts["n_error"]) == (
        16, 3, 1, 1)  # fmt: skip
    assert data.counts.equals(results.verdict_counts())
