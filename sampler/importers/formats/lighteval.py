"""``leash import --from lighteval``: lighteval's per-sample details Parquet files.

With ``--save-details`` lighteval (huggingface/lighteval, ``logging/evaluation_tracker.py``)
writes one file per task,

    OUTPUT_DIR/details/<model>/<timestamp>/details_<task>_<timestamp>.parquet

with one row per question. Since lighteval 0.11 a row has three struct columns
(``DetailsLogger.Detail``):

    doc.id                      str    the question's index in the task's split -> question_id
    doc.query                   str    the prompt of the task            -> problem, unless
    doc.original_query          str    (when set) the query before preprocessing is set
    doc.choices, doc.gold_index        gold = choices[gold_index]        -> gold
    doc.task_name               str    e.g. "lighteval|aime24|0"
    model_response.text         [str]  the completions                   -> one sample each
    model_response.output_tokens [[int]] generated tokens                -> n_tokens
    metric                      struct metric name -> the question's score

Files of lighteval 0.8 to 0.10 have flat columns instead: ``example`` (the query),
``predictions`` ([str]), ``gold`` ([str]) and ``metrics`` (struct); they carry no
question id, so the id is ``text_question_id`` of the query (the same prompt text
is the same question).

The benchmark is the task named in the file name (``details_<task>_<timestamp>``,
suite and few-shot count dropped), else ``doc.task_name``, or ``--bench``. A
question the results folder already holds takes the folder's id when the prompt
embeds its problem text (``ImportSession.match_question``).

lighteval scores a question, not a sample. Per-sample verdicts (source_correct)
come from the metric named by ``--source-metric``, else the first metric that is a
mean over samples (``avg@n``, ``pass@k:k=1``, ``pass@1``), else the first metric,
and are known only where that score determines them (``source_verdicts``).
Files are read a few rows at a time, and only the columns used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from sampler.errors import LeashError
from sampler.importers.formats.parquet_input import open_parquet, parquet_rows
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile
from sampler.importers.source_fields import (
    Fields,
    HarnessFiles,
    benchmark_name,
    choose_metric,
    is_mean_score,
    resolve_question,
    source_verdicts,
    task_from_file_name,
    text_question_id,
)

FORMAT = "lighteval"
CURRENT_COLUMNS = (
    "doc.id",
    "doc.query",
    "doc.original_query",
    "doc.choices",
    "doc.gold_index",
    "doc.task_name",
    "model_response.text",
    "model_response.output_tokens",
    "metric",
)
LEGACY_COLUMNS = ("example", "predictions", "gold", "metrics")
BATCH_ROWS = 16


def task_of(path: Path) -> str | None:
    return task_from_file_name(path, "details_")


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    file = RecordFile(source, path, FORMAT, "row")
    handle = open_parquet(path)
    names = set(handle.schema_arrow.names)
    if {"doc", "model_response"} <= names:
        read_row, columns = _current_row, _present(handle.schema_arrow, CURRENT_COLUMNS)
    elif {"example", "predictions"} <= names:
        read_row, columns = _legacy_row, [c for c in LEGACY_COLUMNS if c in names]
    else:
        raise LeashError(
            f"{path}: not a lighteval details file: expected columns 'doc', 'model_response'"
            " and 'metric' (lighteval >= 0.11) or 'example', 'predictions', 'gold' and"
            f" 'metrics' (0.8 to 0.10); found {', '.join(sorted(names)) or 'none'}"
        )
    file.read(
        parquet_rows(handle, columns, path, BATCH_ROWS),
        lambda fields: read_row(file, fields, task),
        "rows",
    )


read_source = HarnessFiles(
    "*.parquet", "lighteval details .parquet files", task_of, read_file
).read_source


def _present(schema: pa.Schema, paths: tuple[str, ...]) -> list[str]:
    """The dotted column paths that exist in ``schema`` (nested struct fields included)."""
    found = []
    for dotted in paths:
        head, *rest = dotted.split(".")
        if head not in schema.names:
            continue
        kind = schema.field(head).type
        for part in rest:
            if not pa.types.is_struct(kind) or kind.get_field_index(part) < 0:
                break
            kind = kind.field(part).type
        else:
            found.append(dotted)
    return found


def _benchmark(fields: Fields, bench: str | None, task: str | None, fallback: Any) -> str:
    if bench is not None:
        return bench
    name = task or (fallback if isinstance(fallback, str) and fallback else None)
    if name is None:
        raise fields.fail(
            "cannot tell the benchmark: the file name is not details_<task>_<timestamp>.parquet"
            " and the row has no 'doc.task_name'; give --bench"
        )
    return benchmark_name(name, fields.where)


def _current_row(file: RecordFile, fields: Fields, task: str | None) -> None:
    source = file.source
    texts = fields.strings("model_response.text", "the list of generated texts")
    benchmark = _benchmark(fields, source.bench, task, fields.value("doc.task_name"))
    original = fields.value("doc.original_query")
    if isinstance(original, str) and original.strip():
        problem, templated = original, False
    else:
        problem, templated = fields.text("doc.query", "the question's prompt"), True
    question_id, problem = resolve_question(
        source.session, benchmark, fields.question_id("doc.id"), problem, templated
    )
    golds = _golds(fields)
    verdicts = _verdicts(fields, fields.value("metric") or {}, len(texts), source.source_metric)
    tokens = _token_counts(fields.value("model_response.output_tokens"), len(texts))
    _note(file, fields, (benchmark, question_id, source.model), problem, golds)
    file.stage(fields.number, (benchmark, question_id, source.model), texts, verdicts, None, tokens)


def _legacy_row(file: RecordFile, fields: Fields, task: str | None) -> None:
    source = file.source
    texts = fields.strings("predictions", "the list of generated texts")
    benchmark = _benchmark(fields, source.bench, task, None)
    query = fields.text("example", "the question's prompt")
    question_id, problem = resolve_question(
        source.session, benchmark, text_question_id(query or ""), query, templated=True
    )
    golds = fields.value("gold") or []
    if not isinstance(golds, list) or not all(isinstance(g, str) for g in golds):
        raise fields.expected("gold", "a list of gold answers", golds)
    verdicts = _verdicts(fields, fields.value("metrics") or {}, len(texts), source.source_metric)
    _note(file, fields, (benchmark, question_id, source.model), problem, golds)
    file.stage(fields.number, (benchmark, question_id, source.model), texts, verdicts)


def _note(
    file: RecordFile, fields: Fields, key: tuple[str, str, str], problem: str | None, golds: list
) -> None:
    """Note a row's question: its first gold, and all of them as metadata when several."""
    metadata = {"golds": golds} if len(golds) > 1 else None
    gold = golds[0] if golds else None
    file.note_question(key[0], key[1], problem, gold, fields.where, metadata)


