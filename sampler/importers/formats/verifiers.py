"""``leash import --from verifiers``: ``vf-eval`` results of verifiers environments (prime-rl).

**verifiers 0.4** (PyPI ``verifiers==0.4.0``; ``verifiers/v1/configs/cli/eval.py``
``default_run_name``, ``verifiers/v1/cli/output.py`` ``output_path``,
``verifiers/v1/utils/trace_store.py`` ``write_episode``) writes only

    outputs/<env>--<model>--<harness>--<short id>/traces.jsonl   (+ configs/, logs/)

one v1 ``Episode`` record per line, read by ``formats.episodes`` (fields there): each trace
one sample, ``task.data.idx`` the question, a failed episode a sample of status ``error``.
The benchmark is ``--bench``, else the episode's ``env.id``. Two runs of one environment
under PATH are refused, naming the folders: import each as its own MODEL=DIR.

**Before 0.4** (``results.jsonl``, renamed in July 2026), checked against
PrimeIntellect-ai/verifiers at commit a60a606ecc4d309247edf9ff92c3eabca362781f:
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

Both layouts may lie under one PATH. The ``-r K`` rollouts of an example are one question's
samples, numbered in reading order; an example with another number of rollouts than the
run's is named in a warning. The benchmark is ``--bench``, else ``metadata.json``'s
``env_id``, else the ``<env_id>--<model>`` folder's env part. PATH is the outputs folder,
one run's folder or its ``results.jsonl``; two runs of one environment under PATH (two run
ids, or two models) are refused, naming the folders: import each as its own MODEL=DIR.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages
from sampler.importers.formats.episodes import read_episodes
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import (
    Fields,
    HarnessFiles,
    benchmark_name,
    refuse_mixed_runs,
)
from sampler.importers.trainer_samples import completion_text, score_verdict

FORMAT = "verifiers"


def task_of(path: Path) -> str:
    """The environment of a run folder: ``metadata.json``'s env_id, else the folder name."""
    try:
        metadata = json.loads((path.parent / "metadata.json").read_text(encoding="utf-8"))
        env = metadata.get("env_id") if isinstance(metadata, dict) else None
        if isinstance(env, str) and env:
            return env
    except RecursionError:
        raise LeashError(f"{path.parent / 'metadata.json'}: JSON nested too deeply") from None
    except (OSError, ValueError):
        pass
    return path.parent.parent.name.split("--", 1)[0] or path.parent.name


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    benchmark = source.bench or benchmark_name(task or task_of(path), str(path))
    file = RecordFile(source, path, FORMAT)

    def read_record(fields: Fields) -> None:
        question_id = fields.question_id("example_id")
        problem = problem_of_messages(fields.value("prompt"))
        if problem is None:
            problem = fields.text("prompt", "the prompt, chat messages with a user message")
        assert problem is not None
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem,
            fields.gold("answer", required=False) or None,
            completion_text(fields),
            _verdict(fields, source.source_metric),
            finish_reason="length" if fields.record.get("is_truncated") is True else None,
            question_id=question_id,
        )

    file.read(json_records(path), read_record, "rollouts")


_LEGACY = HarnessFiles("results.jsonl", "verifiers results.jsonl files", task_of, read_file)
TRACES = "traces.jsonl"


def read_source(source: SourceRead) -> list[str]:
    path = source.path
    if path.is_file():
        if path.name == TRACES or _holds_episodes(path):
            read_episodes(source, path, FORMAT)
            return [source.model]
        return _LEGACY.read_source(source)
    traces = sorted(p for p in path.rglob(TRACES) if p.is_file())
    legacy = any(path.rglob(_LEGACY.pattern))
    if not traces and not legacy:
        raise LeashError(
            f"{path}: no verifiers runs found: neither traces.jsonl (verifiers >= 0.4,"
            " outputs/<env>--<model>--<harness>--<id>/) nor results.jsonl (before 0.4)"
        )
    if legacy:
        _LEGACY.read_source(source)
    for file in run_files(path, traces):
        read_episodes(source, file, FORMAT)
    return [source.model]


def run_files(path: Path, traces: list[Path]) -> list[Path]:
    """The ``traces.jsonl`` of each run under ``path``; two runs of one environment (the
    ``<env>--`` part of their folders) are refused, naming the folders."""
    refuse_mixed_runs(path, {f: f.parent.name.split("--", 1)[0] for f in traces})
    return traces


def _holds_episodes(path: Path) -> bool:
    """Whether a file's first line is an episode record (it has ``traces``)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
    except OSError:
        return False
    return b'"traces"' in first


def _verdict(fields: Fields, source_metric: str | None) -> bool | None:
    if source_metric is None:
        return score_verdict(fields.value("reward"))
    metrics: Any = fields.value("metrics")
    if not isinstance(metrics, dict) or source_metric not in metrics:
        names = ", ".join(sorted(metrics)) if isinstance(metrics, dict) else "none"
        raise fields.fail(f"no metric {source_metric!r} (--source-metric); metrics here: {names}")
    return score_verdict(metrics[source_metric])
