"""One question read narrow, and one sample's text read by its row (store.shards.question_rows)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sampler.errors import LeashError
from sampler.store.folder import ResultsFolder
from sampler.store.schema import SAMPLE_ROW_GROUP_ROWS
from sampler.store.shards.question_rows import read_question_rows, read_sample_cells
from tests.support.folder_builders import write_folder

MODELS = ("base", "rl")


def rows(question: str, model: str, samples: range) -> list[dict]:
    return [
        {
            "benchmark": "b",
            "question_id": question,
            "model": model,
            "sample": s,
            "text": f"{question}/{model}/{s} " + "w" * (s % 7),
            "answer": str(s % 3),
            "status": "correct" if s % 3 == 0 else "incorrect",
            "correct": s % 3 == 0,
            "verdict_detail": f"detail {s}" if s % 5 == 0 else None,
        }
        for s in samples
    ]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Question 2 spans two row groups of one shard and continues in a second shard."""
    root = tmp_path_factory.mktemp("question-rows") / "r"
    half = SAMPLE_ROW_GROUP_ROWS // 2 + 50  # two models of it overflow one row group
    first = rows("1", "base", range(10)) + rows("3", "rl", range(4))
    for model in MODELS:
        first += rows("2", model, range(half))
    write_folder(
        root,
        [{"benchmark": "b", "question_id": q} for q in ("1", "2", "3")],
        [first, rows("2", "rl", range(half, half + 30))],
        models=MODELS,
    )
    return root, half


def test_a_question_is_read_without_its_texts_and_sorted_by_model_and_sample(folder):
    root, half = folder
    got = read_question_rows(ResultsFolder.open(root), "b", "2", ["model", "sample", "answer"])
    assert "text" not in got.table.column_names and "verdict_detail" not in got.table.column_names
    table = got.table.to_pydict()
    expected = [("base", s) for s in range(half)] + [("rl", s) for s in range(half + 30)]
    assert list(zip(table["model"], table["sample"], strict=True)) == expected
    assert table["answer"] == [str(s % 3) for _, s in expected]
    assert len(got.shards) == 2


def test_every_location_points_at_the_samples_own_text(folder):
    root, half = folder
    got = read_question_rows(ResultsFolder.open(root), "b", "2", ["model", "sample"])
    table = got.table.to_pydict()
    groups = set()
    for position in (0, half - 1, half, 2 * half - 1, 2 * half, len(table["sample"]) - 1):
        path, group, row = got.location(position)
        groups.add((path, group))
        cells = read_sample_cells(path, group, row)
        model, s = table["model"][position], table["sample"][position]
        assert cells["text"] == f"2/{model}/{s} " + "w" * (s % 7)
        assert cells["verdict_detail"] == (f"detail {s}" if s % 5 == 0 else None)
    assert len(groups) >= 3  # two row groups of the first shard, and the second shard


def test_wide_columns_are_refused_in_the_narrow_read(folder):
    root, _ = folder
    with pytest.raises(ValueError, match="text"):
        read_question_rows(ResultsFolder.open(root), "b", "2", ["sample", "text"])


def test_a_question_without_samples_gives_an_empty_table(folder):
    root, _ = folder
    got = read_question_rows(ResultsFolder.open(root), "b", "9", ["model", "sample"])
    assert got.table.num_rows == 0 and got.shards == ()


def test_a_column_an_older_shard_lacks_reads_as_none(tmp_path):
    path = tmp_path / "old.parquet"
    pq.write_table(pa.table({"text": ["hello", "world"]}), path)
    assert read_sample_cells(path, 0, 1) == {"text": "world", "verdict_detail": None}


def test_a_row_past_the_end_names_the_shard(tmp_path):
    path = tmp_path / "short.parquet"
    pq.write_table(pa.table({"text": ["only"]}), path)
    with pytest.raises(LeashError, match="short.parquet"):
        read_sample_cells(path, 0, 5)


def test_a_cursor_reads_rows_in_any_order_and_continues_forward(folder, monkeypatch):
    from sampler.store.shards import question_rows

    root, _ = folder
    got = read_question_rows(ResultsFolder.open(root), "b", "2", ["model", "sample"])
    path, group, _ = got.location(0)
    cursor = question_rows.RowCursor(path, group)
    restarts = []
    real = cursor._restart
    monkeypatch.setattr(cursor, "_restart", lambda: restarts.append(1) or real())
    expected = {r: read_sample_cells(path, group, r)["text"] for r in (0, 5, 40, 41, 3)}
    assert [cursor.read(r)["text"] for r in (0, 5, 40, 41)] == [expected[r] for r in (0, 5, 40, 41)]
    assert len(restarts) == 1  # forward steps continue the stream
    assert cursor.read(3)["text"] == expected[3] and len(restarts) == 2  # back: starts again