def _golds(fields: Fields) -> list[str]:
    choices = fields.value("doc.choices")
    gold_index = fields.value("doc.gold_index")
    if choices is None and gold_index is None:
        return []
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise fields.expected("doc.choices", "the list of answers gold_index points into", choices)
    indices = gold_index if isinstance(gold_index, list) else [gold_index]
    golds = []
    for i in indices:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(choices):
            raise fields.expected(
                "doc.gold_index", f"an index into doc.choices (0 to {len(choices) - 1})", i
            )
        golds.append(choices[i])
    return golds


def _verdicts(fields: Fields, metrics: Any, n: int, source_metric: str | None) -> list[bool | None]:
    if not isinstance(metrics, dict):
        raise fields.expected("metric", "a struct of metric name -> score", metrics)
    if source_metric in metrics:
        return source_verdicts(metrics[source_metric], n, is_mean_score(source_metric))
    available = [name for name, value in metrics.items() if value is not None]
    name = choose_metric(available, source_metric, fields, mean_first=True)
    if name is None:
        return [None] * n
    return source_verdicts(metrics[name], n, is_mean_score(name))


def _token_counts(tokens: Any, n: int) -> list[int | None] | None:
    if not isinstance(tokens, list) or len(tokens) != n:
        return None
    return [len(t) if isinstance(t, list) else None for t in tokens]
