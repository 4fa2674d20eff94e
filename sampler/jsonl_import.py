"""``leash import``: build or extend a results folder from sample JSON Lines (interchange.md §1).

The input is read in one streaming pass that validates every line and stages the
samples as Parquet shards in a hidden folder. Only when every file is valid are
the manifest and questions updated and the staged shards moved into ``samples/``;
any bad line (missing field, wrong type, duplicate sample, not JSON, a sample
already in the folder, an unknown --base model) raises LeashError naming the file
and line, and the results folder is left exactly as it was.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds

from sampler.atomic_io import fsync_directory
from sampler.errors import LeashError
from sampler.results_manifest import load_manifest, new_manifest, update_manifest
from sampler.results_schema import (
    DEFAULT_DOMAIN,
    MANIFEST_FILE,
    ROLE_BASE,
    ROLE_TARGET,
    SAMPLES_DIR,
    SAMPLES_SCHEMA,
    STATUS_CORRECT,
    STATUS_INCORRECT,
    STATUSES,
    BenchmarkEntry,
    ModelEntry,
    check_name,
)
from sampler.results_writer import (
    create_results,
    merge_questions,
    new_shard_path,
    questions_table,
    write_shard_file,
)

STAGE_ROWS = 100_000
REQUIRED = ("benchmark", "question_id", "model", "sample", "text")
SampleKey = tuple[str, str, str, int]


@dataclass
class ImportSummary:
    """What an import added."""

    samples: int = 0
    questions_added: int = 0
    models: dict[str, int] = field(default_factory=dict)
    benchmarks: dict[str, int] = field(default_factory=dict)
    with_verdict: int = 0
    created: bool = False


def existing_sample_keys(root: Path) -> set[SampleKey]:
    """Keys of the samples already in a results folder (reads only the key columns)."""
    paths = sorted((Path(root) / SAMPLES_DIR).glob("part-*.parquet"))
    if not paths:
        return set()
    try:
        table = ds.dataset([str(p) for p in paths], format="parquet").to_table(
            columns=["benchmark", "question_id", "model", "sample"]
        )
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(
            f"{Path(root) / SAMPLES_DIR}: cannot read existing samples ({exc})"
        ) from exc
    cols = [table.column(c).to_pylist() for c in ("benchmark", "question_id", "model", "sample")]
    return set(zip(*cols, strict=True))


class _LineChecker:
    """Validates one JSON line's fields and converts them to a sample row."""

    def __init__(self, where: str, record: dict[str, Any]):
        self.where = where
        self.record = record

    def fail(self, message: str) -> LeashError:
        return LeashError(f"{self.where}: {message}")

    def required_str(self, name: str) -> str:
        value = self.record.get(name)
        if not isinstance(value, str) or (name != "text" and not value.strip()):
            kind = "a string" if name == "text" else "a non-empty string"
            raise self.fail(f"field {name!r} must be {kind}, got {_describe(value)}")
        return value

    def optional(self, name: str, types: tuple[type, ...], what: str) -> Any:
        value = self.record.get(name)
        if value is None:
            return None
        if isinstance(value, bool) and bool not in types:
            raise self.fail(f"field {name!r} must be {what}, got {_describe(value)}")
        if not isinstance(value, types):
            raise self.fail(f"field {name!r} must be {what}, got {_describe(value)}")
        return value

    def name(self, field_name: str, kind: str) -> str:
        value = self.required_str(field_name)
        try:
            return check_name(kind, value)
        except ValueError as exc:
            raise self.fail(f"field {field_name!r}: {exc}") from None

    def row(self) -> dict[str, Any]:
        missing = [f for f in REQUIRED if f not in self.record]
        if missing:
            raise self.fail(
                f"missing required field{'s' if len(missing) > 1 else ''} "
                + ", ".join(repr(m) for m in missing)
            )
        qid = self.record["question_id"]
        if isinstance(qid, bool) or not isinstance(qid, str | int):
            raise self.fail(
                f"field 'question_id' must be a string or integer, got {_describe(qid)}"
            )
        qid = str(qid).strip()
        if not qid:
            raise self.fail("field 'question_id' is empty")
        sample = self.record["sample"]
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
            raise self.fail(f"field 'sample' must be an integer >= 0, got {_describe(sample)}")
        if sample >= 2**31:
            raise self.fail(f"field 'sample' is too large ({sample})")
        correct = self.optional("correct", (bool,), "true or false")
        status = self.optional("status", (str,), "a string")
        if status is not None and status not in STATUSES:
            raise self.fail(f"field 'status' must be one of {', '.join(STATUSES)}, got {status!r}")
        if status is not None and correct is not None and (status == STATUS_CORRECT) != correct:
            raise self.fail(f"fields 'correct' ({correct}) and 'status' ({status!r}) disagree")
        if status is None and correct is not None:
            status = STATUS_CORRECT if correct else STATUS_INCORRECT
        if correct is None and status is not None:
            correct = status == STATUS_CORRECT
        n_tokens = self.optional("n_tokens", (int,), "an integer >= 0")
        if n_tokens is not None and n_tokens < 0:
            raise self.fail(f"field 'n_tokens' must be an integer >= 0, got {n_tokens}")
        entropy = self.optional("token_entropy", (int, float), "a number")
        if entropy is not None and not math.isfinite(entropy):
            raise self.fail(f"field 'token_entropy' must be finite, got {entropy}")
        return {
            "benchmark": self.name("benchmark", "benchmark"),
            "question_id": qid,
            "model": self.name("model", "model"),
            "sample": sample,
            "text": self.required_str("text"),
            "n_tokens": n_tokens,
            "finish_reason": self.optional("finish_reason", (str,), "a string"),
            "answer": self.optional("answer", (str,), "a string"),
            "correct": correct,
            "status": status,
            "source_correct": self.record.get("correct") if correct is not None else None,
            "token_entropy": None if entropy is None else float(entropy),
        }


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null or absent)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


