"""The results-folder format, whole, behind one door: every other package imports only this.

``ResultsFolder`` (store.folder) reads and writes a folder; the names below are what the
stages legitimately need besides it: the format's constants and manifest types (schema,
statuses), the folder-wide probes (store.probes), the upkeep of shards (store.upkeep),
the triage journal's tags, the question-key helpers, the answer-class and entropy
constants, the atomic writes and work directories an import stages files in, and the
row reads of one question the explorer pages through. No module outside ``sampler.store``
imports a submodule of it (an import-linter contract in pyproject.toml).

Names are loaded on first use (PEP 562), so that a module that only needs a status name
does not pay for pyarrow.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: each exported name and the submodule that defines it
_EXPORTS: dict[str, str] = {
    # the door
    "ResultsFolder": "folder",
    "SampleRange": "folder",
    "as_folder": "folder",
    # folder-wide probes and upkeep, built on the door
    "column_all_null": "probes",
    "coverage_notes": "probes",
    "footer_null_count": "probes",
    "compact": "upkeep",
    "shards_not_indexed": "upkeep",
    "shards_without_summary": "upkeep",
    "DEFAULT_TARGET_ROWS": "shards.compaction",
    "DEFAULT_MAX_BYTES": "shards.compaction",
    "INDEX_FILE": "shards.shard_index_file",
    # the format: schema, statuses, manifest
    "BenchmarkEntry": "schema",
    "DEFAULT_DOMAIN": "schema",
    "DEFAULT_VERIFIER": "schema",
    "FORMAT": "schema",
    "MANIFEST_FILE": "schema",
    "Manifest": "schema",
    "ModelEntry": "schema",
    "QUESTIONS_FILE": "schema",
    "ROLE_BASE": "schema",
    "ROLE_TARGET": "schema",
    "SAMPLES_DIR": "schema",
    "SAMPLES_SCHEMA": "schema",
    "SAMPLE_KEY_COLUMNS": "schema",
    "STATUSES": "schema",
    "VERDICT_SOURCE_TRUSTED": "schema",
    "VERIFY_LOCK_FILE": "schema",
    "check_name": "schema",
    "STATUS_CORRECT": "statuses",
    "STATUS_ERROR": "statuses",
    "STATUS_INCORRECT": "statuses",
    "STATUS_NO_ANSWER": "statuses",
    "STATUS_NO_GOLD": "statuses",
    "STATUS_TIMEOUT": "statuses",
    "new_manifest": "manifest",
    "now_iso": "manifest",
    "questions_table": "shards.writer",
    # questions and keys
    "natural_key": "question_order",
    "question_keys": "row_keys",
    "answer_class_key": "side_tables.answer_classes",
    # per-key statistics and their columns
    "COUNT_KEYS": "shards.reader",
    "VERDICT_COUNT_COLUMNS": "shards.reader",
    "KEY_STATS_COLUMNS": "shards.folder_key_stats",
    "answer_stats_table": "shards.answer_summary",
    "chunk_stats": "shards.key_stats",
    "counts_table": "shards.key_stats",
    "DEFAULT_ENTROPY_SAMPLES": "side_tables.entropy_samples",
    # side tables
    "PERPLEXITY_KEYS": "side_tables.perplexity_table",
    "PERPLEXITY_SCORE_COLUMNS": "side_tables.perplexity_table",
    "trace_id": "side_tables.perplexity_table",
    "STOPS_FILE": "side_tables.adaptive_stops",
    "STOP_BUDGET": "side_tables.adaptive_stops",
    "STOP_OPEN": "side_tables.adaptive_stops",
    "STOP_RISK": "side_tables.adaptive_stops",
    "STOP_SUCCESS": "side_tables.adaptive_stops",
    "TOKEN_DETAIL_DIR": "side_tables.token_detail",
    "TOKEN_DETAIL_SCHEMA": "side_tables.token_detail",
    "TAGS": "journals.triage_journal",
    "TriageEntry": "journals.triage_journal",
    "TriageJournal": "journals.triage_journal",
    # one question's rows, paged (the explorer)
    "LOCATION_COLUMNS": "shards.question_rows",
    "WIDE_COLUMNS": "shards.question_rows",
    "RowCursor": "shards.question_rows",
    "read_question_rows": "shards.question_rows",
    # atomic writes, work directories and caches outside the folder
    "atomic_path": "journals.atomic_io",
    "atomic_text_writer": "journals.atomic_io",
    "fsync_directory": "journals.atomic_io",
    "STAGING_PREFIX": "journals.commit_journal",
    "new_work_dir": "journals.commit_journal",
    "own": "journals.commit_journal",
    "remove_stale_work_dirs": "journals.commit_journal",
    "cache_dir": "shards.stats_cache",
    "write_shard_file": "shards.writer",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sampler.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"sampler.store.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # the same names, for type checkers and editors
    from sampler.store.folder import ResultsFolder, SampleRange, as_folder  # noqa: F401
