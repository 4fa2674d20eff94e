"""``leash import --from nemo-rl``: NeMo-RL evaluation data and GRPO validation dumps.

Checked against NVIDIA-NeMo/RL at commit 7ea279abfbeb698b092856d0dab61e7cf39bc909:
``nemo_rl/evals/eval.py`` (``run_env_eval`` collects the samples,
``_save_evaluation_data_to_json`` writes them when ``eval.save_path`` is set) and
``nemo_rl/data/processors.py`` (``math_data_processor``: the user message's content is the
chat-templated prompt, ``extra_env_info`` is ``{"ground_truth": expected_answer}``). The
evaluation writes

    SAVE_PATH/evaluation_data.json   {"evaluation_data": [sample, ...]}
    SAVE_PATH/config.json            model_name, dataset_name, num_tests_per_prompt, ...

with ``num_tests_per_prompt`` samples of each prompt (``repeat_interleave``), each

    prompt          str    the message contents joined by newlines (the chat template
                           included)                        -> the problem, template stripped
    response        str    the generation                   -> one sample
    reward          float  the environment's reward         -> source_correct when 0/1
    extra_env_info  str    ``str()`` of a Python dict: read with ``ast.literal_eval`` (never
                           evaluated as code); ``ground_truth`` -> gold
    message_log     str    ``str()`` of the messages (tensors included): not read
    sample_index    int    position in the file

The benchmark is ``--bench``, else ``config.json``'s ``dataset_name``, else the folder's
name; the model is MODEL. Samples are grouped by problem text and the group sizes checked
against each other (``trainer_samples``). The file is one JSON document, read whole.

**GRPO validation dumps** (``nemo_rl/algorithms/grpo.py`` ``validate`` at the same commit:
``logger.log_batched_dict_as_jsonl(val_log_data, f"val_data_step{step}.jsonl")``, written at
every validation, into the logger's log dir; ``nemo_rl/utils/logger.py``
``log_batched_dict_as_jsonl``: one ``json.dumps({**sample, "idx": i})`` line per sample of a
``BatchedDataDict`` sliced one at a time). One line per sample:

    content   [[msg]]  the message log (``get_keys_from_message_log(..., ["role",
                       "content"])``), a batch of one: the user message's content is the
                       chat-templated prompt                     -> the problem, template
                                                                    stripped; the assistant
                                                                    messages -> one sample
    rewards   [float]  the total reward, a batch of one          -> source_correct when 0/1
    idx       int      the line's position

Each ``val_data_step<N>.jsonl`` becomes model ``MODEL@N`` (``MODEL@0``, validation before
training, the base of a new folder). No gold is logged: give ``--gold-from BENCH=SPEC``
(the import says so). The benchmark is ``--bench``, else ``nemo-rl-val``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sampler.benchmarks.files import parse_json_line
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages, problem_of_prompt
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, HarnessFiles, benchmark_name
from sampler.importers.trainer_samples import (
    assistant_text,
    note_no_gold,
    numbered_files,
    read_series,
    score_verdict,
)

FORMAT = "nemo-rl"
SERIES = True
VAL_FILE = re.compile(r"^val_data_step(\d+)\.jsonl$")
VAL_BENCH = "nemo-rl-val"
#: ``extra_env_info`` reprs longer than this are not parsed (no gold from them).
MAX_REPR_CHARS = 100_000


def task_of(path: Path) -> str:
    """``config.json``'s dataset_name beside the file, else the folder's name."""
    try:
        config = json.loads((path.parent / "config.json").read_text(encoding="utf-8"))
        name = config.get("dataset_name") if isinstance(config, dict) else None
        if isinstance(name, str) and name:
            return name.rstrip("/").rsplit("/", 1)[-1]
    except RecursionError:
        raise LeashError(f"{path.parent / 'config.json'}: JSON nested too deeply") from None
    except (OSError, ValueError):
        pass
    return path.parent.name


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    source.refuse_source_metric(FORMAT, "the reward is it")
    benchmark = source.bench or benchmark_name(task or task_of(path), str(path))
    samples = _samples(path)
    file = RecordFile(source, path, FORMAT, "sample")

    def read_record(fields: Fields) -> None:
        prompt = fields.text("prompt", "the prompt text")
        text = fields.text("response", "the generated response")
        assert prompt is not None and text is not None
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem_of_prompt(prompt),
            _gold(fields),
            text,
            score_verdict(fields.record.get("reward")),
        )

    file.read(_objects(samples, file), read_record)


_EVALUATION = HarnessFiles(
    "evaluation_data.json",
    "NeMo-RL evaluation_data.json files (nor GRPO val_data_step<N>.jsonl dumps)",
    task_of,
    read_file,
)


def read_source(source: SourceRead) -> list[str]:
    path = source.path
    named = path.is_file() and VAL_FILE.match(path.name)
    if not named and (path.is_file() or not any(path.rglob("val_data_step*.jsonl"))):
        return _EVALUATION.read_source(source)
    source.refuse_source_metric(FORMAT, "the reward is it")
    steps = numbered_files(
        path,
        VAL_FILE,
        "val_data_step*.jsonl",
        "nemo-rl validation",
        "not a NeMo-RL validation dump: expected val_data_step<N>.jsonl",
        "no NeMo-RL val_data_step<N>.jsonl files found",
    )
    models = read_series(source, steps, _read_validation)
    note_no_gold(source, source.bench or VAL_BENCH, "NeMo-RL's GRPO validation dump")
    return models


def _read_validation(source: SourceRead, path: Path, step: int) -> None:
    benchmark = source.bench or VAL_BENCH
    file = RecordFile(source, path, FORMAT)

    def read_record(fields: Fields) -> None:
        messages = _one(fields, "content")
        if not isinstance(messages, list):
            raise fields.expected("content", "the message log, a batch of one list", messages)
        prompt, text = problem_of_messages(messages), assistant_text(messages)
        if prompt is None or text is None:
            raise fields.fail("the message log has no user message or no assistant message")
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem_of_prompt(prompt),
            None,
            text,
            score_verdict(_one(fields, "rewards")),
        )

    file.read(json_records(path), read_record)


def _one(fields: Fields, name: str) -> Any:
    """A field logged as a batch of one (``[value]``): the value (a bare value as it is)."""
    value = fields.value(name)
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return value


def _objects(samples: list[Any], file: RecordFile) -> Iterator[tuple[int, Any]]:
    """(number, sample) of each sample of the document; one that is no object is a bad record."""
    for number, record in enumerate(samples, start=1):
        if isinstance(record, dict):
            yield number, record
        else:
            kind = type(record).__name__
            yield (
                number,
                LeashError(f"{file.where(number)}: a sample must be a JSON object, got {kind}"),
            )


def _samples(path: Path) -> list[Any]:
    try:
        document = parse_json_line(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise LeashError(f"{path}: not a readable JSON document ({exc})") from None
    samples = document.get("evaluation_data") if isinstance(document, dict) else None
    if not isinstance(samples, list):
        raise LeashError(
            f"{path}: not a NeMo-RL evaluation file: expected an object with an"
            " 'evaluation_data' list"
        )
    return samples


def _gold(fields: Fields) -> str | None:
    """``ground_truth`` of the ``extra_env_info`` repr, by ``ast.literal_eval`` (literals
    only: a repr holding anything else gives no gold, and nothing is run)."""
    info: Any = fields.value("extra_env_info")
    if isinstance(info, str):
        if len(info) > MAX_REPR_CHARS:
            return None
        try:
            info = ast.literal_eval(info)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if not isinstance(info, dict):
        return None
    return Fields(fields.where, info, FORMAT).gold("ground_truth", required=False)
