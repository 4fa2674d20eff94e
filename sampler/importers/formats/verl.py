"""``leash import --from verl``: verl's generation dumps, one checkpoint per step.

Checked against volcengine/verl ``verl/trainer/ppo/ray_trainer.py`` at commit
00401103a8c8900774aba04b910de5b0af930b99 (``RayPPOTrainer._dump_generations``, called by
``_validate`` when ``trainer.validation_data_dir`` is set and by ``fit`` when
``trainer.rollout_data_dir`` is set) and ``verl/trainer/main_generation.py`` at commit
0d75188ec6995694eb7ef0a01e7f86066d7097b1 (offline generation).

**Step dumps** (``DIR/STEP.jsonl``, written at ``self.global_steps``; the validation run
before training, ``val_before_train``, is step 0, that is the base model). One line per
sample:

    input   str    the prompt, ``tokenizer.decode(input_ids, skip_special_tokens=True)``:
                   the chat template without its special tokens    -> the problem, template
                                                                      stripped (chat_template)
    output  str    the completion, decoded the same way             -> one sample
    gts     any    ``reward_model.ground_truth`` (newer verl only)  -> gold, when present
    score   float  the reward (``reward_tensor.sum(-1)``)            -> source_correct when 0/1
    step    int    ``global_steps``, also the file name
    ...            reward extras of the same length (``acc``, ``pred``, ``reward``, ...):
                   ``acc`` (0/1 or bool), when present, is the source verdict rather than
                   ``score``; ``--source-metric NAME`` names another field

Validation repeats every prompt ``val_kwargs.n`` times (``repeat(interleave=True)``) after
a shuffled loader, and rollout dumps follow batch balancing, so lines carry no order
leash relies on: samples are grouped by problem text (``trainer_samples``), and a group
of another size than the file's k is named in a warning. Each ``STEP.jsonl`` becomes model
``MODEL@STEP``; a new folder's base is ``MODEL@0`` unless ``--base`` says otherwise.
PATH is the dump folder or one ``STEP.jsonl``; a PATH with step files in several folders
(a validation and a rollout dump, two runs) is refused, naming them. The benchmark is
``--bench``, else the dump folder's name.

**Offline generation** (``main_generation.py``: ``dataset.to_parquet(data.output_path)``),
one row per question: the input dataset's columns plus ``responses`` (list of str, n_samples
completions); ``prompt`` (``data.prompt_key``) is the chat messages -> the last user
message is the problem; ``reward_model.ground_truth`` -> gold; ``data_source`` -> the
benchmark (its last ``/`` part) unless ``--bench``. It is not scored (no source verdict);
the model is MODEL itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages, problem_of_prompt
from sampler.importers.core import ImportSession
from sampler.importers.formats.parquet_input import open_parquet, parquet_rows
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, benchmark_name
from sampler.importers.trainer_samples import (
    note_no_gold,
    numbered_files,
    read_series,
    score_verdict,
)

FORMAT = "verl"
SERIES = True
STEP_FILE = re.compile(r"^(\d+)\.jsonl$")
PARQUET_COLUMNS = ("data_source", "prompt", "reward_model", "responses")
BATCH_ROWS = 16


def read_source(source: SourceRead) -> list[str]:
    path = source.path
    if path.is_file() and path.suffix == ".parquet":
        read_generation_parquet(source, path)
        return [source.model]
    steps = step_files(path)
    models = read_series(source, steps, read_step_file)
    benchmark = source.bench or benchmark_name(steps[0][1].parent.name, str(steps[0][1]))
    questions = source.session.questions
    if not any(g for (b, _), g in questions.golds() if b == benchmark):
        note_no_gold(source, benchmark, "this verl dump (no 'gts': verl before it logged them)")
    return models


def step_files(path: Path) -> list[tuple[int, Path]]:
    """The ``STEP.jsonl`` files of a dump, by step; all in one folder (else refused)."""
    return numbered_files(
        path,
        STEP_FILE,
        "*.jsonl",
        "verl steps",
        "not a verl dump file: expected STEP.jsonl (0.jsonl, 10.jsonl, ...)"
        " or the .parquet of main_generation",
        "no verl STEP.jsonl files found in any subfolder (the dump folder of"
        " trainer.validation_data_dir or trainer.rollout_data_dir)",
    )


def read_step_file(source: SourceRead, path: Path, step: int) -> None:
    benchmark = source.bench or benchmark_name(path.parent.name, str(path))
    file = RecordFile(source, path, FORMAT)
    odd: list[int] = []  # lines whose gold is not one string or number

    def read_record(fields: Fields) -> None:
        prompt = fields.text("input", "the prompt text")
        text = fields.text("output", "the completion text")
        assert prompt is not None and text is not None
        logged = fields.value("step")
        if logged is not None and logged != step:
            raise fields.fail(f"field 'step' is {logged!r} in file {path.name} of step {step}")
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem_of_prompt(prompt),
            _gold(fields, "gts", odd),
            text,
            _verdict(fields, source.source_metric),
        )

    file.read(json_records(path), read_record)
    _warn_odd_golds(source.session, path, "gts", odd)


def _gold(fields: Fields, name: str, odd: list[int]) -> str | None:
    """A gold that is one string or number (a list of one such is that one); another value
    (several acceptable answers, a dict) is no gold, and the record's number goes to ``odd``."""
    value = fields.value(name)
    if isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
        return Fields(fields.where, {"gold": value}, FORMAT).gold("gold", required=False)
    odd.append(fields.number)
    return None


