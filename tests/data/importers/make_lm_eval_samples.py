"""Writes tests/data/importers/lm-eval-0.4.13/: ``--log_samples`` files written by lm-eval itself.

Run with PyPI ``lm-eval==0.4.13`` installed; its evaluator runs two generative tasks defined
here on local data, and its ``EvaluationTracker.save_results_samples`` writes the files, as
``lm_eval --log_samples --output_path OUT`` does. The model is a toy ``LM`` subclass that
answers from a table (no network, no weights); everything else is lm-eval's::

    python3 -m venv /work/venvs/lmeval && /work/venvs/lmeval/bin/pip install lm-eval==0.4.13
    /work/venvs/lmeval/bin/python tests/data/importers/make_lm_eval_samples.py

* ``OUT/toy__model/results_<date>.json``: the aggregated results (not read by leash);
* ``OUT/toy__model/samples_toy_math_<date>.jsonl``: 3 questions, one completion each, two
  filters (``strict-match`` and ``flexible-extract``), so every question is written twice;
* ``OUT/toy__model/samples_toy_math_k2_<date>.jsonl``: the same questions with ``repeats: 2``
  (two completions a question, one filter).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.loggers import EvaluationTracker
from lm_eval.tasks import TaskManager

HERE = Path(__file__).resolve().parent / "lm-eval-0.4.13"
PROBLEMS = [("What is 1+1?", "2"), ("What is 2*3?", "6"), ("What is 10-7?", "3")]
#: the toy model's answers, one list per problem, one answer per call
ANSWERS = {"What is 1+1?": ["2", "2", "2"], "What is 2*3?": ["6", "5", "6"],
           "What is 10-7?": ["4", "3", "3"]}  # fmt: skip

TASK = """
task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "Question: {{{{problem}}}}\\nAnswer:"
doc_to_target: answer
generation_kwargs:
  until: ["Question:"]
  do_sample: false
repeats: {repeats}
filter_list:
{filters}
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
"""
STRICT = """  - name: strict-match
    filter:
      - function: regex
        regex_pattern: "boxed\\\\{(\\\\d+)\\\\}"
      - function: take_first
"""
FLEXIBLE = """  - name: flexible-extract
    filter:
      - function: regex
        group_select: -1
        regex_pattern: "(\\\\d+)"
      - function: take_first
"""


class ToyLM(LM):
    """Answers each question from ANSWERS, one answer per request, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.left = {p: list(a) for p, a in ANSWERS.items()}

    def generate_until(self, requests, disable_tqdm: bool = False):
        out = []
        for request in requests:
            problem = request.arguments[0].split("Question: ", 1)[1].split("\nAnswer:")[0]
            answer = self.left[problem].pop(0)
            out.append(f" We compute it. The answer is $\\boxed{{{answer}}}$.")
        return out

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError


def main() -> None:
    shutil.rmtree(HERE, ignore_errors=True)
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "toy_math.jsonl"
        data.write_text(
            "".join(json.dumps({"problem": p, "answer": a}) + "\n" for p, a in PROBLEMS)
        )
        tasks = Path(work) / "tasks"
        tasks.mkdir()
        for name, repeats, filters in (
            ("toy_math", 1, STRICT + FLEXIBLE),
            ("toy_math_k2", 2, STRICT),
        ):
            text = TASK.format(name=name, data=data, repeats=repeats, filters=filters.rstrip())
            (tasks / f"{name}.yaml").write_text(text)
        manager = TaskManager(include_path=str(tasks))
        tracker = EvaluationTracker(output_path=str(HERE))
        tracker.general_config_tracker.model_name_sanitized = "toy__model"
        results = simple_evaluate(
            model=ToyLM(), tasks=["toy_math", "toy_math_k2"], task_manager=manager, log_samples=True
        )
        samples = results.pop("samples")
        tracker.save_results_aggregated(results=results, samples=samples)  # as the CLI does
        for task in ("toy_math", "toy_math_k2"):
            tracker.save_results_samples(task_name=task, samples=samples[task])


if __name__ == "__main__":
    main()
