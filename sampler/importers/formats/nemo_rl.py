"""``leash import --from nemo-rl``: NeMo-RL evaluation data (``evaluation_data.json``).

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
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_prompt
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile
from sampler.importers.source_fields import Fields, HarnessFiles, benchmark_name
from sampler.importers.trainer_samples import score_verdict

FORMAT = "nemo-rl"
#: ``extra_env_info`` reprs longer than this are not parsed (no gold from them).
MAX_REPR_CHARS = 100_000


def task_of(path: Path) -> str:
    """``config.json``'s dataset_name beside the file, else the folder's name."""
    try:
        config = json.loads((path.parent / "config.json").read_text(encoding="utf-8"))
        name = config.get("dataset_name") if isinstance(config, dict) else None
        if isinstance(name, str) and name:
            return name.rstrip("/").rsplit("/", 1)[-1]
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


read_source = HarnessFiles(
    "evaluation_data.json", "NeMo-RL evaluation_data.json files", task_of, read_file
).read_source


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
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
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