@dataclass
class _QuestionInfo:
    problem: str | None
    gold: str | None
    where: str


class _Staging:
    """Sample rows buffered and written as hidden Parquet shards until the import commits."""

    def __init__(self, root: Path):
        self.folder = root / f".staging-{uuid.uuid4().hex[:12]}"
        self.rows: list[dict[str, Any]] = []
        self.files: list[Path] = []

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if len(self.rows) >= STAGE_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"stage-{len(self.files):05d}.parquet"
        write_shard_file(path, pa.Table.from_pylist(self.rows, schema=SAMPLES_SCHEMA))
        self.files.append(path)
        self.rows = []

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def import_jsonl(
    paths: Sequence[Path | str], root: Path | str, base: str | None = None
) -> ImportSummary:
    """Import sample JSONL files into ``root`` (created if absent). See the module docstring."""
    root = Path(root)
    is_new = not (root / MANIFEST_FILE).exists()
    if is_new:
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise LeashError(f"{root}: exists and is not a leash results folder")
        if base is None:
            raise LeashError("--base is required when creating a new results folder")
        manifest = None
        known_keys: set[SampleKey] = set()
    else:
        manifest = load_manifest(root)
        if manifest.base and base and manifest.base.name != base:
            raise LeashError(f"--base {base}: {root} already has base model {manifest.base.name!r}")
        known_keys = existing_sample_keys(root)

    summary = ImportSummary(created=is_new)
    seen: dict[SampleKey, str] = {}
    questions: dict[tuple[str, str], _QuestionInfo] = {}
    domains: dict[str, tuple[str, str]] = {}
    staging_root = root if not is_new else root.parent / f".{root.name}.import"
    staging = _Staging(staging_root)
    try:
        for path in map(Path, paths):
            _read_file(path, staging, seen, known_keys, questions, domains, summary, root)
        staging.flush()
        models_in_input = set(summary.models)
        all_models = models_in_input | ({m.name for m in manifest.models} if manifest else set())
        if not is_new and base is None and manifest and manifest.base is None:
            raise LeashError(f"{root} has no base model yet: give --base")
        wanted_base = base or (manifest.base.name if manifest and manifest.base else None)
        if wanted_base not in all_models:
            raise LeashError(
                f"--base {wanted_base}: no sample has model {wanted_base!r}"
                f" (models: {', '.join(sorted(all_models)) or 'none'})"
            )
        if summary.samples == 0:
            raise LeashError("no samples in the input: " + ", ".join(str(p) for p in paths))
        _commit(root, is_new, wanted_base, staging, questions, domains, summary, paths)
    finally:
        staging.discard()
        if is_new and staging_root != root:
            shutil.rmtree(staging_root, ignore_errors=True)
    return summary


