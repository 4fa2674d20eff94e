"""``leash import --from qwen-eval``: output of the Qwen2.5-Math evaluation harness.

The harness (QwenLM/Qwen2.5-Math ``evaluation/math_eval.py``) and the projects built
on it (limit-of-RLVR, SimpleRL-Zoo) write, with ``--save_outputs``,

    OUTPUT_DIR/<data_name>/<split>_<prompt_type>_<n>_seed<s>_t<temp>_s<start>_e<end>.jsonl

(and a ``..._metrics.json`` beside it, which is not read). Each line is one problem:

    idx            int      the problem's index in the benchmark file -> question_id
    question       str      the problem                                -> problem
    gt             str|num  the harness's normalised gold              -> gold, when the row
                            carries no raw answer or solution (below)
    code           [str]    the n_sampling completions                 -> one sample each
    score          [bool]   the harness's verdict of each completion   -> source_correct
    finish_reason  [str]    (limit-of-RLVR only) "stop" or "length"    -> finish_reason
    pred, report, gt_cot    ignored (leash verify extracts answers itself)
    level, type, unit, subject, ...                                    -> question metadata

The harness normalises ``gt`` and sometimes corrupts it (``C()=4h+4`` for ``C(h)=4h+4``,
``^{6}``, ``20^{2}`` for ``20 cm^2``). The harness also copies the benchmark record's own
fields into each row; when a row carries the raw answer (``answer``, ``final_answer``...)
or a solution with a box, the gold is taken from it by the same rules as the benchmark
presets (``sampler.benchmarks.presets.gold_from_record``; the preset of the same name,
else the generic field names), and ``gt`` only when it carries neither. The question's
``gold_source`` metadata says which, and ``leash info`` counts them.

The benchmark is the name of the file's folder (``<data_name>``), or ``--bench``.
PATH may be that OUTPUT_DIR, one ``<data_name>`` folder or one file. Several files
of the same model and problem (runs with other seeds) add samples after the ones
read before. The same ``idx`` in the files of two models is one question, except
that a problem whose text the results folder already holds (white space aside)
takes that question's id: the harness numbers problems by position, leash by the
benchmark file's own ids (``ImportSession.match_question``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sampler.benchmarks.presets import PRESETS, FieldMapping, gold_from_record
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, HarnessFiles, benchmark_name, resolve_question

FORMAT = "qwen-eval"
#: ``gold_source`` of a question whose gold is the harness's normalised ``gt``.
GT_SOURCE = "qwen-eval 'gt' (normalised by the harness)"
#: Problem fields the harness copies from the benchmark file, kept as question metadata.
METADATA_FIELDS = (
    "level",
    "type",
    "unit",
    "subject",
    "subfield",
    "answer_type",
    "ans_type",
    "ques_type",
    "solution_type",
    "dataset",
)


def task_of(path: Path) -> str:
    """The harness writes OUTPUT_DIR/<data_name>/*.jsonl: the folder names the benchmark."""
    return path.parent.name


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    source.refuse_source_metric(FORMAT, "it applies to lighteval and lm-eval")
    benchmark = source.bench or benchmark_name(task or task_of(path), str(path))
    file = RecordFile(source, path, FORMAT)

    def read_record(fields: Fields) -> None:
        record = fields.record
        question_id = fields.question_id("idx")
        texts = fields.strings("code", "the list of completions")
        verdicts = _scores(fields, len(texts))
        finish = _finish_reasons(fields, len(texts))
        problem = fields.text("question", "the problem text")
        metadata = {k: record[k] for k in METADATA_FIELDS if _plain(record.get(k))}
        gold, gold_metadata = raw_gold(record, benchmark)
        if gold is None:
            gold = fields.gold("gt")
            gold_metadata = {"gold_source": GT_SOURCE} if gold is not None else {}
        metadata.update(gold_metadata)
        session = source.session
        question_id, problem = resolve_question(session, benchmark, question_id, problem)
        file.note_question(benchmark, question_id, problem, gold, fields.where, metadata)
        file.stage(fields.number, (benchmark, question_id, source.model), texts, verdicts, finish)

    file.read(json_records(path), read_record, "problems")


read_source = HarnessFiles("*.jsonl", "qwen-eval .jsonl files", task_of, read_file).read_source


def raw_gold(record: dict[str, Any], benchmark: str) -> tuple[str | None, dict[str, Any]]:
    """The gold from the row's raw benchmark fields, by the preset of ``benchmark`` (else the
    generic field names), with its metadata; (None, {}) when the row has no such field."""
    preset = PRESETS.get(benchmark)
    mapping = preset.mapping if preset else FieldMapping()
    if any(_non_finite(record.get(name)) for name in mapping.gold):
        return None, {}  # left to the checks of 'gt' (a non-finite gold is refused)
    gold, metadata = gold_from_record(record, mapping)
    if gold is None:
        return None, {}
    metadata.setdefault("gold_source", f"raw field {_gold_field(record, mapping)!r}")
    for extra in mapping.metadata:
        if _plain(record.get(extra)):
            metadata.setdefault(extra, record[extra])
    return gold, metadata


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _gold_field(record: dict[str, Any], mapping: FieldMapping) -> str:
    return next((n for n in mapping.gold if record.get(n) is not None), "?")


def _scores(fields: Fields, n: int) -> list[bool | None]:
    scores = fields.value("score")
    if scores is None:
        return [None] * n
    if not isinstance(scores, list) or len(scores) != n:
        raise fields.fail(
            f"field 'score' must be a list with one verdict per completion in 'code' ({n}),"
            f" got {_length_or_type(scores)}"
        )
    verdicts: list[bool | None] = []
    for score in scores:
        if isinstance(score, bool) or score in (0, 1):
            verdicts.append(bool(score))
        elif score is None:
            verdicts.append(None)
        else:
            raise fields.fail(f"field 'score' holds {score!r}: expected true/false or 0/1")
    return verdicts


def _finish_reasons(fields: Fields, n: int) -> list[str | None] | None:
    reasons = fields.value("finish_reason")
    if reasons is None:
        return None
    if (
        not isinstance(reasons, list)
        or len(reasons) != n
        or not all(r is None or isinstance(r, str) for r in reasons)
    ):
        raise fields.fail(
            f"field 'finish_reason' must be a list of {n} strings (one per completion),"
            f" got {_length_or_type(reasons)}"
        )
    return reasons


def _length_or_type(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return type(value).__name__


def _plain(value: Any) -> bool:
    if isinstance(value, str | int | float | bool):
        return value != ""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
