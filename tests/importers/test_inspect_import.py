"""``--from inspect``: real ``.eval`` logs written by inspect_ai with its mock model."""

from __future__ import annotations

import pytest

from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples
from sampler.store.folder import ResultsFolder
from tests.support.eval_outputs import PROBLEMS, completion

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed (pip install -e '.[inspect]')"
)


def write_log(log_dir, answers, epochs):
    """Run a real Inspect eval of PROBLEMS[:n] with the mock model answering problem i with
    ``answers[i]`` one epoch after the other; return the .eval log it wrote."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate

    left = {PROBLEMS[i][0]: list(given) for i, given in enumerate(answers)}

    def respond(messages, tools, tool_choice, config):
        answer = left[messages[-1].text].pop(0)
        output = ModelOutput.from_content(model="mockllm/model", content=completion(answer))
        # usage given, so that the mock model does not fetch a tokenizer to count tokens
        output.usage = ModelUsage(input_tokens=8, output_tokens=8, total_tokens=16)
        return output

    task = Task(
        name="toy_math",
        dataset=[
            Sample(id=f"q{i}", input=p, target=g)
            for i, (p, g) in enumerate(PROBLEMS[: len(answers)])
        ],
        solver=[generate()],
        scorer=includes(),
        epochs=epochs,
    )
    model = get_model("mockllm/model", custom_outputs=respond)
    (log,) = eval(task, model=model, log_dir=str(log_dir), display="none", max_samples=1)
    assert log.status == "success"
    return log.location


def test_inspect_log_epochs_are_samples_and_scores_source_verdicts(tmp_path):
    path = write_log(tmp_path / "logs", [["2", "2"], ["5", "6"]], epochs=2)
    summary = import_samples("inspect", [Source("m", tmp_path / "logs")], tmp_path / "r", "m")
    assert summary.models == {"m": 4} and summary.benchmarks == {"toy_math": 4}
    results = ResultsFolder.open(tmp_path / "r")
    rows = results.samples(columns=["question_id", "sample", "text", "source_correct"]).to_pylist()
    by_question = {}
    for row in rows:
        by_question.setdefault(row["question_id"], []).append(row["source_correct"])
    assert sorted(by_question) == ["q0", "q1"]
    assert by_question["q0"] == [True, True]
    assert sorted(by_question["q1"]) == [False, True]
    golds = {q["question_id"]: q["gold"] for q in results.questions.to_pylist()}
    assert golds == {"q0": "2", "q1": "6"}
    assert path.endswith(".eval")


def test_two_logs_of_one_task_are_refused(tmp_path):
    write_log(tmp_path / "logs", [["2"]], epochs=1)
    write_log(tmp_path / "logs", [["3"]], epochs=1)
    with pytest.raises(LeashError, match=r"2 logs of task toy_math"):
        import_samples("inspect", [Source("m", tmp_path / "logs")], tmp_path / "r", "m")