def _warn_odd_golds(session: ImportSession, path: Path, name: str, odd: list[int]) -> None:
    if odd:
        lines = ", ".join(map(str, odd[:5])) + (f" and {len(odd) - 5} more" if len(odd) > 5 else "")
        session.summary.warnings.append(
            f"{path}: {len(odd)} line(s) have a '{name}' that is not one answer (lines {lines}):"
            " their questions get no gold from it (--gold-from BENCH=SPEC can give one)"
        )


def _verdict(fields: Fields, source_metric: str | None) -> bool | None:
    if source_metric is not None:
        if source_metric not in fields.record:
            raise fields.fail(
                f"no field {source_metric!r} (--source-metric); fields here:"
                f" {', '.join(sorted(fields.record))}"
            )
        return score_verdict(fields.record[source_metric])
    if "acc" in fields.record:
        return score_verdict(fields.record["acc"])
    return score_verdict(fields.value("score"))


def read_generation_parquet(source: SourceRead, path: Path) -> None:
    handle = open_parquet(path)
    names = set(handle.schema_arrow.names)
    if not {"prompt", "responses"} <= names:
        raise LeashError(
            f"{path}: not a verl generation file: expected columns 'prompt' and 'responses'"
            f" (main_generation.py); found {', '.join(sorted(names)) or 'none'}"
        )
    file = RecordFile(source, path, FORMAT, "row")
    odd: list[int] = []

    def read_record(fields: Fields) -> None:
        problem = problem_of_messages(fields.value("prompt"))
        if problem is None:
            raise fields.expected("prompt", "the chat messages, with a user message")
        texts = fields.strings("responses", "the list of generated responses")
        benchmark = source.bench or _benchmark_of(fields)
        gold = _gold(fields, "reward_model.ground_truth", odd)
        for text in texts:
            file.groups.add(fields.number, benchmark, source.model, problem, gold, text, None)

    columns = [c for c in PARQUET_COLUMNS if c in names]
    file.read(parquet_rows(handle, columns, path, BATCH_ROWS), read_record, "rows")
    _warn_odd_golds(source.session, path, "reward_model.ground_truth", odd)


def _benchmark_of(fields: Fields) -> str:
    source = fields.text("data_source", "the data source (or give --bench)")
    assert source is not None
    return benchmark_name(source.rstrip("/").rsplit("/", 1)[-1], fields.where)
