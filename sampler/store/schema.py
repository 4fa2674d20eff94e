"""The results-folder format ``leash-results/1``: names, Arrow schemas and the manifest.

This module is the single definition both sides use: the writer (``sampler``) and
the reader (``leash_tui``). docs/results-format.md describes the same thing for
people and other tools.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

import pyarrow as pa

from sampler.store.statuses import (  # noqa: F401  (the format's statuses, re-exported)
    STATUS_CORRECT,
    STATUS_ERROR,
    STATUS_INCORRECT,
    STATUS_NO_ANSWER,
    STATUS_NO_GOLD,
    STATUS_TIMEOUT,
    STATUSES,
)

FORMAT_NAME = "leash-results"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

MANIFEST_FILE = "manifest.json"
QUESTIONS_FILE = "questions.parquet"
SAMPLES_DIR = "samples"
LOCK_FILE = ".leash.lock"
#: held for its whole run by ``leash verify`` (refusing a second one) and, waiting, by
#: every other rewrite of shards (``leash entropy``), so no rewrite loses another's columns
VERIFY_LOCK_FILE = ".leash-verify.lock"
#: ``leash sample --shard I/N`` holds ``.leash-sample-I-of-N.lock``
SAMPLE_LOCK_PREFIX = ".leash-sample-"

ROLE_BASE = "base"
ROLE_TARGET = "target"
ROLES = (ROLE_BASE, ROLE_TARGET)

DEFAULT_DOMAIN = "math"
#: The verifier of a benchmark whose manifest entry names none (every folder before there
#: were others); the names of the others live in ``sampler.verify.verifiers``.
DEFAULT_VERIFIER = "math"

#: Rows of a shard are sorted by these columns, so one question's samples are contiguous.
SAMPLE_SORT_KEYS = ("benchmark", "question_id", "model", "sample")
#: Rows per Parquet row group in sample shards (measured in bench/store_layout.py).
SAMPLE_ROW_GROUP_ROWS = 4096

SAMPLES_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("sample", pa.int32(), nullable=False),
        pa.field("text", pa.large_string(), nullable=False),
        pa.field("n_tokens", pa.int32()),
        pa.field("finish_reason", pa.string()),
        pa.field("answer", pa.string()),
        pa.field("correct", pa.bool_()),
        pa.field("status", pa.string()),
        pa.field("source_correct", pa.bool_()),
        pa.field("token_entropy", pa.float64()),
        pa.field("token_entropy_lower", pa.float64()),
        pa.field("token_entropy_upper", pa.float64()),
        pa.field("cumulative_logprob", pa.float64()),
        # exact mean token entropy by teacher forcing (``leash entropy``); later addition,
        # so older shards lack it and read it as null
        pa.field("token_entropy_exact", pa.float64()),
        # written by non-math verifiers (later optional columns: older shards read null)
        pa.field("score", pa.float64()),
        pa.field("verdict_detail", pa.large_string()),
        # who computed ``correct``/``status``: null = leash's verifier (or not verified yet),
        # VERDICT_SOURCE_TRUSTED = the source tool's verdict, kept by ``leash import
        # --trust-verdicts`` for a question without a gold; later addition, so older shards
        # lack it and read it as null
        pa.field("verdict_source", pa.string()),
        # the answer as the model wrote it (the extracted span, before normalising) and the
        # extraction rule that found it (``box``, ``closing boxes``, ``hashes``, ``answer
        # line``, ``statement``, ``tool output``, ... ``sampler.verify.answers.extraction.RULES``,
        # `` (run-on cut)`` appended when the completion ran on); math verifier only; later
        # additions, so older shards lack them and read them as null
        pa.field("answer_written", pa.large_string()),
        pa.field("answer_rule", pa.string()),
    ]
)

#: ``verdict_source`` of a verdict leash did not compute (the source's, trusted at import).
VERDICT_SOURCE_TRUSTED = "source"

#: Columns that identify a sample.
SAMPLE_KEY_COLUMNS = ("benchmark", "question_id", "model", "sample")
#: Columns written by verification.
VERDICT_COLUMNS = (
    "answer",
    "correct",
    "status",
    "score",
    "verdict_detail",
    "answer_written",
    "answer_rule",
)

QUESTIONS_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string(), nullable=False),
        pa.field("question_id", pa.string(), nullable=False),
        pa.field("problem", pa.large_string()),
        pa.field("gold", pa.string()),
        pa.field("metadata", pa.string()),  # a JSON object, or null
    ]
)

#: ``@`` is allowed so that a checkpoint of a training run can be named ``NAME@STEP``.
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+@\-]*$")


def check_name(kind: str, name: str) -> str:
    """Return ``name`` if it is a valid model or benchmark name, else raise ValueError."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name) or len(name) > 128:
        raise ValueError(
            f"invalid {kind} name {name!r}: use letters, digits, '.', '_', '+', '@' or '-',"
            " starting with a letter or digit"
        )
    return name


