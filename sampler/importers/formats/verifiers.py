"""``leash import --from verifiers``: ``vf-eval`` results of verifiers environments (prime-rl).

Checked against PrimeIntellect-ai/verifiers at commit a60a606ecc4d309247edf9ff92c3eabca362781f:
``verifiers/legacy/utils/save_utils.py`` (``save_outputs``: one ``json.dumps(output)`` line
per rollout in ``results.jsonl``, ``metadata.json`` beside it), ``verifiers/legacy/types.py``
(``RolloutOutput``) and ``verifiers/legacy/utils/path_utils.py`` (``get_results_path``). An
evaluation (``vf-eval ENV -m MODEL -n N -r K``, also prime-rl's online evals) writes

    outputs/evals/<env_id>--<model>/<run id>/results.jsonl   (+ metadata.json: env_id, ...)

one line per rollout:

    example_id    int             the dataset example              -> question_id
    prompt        [message]       the chat messages: the last user message -> problem
    completion    [message] | str the assistant turns (joined)    -> one sample
    answer        str             the example's answer            -> gold
    reward        float           the rubric's weighted reward    -> source_correct when 0/1
    metrics       {name: float}   each reward function's score; ``--source-metric NAME``
                                  takes the verdict from one of them instead
    is_truncated  bool            true -> finish_reason "length"
    info, timing, trajectory ...  ignored

The ``-r K`` rollouts of an example are one question's samples, numbered in reading order;
an example with another number of rollouts than the run's is named in a warning. The
benchmark is ``--bench``, else ``metadata.json``'s ``env_id``, else the ``<env_id>--<model>``
folder's env part. PATH is the outputs folder, one run's folder or its ``results.jsonl``;
two runs of one environment under PATH (two run ids, or two models) are refused, naming
the folders: import each as its own MODEL=DIR.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sampler.benchmarks.files import iter_json_lines
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages
from sampler.importers.core import ImportSession
from sampler.importers.source_fields import Fields, benchmark_name
from sampler.importers.trainer_samples import QuestionGroups, completion_text, score_verdict

FORMAT = "verifiers"
FILE_PATTERN = "results.jsonl"
FILES_ARE = "verifiers results.jsonl files"


def task_of(path: Path) -> str:
    """The environment of a run folder: ``metadata.json``'s env_id, else the folder name."""
    try:
        metadata = json.loads((path.parent / "metadata.json").read_text(encoding="utf-8"))
        env = metadata.get("env_id") if isinstance(metadata, dict) else None
        if isinstance(env, str) and env:
            return env
    except (OSError, ValueError):
        pass
    return path.parent.parent.name.split("--", 1)[0] or path.parent.name


def read_file(
    session: ImportSession,
    model: str,
    path: Path,
    bench: str | None,
    task: str | None,
    source_metric: str | None,
) -> None:
    benchmark = bench or benchmark_name(task or task_of(path), str(path))
    index = session.file(path, "line", model)
    groups = QuestionGroups(session, index)
    for number, record in iter_json_lines(path):
        fields = Fields(session.where(index, number), record, FORMAT)
        question_id = fields.question_id("example_id")
        problem = problem_of_messages(fields.value("prompt"))
        if problem is None:
            problem = fields.text("prompt", "the prompt, chat messages with a user message")
        assert problem is not None
        groups.add(
            number,
            benchmark,
            model,
            problem,
            fields.gold("answer", required=False) or None,
            completion_text(fields),
            _verdict(fields, source_metric),
            finish_reason="length" if record.get("is_truncated") is True else None,
            question_id=question_id,
        )
    if not groups.sizes:
        raise LeashError(f"{path}: no rollouts (empty file)")
    groups.check_sizes()


def _verdict(fields: Fields, source_metric: str | None) -> bool | None:
    if source_metric is None:
        return score_verdict(fields.value("reward"))
    metrics: Any = fields.value("metrics")
    if not isinstance(metrics, dict) or source_metric not in metrics:
        names = ", ".join(sorted(metrics)) if isinstance(metrics, dict) else "none"
        raise fields.fail(f"no metric {source_metric!r} (--source-metric); metrics here: {names}")
    return score_verdict(metrics[source_metric])
