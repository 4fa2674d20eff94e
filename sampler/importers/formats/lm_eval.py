"""``leash import --from lm-eval``: lm-evaluation-harness ``--log_samples`` JSON Lines.

With ``--log_samples --output_path OUT`` the harness (EleutherAI/lm-evaluation-harness,
``loggers/evaluation_tracker.py`` ``save_results_samples`` and ``evaluator.py``) writes

    OUT/<model_name_sanitized>/samples_<task>_<timestamp>.jsonl

with one line per question and filter:

    doc_id           int            index of the question in the task's docs -> question_id
    doc              object         the dataset row: its problem / question field -> problem
    target           str            the gold answer                          -> gold
    arguments        object         gen_args_0.arg_0 is the prompt (problem when doc has none)
    resps            [[str]]        one list per request: the completions    -> one sample each
    filtered_resps   [...]          the answers after the filter (ignored: leash extracts)
    filter           str            e.g. "none", "strict-match", "flexible-extract" (ignored)
    metrics          [str]          names of the metric fields on the line
    <metric>         number         the question's score, e.g. "exact_match": 1.0
    doc_hash, prompt_hash, target_hash   ignored

Only generative tasks (one ``generate_until`` request per question) have
completions; a line with several requests (a multiple-choice task) is an error.
A task with several filters writes each question once per filter with the same
``resps``: the first line of each ``doc_id`` (the first filter's) gives the
samples and the verdict, and later lines of the same ``doc_id`` are skipped.
Files written before lm-eval 0.4.7 have no ``filter`` and ``metrics`` fields; their
metrics are the line's other numeric fields.

The benchmark is the task named in the file name (``samples_<task>_<timestamp>``),
or ``--bench``. The question id is ``doc_id``, unless the results folder already
holds a question with the same problem text (``ImportSession.match_question``).
The source verdict is the metric named by ``--source-metric``, else the first one
in ``metrics``; lm-eval scores a question by its first
filtered answer, so a verdict is known only for a question with one completion.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import (
    Fields,
    HarnessFiles,
    benchmark_name,
    choose_metric,
    resolve_question,
    source_verdicts,
    task_from_file_name,
)

FORMAT = "lm-eval"
#: Fields of a line that are not metric scores.
LINE_FIELDS = (
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "filter",
    "metrics",
    "doc_hash",
    "prompt_hash",
    "target_hash",
)
#: Fields of ``doc`` that hold the problem text in common math tasks, in order of preference.
PROBLEM_FIELDS = ("problem", "question", "Problem", "Question", "input")


def task_of(path: Path) -> str | None:
    return task_from_file_name(path, "samples_")


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    if source.bench is None and task is None:
        raise LeashError(
            f"{path}: cannot tell the benchmark: the name is not samples_<task>_<timestamp>.jsonl;"
            " give --bench"
        )
    benchmark = source.bench or benchmark_name(task or "", str(path))
    file = RecordFile(source, path, FORMAT)
    seen: set[str] = set()

    def read_record(fields: Fields) -> None:
        doc_id = fields.question_id("doc_id")
        if doc_id in seen:  # the same question under the next filter
            return
        question_id, problem = resolve_question(source.session, benchmark, doc_id, _problem(fields))
        texts = _completions(fields)
        verdicts = source_verdicts(_score(fields, source.source_metric), len(texts), False)
        file.note_question(benchmark, question_id, problem, _gold(fields), fields.where)
        file.stage(fields.number, (benchmark, question_id, source.model), texts, verdicts)
        seen.add(doc_id)

    file.read(json_records(path), read_record)


read_source = HarnessFiles(
    "samples_*.jsonl", "lm-eval samples_*.jsonl files", task_of, read_file
).read_source


def _completions(fields: Fields) -> list[str]:
    resps = fields.value("resps")
    if not isinstance(resps, list) or not resps:
        raise fields.expected("resps", "a list with the completions of each request", resps)
    if len(resps) != 1:
        raise fields.fail(
            f"field 'resps' holds {len(resps)} requests: only generative tasks (one"
            " generate_until request per question) can be imported"
        )
    texts = resps[0] if isinstance(resps[0], list) else [resps[0]]
    if not texts or not all(isinstance(t, str) for t in texts):
        raise fields.expected("resps", "a list holding one list of completion strings", resps)
    return texts


def _score(fields: Fields, source_metric: str | None) -> Any:
    names = fields.value("metrics")
    if names is None:  # written before lm-eval 0.4.7: the metrics are the other numbers
        names = [
            key
            for key, value in fields.record.items()
            if key not in LINE_FIELDS and isinstance(value, int | float) and key != "doc_id"
        ]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fields.expected("metrics", "the list of metric names on this line", names)
    name = choose_metric(names, source_metric, fields, mean_first=False)
    if name is None:
        return None
    if name not in fields.record:
        raise fields.expected(name, f"the score of metric {name!r}, listed in 'metrics'")
    return fields.record[name]


def _problem(fields: Fields) -> str | None:
    doc = fields.value("doc")
    if isinstance(doc, dict):
        for name in PROBLEM_FIELDS:
            value = doc.get(name)
            if isinstance(value, str) and value.strip():
                return value
    prompt = fields.value("arguments.gen_args_0.arg_0")
    return prompt if isinstance(prompt, str) and prompt.strip() else None


def _gold(fields: Fields) -> str | None:
    target = fields.value("target")
    if target is None or target == "":
        return None
    return fields.gold("target")