def _read_file(
    path: Path,
    staging: _Staging,
    seen: dict[SampleKey, str],
    known_keys: set[SampleKey],
    questions: dict[tuple[str, str], _QuestionInfo],
    domains: dict[str, tuple[str, str]],
    summary: ImportSummary,
    root: Path,
) -> None:
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    in_file = 0
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                in_file += 1
                where = f"{path} line {number}"
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise LeashError(f"{where}: not valid JSON ({exc.msg})") from None
                if not isinstance(record, dict):
                    raise LeashError(f"{where}: expected a JSON object, got {_describe(record)}")
                checker = _LineChecker(where, record)
                row = checker.row()
                key: SampleKey = (row["benchmark"], row["question_id"], row["model"], row["sample"])
                if key in seen:
                    raise LeashError(
                        f"{where}: duplicate sample (benchmark={key[0]}, question_id={key[1]},"
                        f" model={key[2]}, sample={key[3]}); first at {seen[key]}"
                    )
                if key in known_keys:
                    raise LeashError(
                        f"{where}: sample (benchmark={key[0]}, question_id={key[1]},"
                        f" model={key[2]}, sample={key[3]}) is already in {root};"
                        " import never overwrites a sample"
                    )
                seen[key] = where
                _note_question(checker, row, questions)
                _note_domain(checker, row["benchmark"], domains)
                staging.add(row)
                summary.samples += 1
                summary.models[row["model"]] = summary.models.get(row["model"], 0) + 1
                summary.benchmarks[row["benchmark"]] = (
                    summary.benchmarks.get(row["benchmark"], 0) + 1
                )
                summary.with_verdict += row["status"] is not None
        except UnicodeDecodeError as exc:
            raise LeashError(f"{path}: not UTF-8 text ({exc})") from None
    if in_file == 0:
        raise LeashError(f"{path}: no samples (empty file)")


def _note_question(
    checker: _LineChecker, row: dict[str, Any], questions: dict[tuple[str, str], _QuestionInfo]
) -> None:
    problem = checker.optional("problem", (str,), "a string")
    gold = checker.optional("gold", (str, int, float), "a string or number")
    if isinstance(gold, float) and gold.is_integer():
        gold = int(gold)
    gold = None if gold is None else str(gold)
    key = (row["benchmark"], row["question_id"])
    info = questions.get(key)
    if info is None:
        questions[key] = _QuestionInfo(problem, gold, checker.where)
        return
    for name, value in (("problem", problem), ("gold", gold)):
        old = getattr(info, name)
        if value is None:
            continue
        if old is None:
            setattr(info, name, value)
        elif old != value:
            raise checker.fail(
                f"field {name!r} of question {key[0]}/{key[1]} differs from the one at {info.where}"
            )


def _note_domain(
    checker: _LineChecker, benchmark: str, domains: dict[str, tuple[str, str]]
) -> None:
    domain = checker.optional("domain", (str,), "a string")
    if domain is None:
        return
    old = domains.get(benchmark)
    if old is None:
        domains[benchmark] = (domain, checker.where)
    elif old[0] != domain:
        raise checker.fail(
            f"benchmark {benchmark!r} has domain {domain!r} here but {old[0]!r} at {old[1]}"
        )


def _commit(
    root: Path,
    is_new: bool,
    base: str,
    staging: _Staging,
    questions: dict[tuple[str, str], _QuestionInfo],
    domains: dict[str, tuple[str, str]],
    summary: ImportSummary,
    paths: Sequence[Path | str],
) -> None:
    """Everything validated: write manifest, questions, then move the staged shards in."""
    if is_new:
        create_results(root, new_manifest())
    existing = load_manifest(root)
    for bench, (domain, where) in domains.items():
        entry = existing.benchmark(bench)
        if entry is not None and entry.domain != domain:
            raise LeashError(f"{where}: benchmark {bench!r} already has domain {entry.domain!r}")

    def change(manifest) -> None:
        for name in summary.models:
            if manifest.model(name) is None:
                role = ROLE_BASE if name == base else ROLE_TARGET
                manifest.models.append(ModelEntry(name=name, role=role, source="import"))
        for bench in summary.benchmarks:
            if manifest.benchmark(bench) is None:
                domain = domains.get(bench, (DEFAULT_DOMAIN, ""))[0]
                manifest.benchmarks.append(
                    BenchmarkEntry(name=bench, domain=domain, source=", ".join(map(str, paths)))
                )

    update_manifest(root, change)
    rows = [
        {"benchmark": b, "question_id": q, "problem": info.problem, "gold": info.gold}
        for (b, q), info in questions.items()
    ]
    summary.questions_added = merge_questions(root, questions_table(rows))
    for staged in staging.files:
        final = new_shard_path(root)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, final)
    fsync_directory(root / SAMPLES_DIR)
