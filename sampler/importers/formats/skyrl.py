"""``leash import --from skyrl``: SkyRL evaluation dumps, one checkpoint per global step.

Checked against NovaSky-AI/SkyRL ``skyrl-train/skyrl_train/utils/trainer_utils.py`` at commit
05885025fabff452b330e085e8db0a4196e8f261 (``dump_per_dataset_eval_results``, called when
``trainer.dump_eval_results`` is true). Every evaluation writes

    EXPORT_PATH/dumped_evals/global_step_<N>_evals/<data_source>.jsonl   (eval_only/ for an
                                                                            evaluation-only run)

plus ``aggregated_results.jsonl`` (the metrics; not read). One line per sample:

    input_prompt     str    ``tokenizer.decode(prompt_token_ids)``: the chat template with its
                            special tokens                    -> the problem, template stripped
    output_response  str    ``tokenizer.decode(response_ids)`` -> one sample (a trailing
                            end-of-turn token such as ``<|im_end|>`` dropped)
    score            float  the reward, or a list of per-token rewards (summed) -> source_correct
                            when 0/1 (``--source-metric`` is not used)
    stop_reason      str    "stop", "length", ...             -> finish_reason
    env_extras       dict   the dataset row's extra columns: ``reward_spec.ground_truth`` -> gold
    data_source      str    the dataset                       -> the benchmark, unless --bench

Each ``global_step_<N>_evals`` folder becomes model ``MODEL@N`` (``MODEL@0``, the evaluation
before training, the base of a new folder); ``eval_only`` is ``MODEL`` itself. Samples are
grouped by problem text and the group sizes of a file checked against each other
(``trainer_samples``). PATH is the ``dumped_evals`` folder, one step's folder or one file; a
PATH holding the dumps of several runs (several ``dumped_evals`` folders) is refused.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_prompt
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, benchmark_name, refuse_mixed_runs
from sampler.importers.trainer_samples import score_verdict

FORMAT = "skyrl"
SERIES = True
STEP_DIR = re.compile(r"^global_step_(\d+)_evals$")
EVAL_ONLY = "eval_only"
METRICS_FILE = "aggregated_results.jsonl"
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<｜end▁of▁sentence｜>", "</s>")


def read_source(source: SourceRead) -> list[str]:
    source.refuse_source_metric(FORMAT, "the score is the reward")
    models = []
    for folder, files in _dump_folders(source.path).items():
        match = STEP_DIR.match(folder.name)
        at = source.as_model(f"{source.model}@{int(match.group(1))}") if match else source
        for file in files:
            _read_file(at, file)
        models.append(at.model)
    return list(dict.fromkeys(models))


def _dump_folders(path: Path) -> dict[Path, list[Path]]:
    """Step folder -> its data-source files; one ``dumped_evals`` folder (else refused)."""
    if path.is_file():
        files = [path]
    else:
        files = sorted(
            p
            for p in path.rglob("*.jsonl")
            if p.is_file()
            and p.name != METRICS_FILE
            and (STEP_DIR.match(p.parent.name) or p.parent.name == EVAL_ONLY)
        )
    if not files:
        raise LeashError(
            f"{path}: no SkyRL dumps found (dumped_evals/global_step_<N>_evals/*.jsonl;"
            " trainer.dump_eval_results=true writes them)"
        )
    refuse_mixed_runs(path, {f.parent: "skyrl dumped_evals" for f in files})
    folders: dict[Path, list[Path]] = {}
    for file in files:
        folders.setdefault(file.parent, []).append(file)
    return dict(sorted(folders.items(), key=lambda item: _step(item[0])))


def _step(folder: Path) -> int:
    match = STEP_DIR.match(folder.name)
    return int(match.group(1)) if match else -1


def _read_file(source: SourceRead, path: Path) -> None:
    file = RecordFile(source, path, FORMAT)
    bench = source.bench

    def read_record(fields: Fields) -> None:
        record = fields.record
        prompt = fields.text("input_prompt", "the prompt text")
        text = fields.text("output_response", "the response text")
        assert prompt is not None and text is not None
        data_source = record.get("data_source")
        name = data_source if isinstance(data_source, str) and data_source else path.stem
        benchmark = bench or benchmark_name(name.rstrip("/").rsplit("/", 1)[-1], fields.where)
        stop = record.get("stop_reason")
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem_of_prompt(prompt),
            fields.gold("env_extras.reward_spec.ground_truth", required=False),
            _without_end_token(text),
            score_verdict(_reward(record.get("score"))),
            finish_reason=stop if isinstance(stop, str) else None,
        )

    file.read(json_records(path), read_record)


def _reward(score: Any) -> Any:
    if isinstance(score, list) and all(isinstance(s, int | float) for s in score):
        total = float(sum(score))
        return total if math.isfinite(total) else None
    return score


def _without_end_token(text: str) -> str:
    for token in END_TOKENS:
        if text.endswith(token):
            return text[: -len(token)]
    return text
