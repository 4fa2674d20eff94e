"""``leash import --from trl``: TRL ``GRPOTrainer`` completion logs, one checkpoint per step.

Checked against huggingface/trl ``trl/trainer/grpo_trainer.py`` at commit
f2cd57710ae345ea6428ae95363267fcf38a3dc8 (``GRPOTrainer.log``) and the trl 1.16.0 release
(the same file; tests run that release's trainer on a tiny model). With
``GRPOConfig(log_completions=True)`` the trainer writes, at every logging step,

    OUTPUT_DIR/completions/completions_{global_step:05d}.parquet

(``pd.DataFrame(table).to_parquet``) with one row per completion of the latest generation
batch (the logs are deques of ``generation_batch_size``):

    step        int    ``state.global_step``                    -> model MODEL@STEP
    prompt      str    at f2cd577: ``batch_decode(prompt_ids, skip_special_tokens=True)``, the
                       chat template without special tokens       -> problem, template
                                                                     stripped (chat_template)
                [msg]  in 1.16 with a conversational dataset: the prompt's chat messages
                       (``strip_images_from_messages``)           -> the last user message
    completion  str    the decoded completion, or [msg] its assistant messages (joined)
                                                                  -> one sample
    <reward>    float  one column per reward function, named by the function (NaN where
                       it returned None)                          -> source_correct when 0/1
    <extra>     any    columns reward functions logged (``log_extra``), ignored
    advantage   float  ignored

No gold is logged: give ``--gold-from BENCH=SPEC`` to join the benchmark's golds by problem
text (else the questions stay without a gold, and leash verify cannot grade them). The
source verdict is the reward column named by ``--source-metric``, else ``accuracy_reward``
(TRL's own ``trl.rewards.accuracy_reward``), else the only reward-like (numeric) column;
none when several are there and none is named. Each file (step) becomes model
``MODEL@STEP``; its ``num_generations`` completions of a prompt are one question's samples,
and a group of another size (a generation batch cut by the deque) is named in a warning.
PATH is the ``completions`` folder (or the run's output_dir) or one file. The benchmark is
``--bench``, else ``trl``; without ``--gold-from`` for it, the import says that the dump has
no gold and how to give one.

The logged columns are deques (``maxlen=generation_batch_size``) that ``log`` never clears and
only a generation fills: with ``num_iterations > 1`` (or ``steps_per_generation`` above the
gradient accumulation) a logging step with no generation since the last writes the previous
batch again. A step file whose every (prompt, completion, advantage) row is a row of the
previous file is such a repeat: its completions are kept once, at the step they were first
logged, and the import notes the file.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import pyarrow as pa

from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages, problem_of_prompt
from sampler.importers.core import ImportSession
from sampler.importers.formats.parquet_input import open_parquet, parquet_rows
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile
from sampler.importers.source_fields import Fields
from sampler.importers.trainer_samples import (
    completion_text,
    note_no_gold,
    numbered_files,
    read_series,
    score_verdict,
)

FORMAT = "trl"
SERIES = True
STEP_FILE = re.compile(r"^completions_(\d+)\.parquet$")
DEFAULT_BENCH = "trl"
NOT_REWARDS = ("step", "prompt", "completion", "advantage", "image")
ACCURACY = "accuracy_reward"
BATCH_ROWS = 64
#: the columns that tell a logged completion apart from another
REPEAT_KEY = ("prompt", "completion", "advantage")


def read_source(source: SourceRead) -> list[str]:
    repeats = _Repeats()
    steps = []
    for step, path in _files(source.path):
        if repeats.of(path, step, source.session):
            continue  # the last generation batch logged again: kept once, at its first step
        steps.append((step, path))
    models = read_series(source, steps, _read_file)
    note_no_gold(source, source.bench or DEFAULT_BENCH, "TRL's completions log")
    return models


class _Repeats:
    """Step files that only repeat the previous one's completions (module docstring)."""

    def __init__(self) -> None:
        self._previous: Counter[tuple[str, str, str]] | None = None
        self._origin = 0  # the step the previous file's completions were first logged at

    def of(self, path: Path, step: int, session: ImportSession) -> bool:
        """Whether ``path`` (of ``step``) repeats the previous file; noted when it does."""
        rows = _row_keys(path)
        previous, self._previous = self._previous, rows
        if previous is None or not rows or rows - previous:
            self._origin = step
            return False
        session.summary.notes.append(
            f"{path}: its {sum(rows.values())} completions are those logged at step"
            f" {self._origin} (TRL logs its last generation batch again at every logging step"
            " until the next generation, as with num_iterations > 1): kept once, at step"
            f" {self._origin}"
        )
        return True


