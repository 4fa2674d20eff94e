"""Writes tests/data/importers/inspect-0.3.285/: real ``.eval`` logs written by inspect_ai 0.3.285.

Run with PyPI ``inspect_ai==0.3.285`` installed; its ``eval`` runs each task with its mock
model (``mockllm/model`` and ``custom_outputs``), so every byte of the logs is inspect_ai's::

    python3 -m venv /work/venvs/inspect && /work/venvs/inspect/bin/pip install inspect_ai==0.3.285
    /work/venvs/inspect/bin/python tests/data/importers/make_inspect_logs.py

* ``epochs/toy_math.eval``: task ``toy_math``, 2 problems x 2 epochs; problem 0 answered 2, 2
  (right twice), problem 1 answered 5 then 6 (wrong, then right), scored by ``includes()``;
* ``errored/toy_math.eval``: 3 problems x 1 epoch with ``fail_on_error=False``: the model
  raises on problem 1, so that sample is an errored one (no output, ``error`` set) while the
  log's status stays "success".
"""

from __future__ import annotations

import shutil
from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

HERE = Path(__file__).resolve().parent / "inspect-0.3.285"
PROBLEMS = [("What is 1+1?", "2"), ("What is 2*3?", "6"), ("What is 10-7?", "3")]


def completion(answer: str) -> str:
    return f"We compute it.\nThe answer is $\\boxed{{{answer}}}$."


def write_log(folder: Path, answers: list[list[str | None]], epochs: int) -> None:
    """Run toy_math on PROBLEMS[:len(answers)], problem i answered ``answers[i]`` one epoch
    after the other (None: the model raises); keep the log as ``folder/toy_math.eval``."""
    left = {PROBLEMS[i][0]: list(given) for i, given in enumerate(answers)}

    def respond(messages, tools, tool_choice, config):
        answer = left[messages[-1].text].pop(0)
        if answer is None:
            raise RuntimeError("the model server went away")
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
        fail_on_error=False,
    )
    model = get_model("mockllm/model", custom_outputs=respond)
    work = folder / "work"
    (log,) = eval(task, model=model, log_dir=str(work), display="none", max_samples=1)
    assert log.status == "success", log.status
    Path(log.location).rename(folder / "toy_math.eval")
    shutil.rmtree(work)


def main() -> None:
    shutil.rmtree(HERE, ignore_errors=True)
    write_log(HERE / "epochs", [["2", "2"], ["5", "6"]], epochs=2)
    write_log(HERE / "errored", [["2"], [None], ["3"]], epochs=1)


if __name__ == "__main__":
    main()