@dataclass
class ModelEntry:
    """One sampled model: its name in the folder, role, where it came from, how it was sampled."""

    name: str
    role: str
    source: str | None = None
    sampling: dict[str, Any] = field(default_factory=dict)


@dataclass
class BenchmarkEntry:
    """One benchmark: name, domain tag, where it was loaded from, which verifier grades it."""

    name: str
    domain: str = DEFAULT_DOMAIN
    source: str | None = None
    verifier: str = DEFAULT_VERIFIER

    def to_json(self) -> dict[str, Any]:
        """The entry's JSON; ``verifier`` only when not the default, so that a math folder's
        manifest stays what earlier leash versions wrote and read."""
        payload = asdict(self)
        if self.verifier == DEFAULT_VERIFIER:
            payload.pop("verifier")
        return payload

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> BenchmarkEntry:
        """An entry from JSON, ignoring fields this version does not know."""
        if not isinstance(payload, dict):
            raise TypeError(f"expected an object, got {type(payload).__name__}")
        known = {k: v for k, v in payload.items() if k in _BENCHMARK_FIELDS}
        entry = cls(**known)
        if not isinstance(entry.verifier, str) or not entry.verifier:
            entry.verifier = DEFAULT_VERIFIER
        return entry


@dataclass
class Manifest:
    """``manifest.json``: everything about a results folder except the rows."""

    models: list[ModelEntry] = field(default_factory=list)
    benchmarks: list[BenchmarkEntry] = field(default_factory=list)
    created: str = ""
    tool_versions: dict[str, str] = field(default_factory=dict)
    synthetic: bool = False
    notes: str | None = None
    #: How ``leash verify`` extracts and checks answers (kept so that reruns agree).
    verification: dict[str, Any] = field(default_factory=dict)
    format: str = FORMAT

    # -- lookups -----------------------------------------------------------------
    @property
    def base(self) -> ModelEntry | None:
        return next((m for m in self.models if m.role == ROLE_BASE), None)

    @property
    def targets(self) -> list[ModelEntry]:
        return [m for m in self.models if m.role == ROLE_TARGET]

    def model(self, name: str) -> ModelEntry | None:
        return next((m for m in self.models if m.name == name), None)

    def benchmark(self, name: str) -> BenchmarkEntry | None:
        return next((b for b in self.benchmarks if b.name == name), None)

    def domain_of(self, benchmark: str) -> str:
        entry = self.benchmark(benchmark)
        return entry.domain if entry else DEFAULT_DOMAIN

    def verifier_of(self, benchmark: str) -> str:
        entry = self.benchmark(benchmark)
        return entry.verifier if entry else DEFAULT_VERIFIER

    # -- (de)serialisation --------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        payload = asdict(self)
        payload["benchmarks"] = [b.to_json() for b in self.benchmarks]
        payload = {"format": self.format, **{k: v for k, v in payload.items() if k != "format"}}
        return payload

    @classmethod
    def from_json(cls, payload: dict[str, Any], where: str) -> Manifest:
        """Build a manifest from parsed JSON; ``where`` names the file in errors."""
        check_manifest_types(payload, where)
        try:
            models = [ModelEntry(**m) for m in payload.get("models", [])]
            benchmarks = [BenchmarkEntry.from_json(b) for b in payload.get("benchmarks", [])]
        except TypeError as exc:
            raise ValueError(f"{where}: malformed model or benchmark entry ({exc})") from exc
        for m in models:
            if m.role not in ROLES:
                raise ValueError(f"{where}: model {m.name!r} has role {m.role!r}, not base/target")
        if sum(m.role == ROLE_BASE for m in models) > 1:
            raise ValueError(f"{where}: more than one model has role 'base'")
        return cls(
            models=models,
            benchmarks=benchmarks,
            created=str(payload.get("created", "")),
            tool_versions=dict(payload.get("tool_versions", {})),
            synthetic=bool(payload.get("synthetic", False)),
            notes=payload.get("notes"),
            verification=_object_or_empty(payload.get("verification")),
            format=str(payload.get("format", "")),
        )


