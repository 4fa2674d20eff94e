"""The synthetic demo folder: readable, marked synthetic, all four categories, verdicts filled."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pytest

from sampler.demo_folder import DEMO_BASE, DEMO_TARGETS, write_demo_results
from sampler.latex_boxed import last_boxed
from sampler.store.folder import ResultsFolder


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> ResultsFolder:
    root = tmp_path_factory.mktemp("demo") / "leash-demo"
    write_demo_results(root, n_questions=60, n_samples=8, seed=3)
    return ResultsFolder.open(root)


def _categories(results: ResultsFolder, target: str) -> set[str]:
    counts = results.verdict_counts().to_pylist()
    solved = {(r["benchmark"], r["question_id"], r["model"]): r["n_correct"] > 0 for r in counts}
    found = set()
    for (bench, qid, model), ok in solved.items():
        if model != DEMO_BASE:
            continue
        t = solved[(bench, qid, target)]
        found.add({(True, True): "P", (False, True): "E", (True, False): "S"}.get((ok, t), "O"))
    return found


def test_demo_is_marked_synthetic_with_base_and_two_targets(demo: ResultsFolder) -> None:
    assert demo.manifest.synthetic is True
    assert demo.manifest.base.name == DEMO_BASE
    assert [t.name for t in demo.manifest.targets] == list(DEMO_TARGETS)
    assert demo.questions.num_rows == 60


@pytest.mark.parametrize("target", DEMO_TARGETS)
def test_every_support_category_occurs(demo: ResultsFolder, target: str) -> None:
    assert _categories(demo, target) == {"P", "E", "S", "O"}


def test_verdicts_match_the_boxed_answers_and_gold(demo: ResultsFolder) -> None:
    samples = demo.samples(
        columns=["benchmark", "question_id", "text", "answer", "correct", "status", "token_entropy"]
    )
    assert pc.all(pc.is_valid(samples.column("status"))).as_py()
    assert pc.all(pc.is_valid(samples.column("token_entropy"))).as_py()
    gold = {(r["benchmark"], r["question_id"]): r["gold"] for r in demo.questions.to_pylist()}
    for row in samples.to_pylist():
        assert last_boxed(row["text"]) == row["answer"]
        if row["status"] == "no_answer":
            assert row["answer"] is None and row["correct"] is False
        else:
            assert (row["answer"] == gold[(row["benchmark"], row["question_id"])]) == row["correct"]


def test_same_seed_same_folder(tmp_path: Path) -> None:
    a = ResultsFolder.open(write_demo_results(tmp_path / "a", n_questions=10, n_samples=4, seed=1))
    b = ResultsFolder.open(write_demo_results(tmp_path / "b", n_questions=10, n_samples=4, seed=1))
    assert a.samples().equals(b.samples())
    assert a.questions.equals(b.questions)
