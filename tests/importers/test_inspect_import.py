"""``--from inspect``: real ``.eval`` logs written by inspect_ai 0.3.285 with its mock model.

The logs under tests/data/importers/inspect-0.3.285/ were written by
tests/data/importers/make_inspect_logs.py (inspect_ai's own ``eval``; the reader is
inspect_ai's, checked against UKGovernmentBEIS/inspect_ai at commit
499e6152e7b8fc8cbd8ac5283536572aa6e4ab17). CI runs these tests in an environment of their own
(.ci/run), because inspect_ai pins packages the main test environment holds newer.
"""

from __future__ import annotations

import shutil

import pytest

from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples
from sampler.store.folder import ResultsFolder
from tests.support.paths import REPO_ROOT

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed (pip install -e '.[inspect]')"
)

LOGS = REPO_ROOT / "tests" / "data" / "importers" / "inspect-0.3.285"


def rows(root):
    columns = ["question_id", "sample", "text", "status", "source_correct", "verdict_detail"]
    table = ResultsFolder.open(root).samples(columns=columns).to_pylist()
    return sorted(table, key=lambda r: (r["question_id"], r["sample"]))


def test_inspect_log_epochs_are_samples_and_scores_source_verdicts(tmp_path):
    summary = import_samples("inspect", [Source("m", LOGS / "epochs")], tmp_path / "r", "m")
    assert summary.models == {"m": 4} and summary.benchmarks == {"toy_math": 4}
    by_question = {}
    for row in rows(tmp_path / "r"):
        by_question.setdefault(row["question_id"], []).append(row["source_correct"])
    assert sorted(by_question) == ["q0", "q1"]
    assert by_question["q0"] == [True, True]
    assert sorted(by_question["q1"]) == [False, True]
    golds = {
        q["question_id"]: q["gold"]
        for q in ResultsFolder.open(tmp_path / "r").questions.to_pylist()
    }
    assert golds == {"q0": "2", "q1": "6"}


def test_an_errored_sample_is_a_sample_of_status_error_not_a_crash(tmp_path):
    summary = import_samples("inspect", [Source("m", LOGS / "errored")], tmp_path / "r", "m")
    assert summary.models == {"m": 3}
    found = {r["question_id"]: r for r in rows(tmp_path / "r")}
    assert found["q1"]["status"] == "error" and found["q1"]["text"] == ""
    assert "the model server went away" in found["q1"]["verdict_detail"]
    assert found["q0"]["status"] is None and found["q0"]["source_correct"] is True
    assert found["q2"]["source_correct"] is True


def test_two_logs_of_one_task_are_refused(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(LOGS / "epochs" / "toy_math.eval", logs / "a.eval")
    shutil.copy(LOGS / "errored" / "toy_math.eval", logs / "b.eval")
    with pytest.raises(LeashError, match=r"2 logs of task toy_math"):
        import_samples("inspect", [Source("m", logs)], tmp_path / "r", "m")
