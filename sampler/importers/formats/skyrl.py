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

from sampler.benchmarks.files import iter_json_lines
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_prompt
from sampler.importers.core import ImportSession
from sampler.importers.source_fields import Fields, benchmark_name, refuse_mixed_runs
from sampler.importers.trainer_samples import QuestionGroups, score_verdict

FORMAT = "skyrl"
STEP_DIR = re.compile(r"^global_step_(\d+)_evals$")
EVAL_ONLY = "eval_only"
METRICS_FILE = "aggregated_results.jsonl"
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<｜end▁of▁sentence｜>", "</s>")


def read_source(
    session: ImportSession,
    model: str,
    path: Path,
    bench: str | None,
    source_metric: str | None,
) -> list[str]:
    if source_metric is not None:
        raise LeashError("--source-metric does not apply to --from skyrl (the score is the reward)")
    models = []
    for folder, files in _dump_folders(path).items():
        match = STEP_DIR.match(folder.name)
        name = f"{model}@{int(match.group(1))}" if match else model
        for file in files:
            _read_file(session, name, file, bench)
        models.append(name)
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


def _read_file(session: ImportSession, model: str, path: Path, bench: str | None) -> None:
    index = session.file(path, "line", model)
    groups = QuestionGroups(session, index)
    for number, record in iter_json_lines(path):
        fields = Fields(session.where(index, number), record, FORMAT)
        prompt = fields.text("input_prompt", "the prompt text")
        text = fields.text("output_response", "the response text")
        assert prompt is not None and text is not None
        source = record.get("data_source")
        name = bench or (source if isinstance(source, str) and source else path.stem)
        benchmark = bench or benchmark_name(name.rstrip("/").rsplit("/", 1)[-1], fields.where)
        stop = record.get("stop_reason")
        groups.add(
            number,
            benchmark,
            model,
            problem_of_prompt(prompt),
            fields.gold("env_extras.reward_spec.ground_truth", required=False),
            _without_end_token(text),
            score_verdict(_reward(record.get("score"))),
            finish_reason=stop if isinstance(stop, str) else None,
        )
    if not groups.sizes:
        raise LeashError(f"{path}: no samples (empty file)")
    groups.check_sizes()


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
