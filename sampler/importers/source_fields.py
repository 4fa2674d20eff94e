"""What the evaluation-output importers share: field checks, names, question ids, verdicts.

* ``Fields`` reads one record (a JSON line or a Parquet row) and turns a missing
  or mistyped field into a LeashError that names the file, the line or row, the
  field that was expected and the format that expects it.
* ``benchmark_name`` turns a task or folder name into a valid leash benchmark
  name (``lighteval|aime24|0`` -> ``aime24``, ``mmlu:anatomy`` -> ``mmlu-anatomy``).
* ``text_question_id`` is the id of a question known only by its text: the first
  16 hex digits of the SHA-256 of the text with runs of white space made one space.
* ``HarnessFiles`` is the ``read_source`` of a format read file by file;
* ``source_verdicts`` turns a tool's per-question score into per-sample verdicts
  where the score determines them (see its docstring), and None where it does not.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.importers.core import ImportSession
from sampler.importers.protocol import SourceRead
from sampler.store import check_name

_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9._+\-]+")
#: The timestamp lighteval and lm-evaluation-harness put at the end of their file names.
DATE_SUFFIX = re.compile(r"_(\d{4}-\d{2}-\d{2}T[0-9\-]+(?:\.\d+)?)$")


def describe(value: Any) -> str:
    """A short description of a found value for error messages."""
    if value is None:
        return "nothing"
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text if len(text) <= 40 else text[:39] + '…'}"


class Fields:
    """One record of an input file, with errors that say which field was expected."""

    def __init__(self, where: str, record: dict[str, Any], fmt: str, number: int = 0):
        self.where = where
        self.record = record
        self.fmt = fmt
        #: the record's line or row number in its file
        self.number = number

    def fail(self, message: str) -> LeashError:
        return LeashError(f"{self.where}: {message}")

    def expected(self, name: str, what: str, found: Any = None) -> LeashError:
        if found is None:
            return self.fail(
                f"expected field {name!r} ({what}) but this {self.fmt} record has none"
                f" (fields: {', '.join(sorted(map(str, self.record))) or 'none'})"
            )
        return self.fail(f"field {name!r} must be {what}, got {describe(found)}")

    def value(self, name: str) -> Any:
        """A field, looked up through dotted paths (``doc.query``); None when absent."""
        value: Any = self.record
        for part in name.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(part)
        return value

    def text(self, name: str, what: str = "a string", required: bool = True) -> str | None:
        value = self.value(name)
        if value is None and not required:
            return None
        if not isinstance(value, str):
            raise self.expected(name, what, value)
        return value

    def integer(self, name: str, what: str = "an integer") -> int:
        value = self.value(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.expected(name, what, value)
        return value

    def strings(self, name: str, what: str = "a list of strings") -> list[str]:
        value = self.value(name)
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise self.expected(name, what, value)
        if not value:
            raise self.fail(f"field {name!r} is empty: expected {what}")
        return list(value)

    def gold(self, name: str, required: bool = True) -> str | None:
        """A gold answer: a string, or a number written as text (27.0 -> "27")."""
        value = self.value(name)
        if value is None and not required:
            return None
        if isinstance(value, float) and not math.isfinite(value):
            raise self.expected(name, "the gold answer, a string or finite number", value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.expected(name, "the gold answer, a string or number", value)
        return str(value)

    def question_id(self, name: str) -> str:
        value = self.value(name)
        if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
            raise self.expected(name, "the question's id, an integer or non-empty string", value)
        return str(value).strip()


def benchmark_name(text: str, where: str) -> str:
    """A leash benchmark name for a task or folder name (see the module docstring)."""
    parts = text.split("|")
    if len(parts) >= 3:  # suite|task|fewshot
        text = parts[1]
    elif len(parts) == 2:  # task|fewshot or suite|task
        text = parts[0] if parts[1].strip().isdigit() else parts[1]
    name = _INVALID_NAME_CHARS.sub("-", text.strip()).strip("-._+")
    try:
        return check_name("benchmark", name)
    except ValueError:
        raise LeashError(
            f"{where}: cannot make a benchmark name of {text!r}; give one with --bench"
        ) from None


def checked_bench(bench: str) -> str:
    try:
        return check_name("benchmark", bench)
    except ValueError as exc:
        raise LeashError(f"--bench: {exc}") from None


def refuse_mixed_bench(bench: str | None, path: Path, names: set[str]) -> None:
    """--bench names one benchmark: refuse a PATH whose files belong to several."""
    if bench is not None and len(names) > 1:
        raise LeashError(
            f"--bench {bench}: {path} holds the files of several benchmarks"
            f" ({', '.join(sorted(names))}); import them without --bench, or one at a time"
        )


def refuse_mixed_runs(path: Path, task_of_file: dict[Path, str]) -> None:
    """Refuse a PATH that holds one benchmark's files in several folders: a parent of
    several models' (or runs') output folders, which would become one model."""
    folders: dict[str, set[Path]] = {}
    for file, task in task_of_file.items():
        folders.setdefault(task, set()).add(file.parent)
    for task, found in sorted(folders.items()):
        if len(found) > 1:
            names = sorted(str(f) for f in found)
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            raise LeashError(
                f"{path}: the files of benchmark {task} are in {len(found)} folders ({shown}):"
                " these look like several runs or models; import each folder as its own"
                " MODEL=DIR"
            )


def task_from_file_name(path: Path, prefix: str) -> str | None:
    """``samples_gsm8k_2024-05-01T12-00-00.123.jsonl`` -> ``gsm8k`` (prefix "samples_")."""
    stem = path.name.rsplit(".", 1)[0]
    if not stem.startswith(prefix):
        return None
    match = DATE_SUFFIX.search(stem)
    task = stem[len(prefix) : match.start()] if match else stem[len(prefix) :]
    return task or None


def text_question_id(text: str) -> str:
    """The id of a question known only by its text (see the module docstring)."""
    normal = " ".join(text.split())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:16]


def find_input_files(path: Path, pattern: str, what: str) -> list[Path]:
    """``path`` itself when it is a file, else the files matching ``pattern`` below it."""
    if path.is_file():
        return [path]
    if not path.exists():
        raise LeashError(f"{path}: no such file or directory")
    files = sorted(p for p in path.rglob(pattern) if p.is_file() and not p.name.startswith("."))
    if not files:
        raise LeashError(f"{path}: no {what} found (looked for {pattern} in all subfolders)")
    return files


def skipped_folders(path: Path, files: list[Path], pattern: str, what: str) -> list[str]:
    """One line per folder below ``path`` that holds files but none of ``files`` (a folder of
    metrics files only, such as ``college_math/``): it is skipped, and said so."""
    if not path.is_dir():
        return []
    used = {parent for f in files for parent in f.parents}
    notes = []
    for folder in sorted(p for p in path.rglob("*") if p.is_dir() and p not in used):
        held = [f for f in folder.iterdir() if f.is_file() and not f.name.startswith(".")]
        if held:
            names = ", ".join(sorted(f.name for f in held)[:3])
            notes.append(
                f"{folder}: no {what} ({pattern}), skipped; it holds {len(held)} other"
                f" file(s): {names}{' …' if len(held) > 3 else ''}"
            )
    return notes


@dataclass(frozen=True)
class HarnessFiles:
    """The ``read_source`` of an evaluation output read file by file.

    The skeleton every harness format shares: the module names its files (``pattern``,
    ``files_are``), the task a file belongs to (``task_of``) and how one file is read
    (``read_file(source, file, task)``); ``--bench`` may name one benchmark only, and one
    benchmark's files lie in one folder (else several runs or models: refused).
    """

    pattern: str
    files_are: str
    task_of: Callable[[Path], str | None]
    read_file: Callable[[SourceRead, Path, str | None], None]

    def read_source(self, source: SourceRead) -> list[str]:
        """Stream every file under ``source.path`` (a ``protocol.SourceRead``) into its
        session as ``source.model``; return ``[source.model]``."""
        path, bench = source.path, source.bench
        files = find_input_files(path, self.pattern, self.files_are)
        source.session.summary.warnings += skipped_folders(
            path, files, self.pattern, self.files_are
        )
        refuse_mixed_bench(bench, path, {str(self.task_of(f)) for f in files})
        refuse_mixed_runs(path, {f: bench or str(self.task_of(f)) for f in files})
        for file in files:
            self.read_file(source, file, self.task_of(file))
        return [source.model]


def is_mean_score(metric: str) -> bool:
    """Whether a lighteval metric is the mean of 0/1 scores over a question's samples."""
    return bool(re.search(r"avg@n|pass@1(?![0-9])|pass@k:k=1(?![0-9])", metric))