_BENCHMARK_FIELDS = {"name", "domain", "source", "verifier"}


def _strategies_ok(value: Any) -> bool:
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    )


class _Bad:
    """Makes the ValueError of a manifest field with the wrong JSON type, naming ``where``."""

    def __init__(self, where: str):
        self.where = where

    def __call__(self, field_name: str, what: str, value: Any) -> ValueError:
        return ValueError(f"{self.where}: field {field_name!r} must be {what}, got {value!r:.60}")


def check_manifest_types(payload: dict[str, Any], where: str) -> None:
    """Raise ValueError naming the field when a manifest value has the wrong JSON type."""
    bad = _Bad(where)
    for key, kind in (("models", "model"), ("benchmarks", "benchmark")):
        entries = payload.get(key, [])
        if not isinstance(entries, list):
            raise bad(key, "a list of objects", entries)
        for i, entry in enumerate(entries):
            _check_entry(entry, f"{key}[{i}]", kind, bad)
    versions = payload.get("tool_versions", {})
    if not isinstance(versions, dict) or not all(isinstance(v, str) for v in versions.values()):
        raise bad("tool_versions", "an object of version strings", versions)
    if payload.get("notes") is not None and not isinstance(payload["notes"], str):
        raise bad("notes", "a string or null", payload["notes"])
    verification = payload.get("verification")
    if verification is None:
        return
    if not isinstance(verification, dict):
        raise bad("verification", "an object", verification)
    _check_extraction(verification.get("extraction"), bad)
    _check_pending(verification.get("pending"), bad)


def _check_entry(entry: Any, at: str, kind: str, bad: _Bad) -> None:
    """One model or benchmark entry: an object with a valid name and string fields."""
    if not isinstance(entry, dict):
        raise bad(at, "an object", entry)
    name = entry.get("name")
    if not isinstance(name, str):
        raise bad(f"{at}.name", f"a {kind} name (a string)", name)
    try:
        check_name(kind, name)
    except ValueError as exc:
        raise ValueError(f"{bad.where}: field '{at}.name': {exc}") from None
    for text in ("role", "source", "domain", "verifier"):
        if entry.get(text) is not None and not isinstance(entry[text], str):
            raise bad(f"{at}.{text}", "a string", entry[text])
    if not isinstance(entry.get("sampling", {}), dict):
        raise bad(f"{at}.sampling", "an object", entry["sampling"])


def _check_extraction(extraction: Any, bad: _Bad) -> None:
    if extraction is None:
        return
    if not isinstance(extraction, dict):
        raise bad("verification.extraction", "an object", extraction)
    if "default" in extraction and not _strategies_ok(extraction["default"]):
        default = extraction["default"]
        raise bad("verification.extraction.default", "a list of strategy names", default)
    for table in ("benchmarks", "models"):
        value = extraction.get(table, {})
        if not isinstance(value, dict) or not all(map(_strategies_ok, value.values())):
            raise bad(f"verification.extraction.{table}", "an object of strategy lists", value)


def _check_pending(pending: Any, bad: _Bad) -> None:
    if pending is None:
        return
    if not isinstance(pending, dict):
        raise bad("verification.pending", "an object", pending)
    done = pending.get("done", [])
    if not isinstance(done, list) or not all(isinstance(d, str) for d in done):
        raise bad("verification.pending.done", "a list of shard names", done)


def _object_or_empty(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def parse_format(text: str) -> tuple[str, int] | None:
    """Split ``"leash-results/1"`` into its name and version; None when malformed."""
    name, _, version = text.partition("/")
    if not version.isdigit():
        return None
    return name, int(version)
