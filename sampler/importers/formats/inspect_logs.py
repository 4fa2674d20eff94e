"""``leash import --from inspect``: Inspect AI ``.eval`` logs, read with inspect_ai's own reader.

Checked against UKGovernmentBEIS/inspect_ai at commit
499e6152e7b8fc8cbd8ac5283536572aa6e4ab17 (``src/inspect_ai/log/_file.py``:
``read_eval_log(header_only=True)``, ``read_eval_log_samples``; ``src/inspect_ai/log/_log.py``:
``EvalSample``; ``src/inspect_ai/scorer/_metric.py``: the score values C/I/P/N). leash never
parses the archive itself: the format is inspect_ai's to read (``pip install inspect_ai``, or
``leash-rlvr[inspect]``), and without it ``--from inspect`` says so. From each sample:

    id, epoch            the dataset sample and the epoch  -> question_id; the epochs of a
                                                              sample are its samples
    input                str or chat messages              -> problem (the last user message)
    target               str (or a list of one)            -> gold
    output.completion    str                               -> the sample's text
    output.stop_reason   "stop", "max_tokens", ...         -> finish_reason
    error                an errored sample (no output; the log still "success" when
                         ``fail_on_error`` allows errors)   -> a sample of status ``error``,
                                                              the error message its detail
    scores               {scorer: Score}: the scorer named by ``--source-metric``, else the
                         first; its value C/I, true/false or 1/0 -> source_correct

The benchmark is ``--bench``, else the log's task name (``eval.task``). A log that is not
complete (``status`` other than success) is refused. PATH is a log file or a folder of logs
(Inspect writes every run into one ``logs/`` folder): two logs of one task under PATH (two
models, or two runs) are refused, naming them; import each as its own MODEL=FILE.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sampler import install_hint
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile
from sampler.importers.source_fields import Fields, benchmark_name, find_input_files
from sampler.importers.trainer_samples import score_verdict

FORMAT = "inspect"
SCORE_VALUES = {"C": True, "I": False}


def _reader() -> Any:
    try:
        from inspect_ai import log
    except ImportError:
        raise LeashError(
            "--from inspect reads .eval logs with inspect_ai's own reader, which is not"
            f" installed: pip install inspect_ai (or {install_hint('inspect')})"
        ) from None
    return log


def read_source(source: SourceRead) -> list[str]:
    log = _reader()
    path, bench = source.path, source.bench
    files = find_input_files(path, "*.eval", "Inspect .eval logs")
    headers = {file: _header(log, file) for file in files}
    by_task: dict[str, list[Path]] = {}
    for file, header in headers.items():
        by_task.setdefault(bench or str(header.eval.task), []).append(file)
    for task, logs in by_task.items():
        if len(logs) > 1:
            described = ", ".join(f"{f.name} ({headers[f].eval.model})" for f in logs)
            raise LeashError(
                f"{path}: {len(logs)} logs of task {task} ({described}): several runs or models;"
                " import each log as its own MODEL=FILE"
            )
    for file, header in headers.items():
        _read_log(log, source, file, header)
    return [source.model]


def _header(log: Any, file: Path) -> Any:
    try:
        header = log.read_eval_log(str(file), header_only=True)
    except Exception as exc:  # inspect_ai's own errors: a bad or foreign file
        raise LeashError(
            f"{file}: not a readable Inspect log ({type(exc).__name__}: {exc})"
        ) from None
    if header.status != "success":
        raise LeashError(
            f"{file}: the log is not complete (status {header.status!r}); leash imports"
            " finished evaluations only"
        )
    return header


def _read_log(log: Any, source: SourceRead, path: Path, header: Any) -> None:
    benchmark = source.bench or benchmark_name(str(header.eval.task).rsplit("/", 1)[-1], str(path))
    file = RecordFile(source, path, FORMAT, "sample")

    def read_record(fields: Fields) -> None:
        try:
            read_sample(fields, fields.record["sample"])
        except LeashError:
            raise
        except Exception as exc:  # an EvalSample of a shape this reader does not know
            raise fields.fail(f"cannot read this sample ({type(exc).__name__}: {exc})") from None

    def read_sample(fields: Fields, sample: Any) -> None:
        problem = sample.input
        if not isinstance(problem, str):
            messages = [{"role": m.role, "content": m.text} for m in problem]
            problem = problem_of_messages(messages) or ""
        target = sample.target
        gold = target if isinstance(target, str) else target[0] if len(target) == 1 else None
        output = sample.output
        choices = getattr(output, "choices", None) or []
        stop = choices[0].stop_reason if choices else None
        error = sample.error
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem,
            gold or None,
            output.completion if output is not None else "",
            _verdict(sample.scores or {}, source.source_metric, fields.where),
            finish_reason=stop if isinstance(stop, str) else None,
            question_id=str(sample.id),
            error=None if error is None else f"errored sample: {error.message}",
        )

    file.read(_samples(log, path), read_record)


def _samples(log: Any, path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(number, {"sample": EvalSample}) of each sample, read by inspect_ai."""
    try:
        samples = log.read_eval_log_samples(str(path), exclude_fields={"events", "store"})
        for number, sample in enumerate(samples, start=1):
            yield number, {"sample": sample}
    except LeashError:
        raise
    except Exception as exc:
        raise LeashError(f"{path}: cannot read its samples ({type(exc).__name__}: {exc})") from None


def _verdict(scores: dict[str, Any], source_metric: str | None, where: str) -> bool | None:
    if source_metric is not None:
        if source_metric not in scores:
            raise LeashError(
                f"{where}: no scorer {source_metric!r} (--source-metric); scorers here:"
                f" {', '.join(scores) or 'none'}"
            )
        score = scores[source_metric]
    elif scores:
        score = next(iter(scores.values()))
    else:
        return None
    value = score.value
    if isinstance(value, str):
        return SCORE_VALUES.get(value)
    return score_verdict(value)