def choose_metric(
    available: list[str], requested: str | None, fields: Fields, mean_first: bool
) -> str | None:
    """The metric whose value is the source verdict: ``requested``, else a default.

    The default is the first metric that is a mean over samples (when ``mean_first``),
    else the first metric listed. None when the record has no metric at all.
    """
    if requested is not None:
        if requested not in available:
            raise fields.fail(
                f"no metric {requested!r} (--source-metric); metrics here:"
                f" {', '.join(available) or 'none'}"
            )
        return requested
    if mean_first:
        for name in available:
            if is_mean_score(name):
                return name
    return available[0] if available else None


def source_verdicts(score: Any, n: int, mean_of_samples: bool) -> list[bool | None]:
    """Per-sample verdicts from a per-question score, where the score determines them.

    One sample: a score of 0 or 1 (or false/true) is its verdict. Several samples:
    only a mean over samples (``mean_of_samples``) that is exactly 0 or 1 says that
    every sample was wrong or right; any other score (0.25, or a pass@k or
    majority score) does not tell which samples were right, and gives None.
    """
    if isinstance(score, bool):
        score = int(score)
    if not isinstance(score, int | float) or not math.isfinite(score) or score not in (0, 1):
        return [None] * n
    if n == 1 or mean_of_samples:
        return [score == 1] * n
    return [None] * n


def stage_question_samples(
    session: ImportSession,
    file_index: int,
    number: int,
    key: tuple[str, str, str],
    texts: list[str],
    verdicts: list[bool | None],
    finish_reasons: list[str | None] | None = None,
    n_tokens: list[int | None] | None = None,
) -> None:
    """Stage one question's completions as samples numbered after those already staged.

    Samples carry the source's verdict in ``source_correct`` only: ``correct`` and
    ``status`` stay empty so that ``leash verify`` grades them with leash's verifier.
    """
    benchmark, question_id, model = key
    first = session.next_sample_index(benchmark, question_id, model)
    for j, text in enumerate(texts):
        session.add_sample(
            {
                "benchmark": benchmark,
                "question_id": question_id,
                "model": model,
                "sample": first + j,
                "text": text,
                "n_tokens": n_tokens[j] if n_tokens else None,
                "finish_reason": finish_reasons[j] if finish_reasons else None,
                "source_correct": verdicts[j],
            },
            file_index,
            number,
        )


def resolve_question(
    session: ImportSession,
    benchmark: str,
    proposed: str,
    problem: str | None,
    templated: bool = False,
) -> tuple[str, str | None]:
    """(question id, problem to record): the folder's id when it knows the problem by text.

    A matched question keeps the problem text already in the folder (None is
    returned for it); see ``ImportSession.match_question`` for the rule.
    """
    question_id, matched = session.match_question(benchmark, proposed, problem, templated)
    return question_id, (None if matched else problem)
