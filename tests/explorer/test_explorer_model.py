"""The explorer's model on awkward folders: unverified samples, questions without text."""

from __future__ import annotations

from pathlib import Path

from leash_tui.explorer.model.explorer_model import ExplorerModel
from sampler.store.folder import ResultsFolder
from tests.support.explorer_helpers import (
    open_app,
    screen_text,
    sync,
    wait_loaded,
    wait_ready,
)
from tests.support.folder_builders import write_folder


def _folder(root: Path) -> Path:
    questions = [{"benchmark": "x", "question_id": "1", "problem": "p1", "gold": "1"}]
    rows = []
    for q, statuses in {
        "1": ("correct", None),
        "2": ("correct", "incorrect"),
        "10": ("incorrect", "correct"),
    }.items():
        for m, status in zip(("b", "t"), statuses, strict=True):
            for s in range(2):
                rows.append(
                    {
                        "benchmark": "x",
                        "question_id": q,
                        "model": m,
                        "sample": s,
                        "text": f"{q}{m}{s}",
                        "status": status,
                        "correct": None if status is None else status == "correct",
                        "answer": "1" if status == "correct" else "2",
                    }
                )
    return write_folder(root, questions, [rows], models=["b", "t"], benchmarks=[])


def test_unverified_and_textless_questions(tmp_path: Path) -> None:
    model = ExplorerModel(ResultsFolder.open(_folder(tmp_path / "r")))
    rows = [model.row(i) for i in range(len(model))]
    # shrunk, then expanded, then the question the target has no verified sample of
    assert [(r.question_id, r.category) for r in rows] == [("2", "S"), ("10", "E"), ("1", "?")]
    assert rows[2].pass1_target is None and rows[2].fisher_p is None
    assert rows[0].problem is None and rows[2].problem == "p1"
    model.cycle_sort()  # p-value
    model.cycle_sort()  # pass@1 drop
    model.cycle_sort()  # benchmark, id: numeric ids in numeric order
    assert [model.row(i).question_id for i in range(len(model))] == ["1", "2", "10"]
    model.set_search("p1")
    assert [model.row(i).question_id for i in range(len(model))] == ["1"]
    model.set_search("10")
    assert [model.row(i).question_id for i in range(len(model))] == ["10"]
    detail = model.load_question(model.row(0))
    assert len(detail.base) == 2 and len(detail.target) == 2


def test_a_question_loads_without_texts_and_reads_the_shown_one(tmp_path: Path) -> None:
    model = ExplorerModel(ResultsFolder.open(_folder(tmp_path / "r")))
    detail = model.load_question(model.row(0))  # question 2
    assert "text" not in detail.base.samples.column_names  # texts are read by row
    assert [detail.target.sample(p)["text"] for p in (1, 0, 1)] == ["2t1", "2t0", "2t1"]
    assert detail.base.sample(0)["answer"] == "1" and detail.base.sample(0)["text"] == "2b0"


@sync
async def test_the_screens_show_an_unverified_question(tmp_path: Path) -> None:
    app = open_app(_folder(tmp_path / "r"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("G", "enter")  # the unverified question, listed last
        await wait_loaded(pilot, app.screen)
        text = screen_text(app)
        assert "no verified samples" in text and "unverified" in text
        await pilot.press("escape")
        assert "?" in screen_text(app)
