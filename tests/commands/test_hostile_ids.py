"""Issue 14 items 5, 6 and 9: question ids and names that once crashed or slipped through."""

from __future__ import annotations

from pathlib import Path

import pytest

from sampler.errors import LeashError
from sampler.importers.formats.jsonl import import_jsonl
from sampler.store.folder import ResultsFolder
from sampler.store.schema import check_name
from tests.support.records import write_jsonl


def _records(question_ids: list[str]) -> list[dict]:
    return [
        {
            "benchmark": "toy",
            "question_id": q,
            "model": model,
            "sample": 0,
            "text": "\\boxed{1}",
            "gold": "1",
        }
        for q in question_ids
        for model in ("base", "rl")
    ]


def test_a_superscript_digit_id_sorts_without_a_traceback(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "s.jsonl", _records(["²", "10", "2", "a"]))
    root = tmp_path / "r"
    import_jsonl([path], root, base="base")
    ids = ResultsFolder.open(root).questions.column("question_id").to_pylist()
    assert ids == ["2", "10", "a", "²"]


def test_an_id_of_5000_digits_sorts_as_a_number(tmp_path: Path) -> None:
    huge = "9" * 5000
    path = write_jsonl(tmp_path / "s.jsonl", _records([huge, "3"]))
    root = tmp_path / "r"
    import_jsonl([path], root, base="base")
    assert ResultsFolder.open(root).questions.column("question_id").to_pylist() == ["3", huge]


def test_a_question_id_over_4096_bytes_reads_through_the_row_group_index(tmp_path: Path) -> None:
    long_id = "q" * 5000
    path = write_jsonl(tmp_path / "s.jsonl", _records([long_id, "short"]))
    root = tmp_path / "r"
    import_jsonl([path], root, base="base")
    results = ResultsFolder.open(root)
    for qid in (long_id, "short"):
        table = results.question_samples("toy", qid)
        assert table.num_rows == 2
        assert set(table.column("question_id").to_pylist()) == {qid}


@pytest.mark.parametrize("name", ["rl\n", "rl\r\n", "\nrl", "r l"])
def test_names_must_match_whole(name: str) -> None:
    with pytest.raises(ValueError, match="invalid model name"):
        check_name("model", name)


def test_a_model_name_ending_in_a_newline_is_refused_on_import(tmp_path: Path) -> None:
    records = _records(["1"])
    records[1]["model"] = "rl\n"
    path = write_jsonl(tmp_path / "s.jsonl", records)
    with pytest.raises(LeashError, match="line 2"):
        import_jsonl([path], tmp_path / "r", base="base")
    assert not (tmp_path / "r").exists()
