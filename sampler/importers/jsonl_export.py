"""``leash export``: write a results folder's samples as JSON Lines (docs/interchange.md §1).

Streams shard by shard, so memory stays flat on any folder size. ``problem``,
``gold`` and ``domain`` are written on the first line of each (benchmark,
question, model) group; verdict fields only where the sample is verified, and the
source tool's verdict (``source_correct``) where an import kept one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import IO, Any

from sampler.store import ResultsFolder

EXPORT_COLUMNS = (
    "benchmark",
    "question_id",
    "model",
    "sample",
    "text",
    "correct",
    "answer",
    "status",
    "source_correct",
    "n_tokens",
    "finish_reason",
    "token_entropy",
    "answer_written",
    "answer_rule",
)


def export_records(
    results: ResultsFolder,
    models: Iterable[str] | None = None,
    benchmarks: Iterable[str] | None = None,
) -> Iterable[dict[str, Any]]:
    """Yield one interchange record per sample, optionally limited to some models/benchmarks."""
    model_set = set(models) if models else None
    bench_set = set(benchmarks) if benchmarks else None
    question_info = {
        (r["benchmark"], r["question_id"]): (r["problem"], r["gold"])
        for r in results.questions.select(
            ["benchmark", "question_id", "problem", "gold"]
        ).to_pylist()
    }
    last_group: tuple[str, str, str] | None = None
    for _, batch in results.iter_shard_batches(columns=EXPORT_COLUMNS):
        for row in batch.to_pylist():
            if model_set is not None and row["model"] not in model_set:
                continue
            if bench_set is not None and row["benchmark"] not in bench_set:
                continue
            record: dict[str, Any] = {
                k: row[k] for k in ("benchmark", "question_id", "model", "sample", "text")
            }
            if row["status"] is not None:
                record["correct"] = bool(row["correct"])
                record["status"] = row["status"]
            if row["source_correct"] is not None:
                record["source_correct"] = bool(row["source_correct"])
            for k in (
                "answer",
                "answer_written",
                "answer_rule",
                "n_tokens",
                "finish_reason",
                "token_entropy",
            ):
                if row[k] is not None:
                    record[k] = row[k]
            group = (row["benchmark"], row["question_id"], row["model"])
            if group != last_group:
                problem, gold = question_info.get(group[:2], (None, None))
                if problem is not None:
                    record["problem"] = problem
                if gold is not None:
                    record["gold"] = gold
                record["domain"] = results.manifest.domain_of(row["benchmark"])
                last_group = group
            yield record


#: characters JSON may hold raw but a terminal obeys (DEL, C1 controls such as the 8-bit
#: CSI U+009B, bidirectional controls): written as \\u escapes, which decode the same
_TERMINAL_CONTROLS = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def write_jsonl(records: Iterable[dict[str, Any]], handle: IO[str]) -> int:
    """Write records one JSON object per line; return how many."""
    count = 0
    for record in records:
        handle.write(_TERMINAL_CONTROLS.sub(_escape, json.dumps(record, ensure_ascii=False)))
        handle.write("\n")
        count += 1
    return count