def _row_keys(path: Path) -> Counter[tuple[str, str, str]]:
    """The (prompt, completion, advantage) of every row of a completions file, counted."""
    handle = open_parquet(path)
    columns = [c for c in ("prompt", "completion", "advantage") if c in handle.schema_arrow.names]
    rows = parquet_rows(handle, columns, path, BATCH_ROWS)
    return Counter(tuple(repr(record.get(c)) for c in REPEAT_KEY) for _, record in rows)


def _files(path: Path) -> list[tuple[int, Path]]:
    return numbered_files(
        path,
        STEP_FILE,
        "completions_*.parquet",
        "trl completions",
        "not a TRL completions file: expected completions_STEP.parquet",
        "no TRL completions_STEP.parquet files found in any subfolder"
        " (GRPOConfig(log_completions=True) writes them to OUTPUT_DIR/completions)",
    )


def _read_file(source: SourceRead, path: Path, step: int) -> None:
    benchmark = source.bench or DEFAULT_BENCH
    handle = open_parquet(path)
    schema = handle.schema_arrow
    if not {"prompt", "completion"} <= set(schema.names):
        raise LeashError(
            f"{path}: not a TRL completions file: expected columns 'prompt' and 'completion';"
            f" found {', '.join(schema.names) or 'none'}"
        )
    verdict_column = _verdict_column(schema, source.source_metric, path)
    columns = [c for c in ("step", "prompt", "completion", verdict_column) if c]
    file = RecordFile(source, path, FORMAT, "row")

    def read_record(fields: Fields) -> None:
        problem, text = _problem(fields), completion_text(fields)
        logged = fields.value("step")
        if logged is not None and logged != step:
            raise fields.fail(f"field 'step' is {logged!r} in the file of step {step}")
        value = fields.value(verdict_column) if verdict_column else None
        if isinstance(value, float) and math.isnan(value):
            value = None
        file.groups.add(
            fields.number, benchmark, source.model, problem, None, text, score_verdict(value)
        )

    file.read(parquet_rows(handle, columns, path, BATCH_ROWS), read_record, "rows")


def _problem(fields: Fields) -> str:
    """The problem of a logged prompt: templated text, or chat messages."""
    value = fields.value("prompt")
    if isinstance(value, str):
        return problem_of_prompt(value)
    problem = problem_of_messages(value)
    if problem is None:
        raise fields.expected(
            "prompt", "the prompt: text, or chat messages with a user message", value
        )
    return problem


def _verdict_column(schema: pa.Schema, requested: str | None, path: Path) -> str | None:
    kinds = (pa.types.is_floating, pa.types.is_integer, pa.types.is_boolean)
    numeric = [
        f.name for f in schema if f.name not in NOT_REWARDS and any(k(f.type) for k in kinds)
    ]
    if requested is not None:
        if requested not in schema.names:
            raise LeashError(
                f"{path}: no column {requested!r} (--source-metric); reward columns here:"
                f" {', '.join(numeric) or 'none'}"
            )
        return requested
    if ACCURACY in numeric:
        return ACCURACY
    return numeric[0] if len(numeric) == 1 else None
