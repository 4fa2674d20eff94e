"""Small interchange JSONL writers the tests share: records from a verdict grid, and a writer."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path


def write_jsonl(path: Path, records: Iterable[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def sample_records(
    models: dict[str, list[list[bool]]],
    benchmark: str = "toy",
    with_question: bool = True,
) -> list[dict]:
    """Interchange records: models[name][q][s] is the verdict of sample s of question q."""
    records = []
    for model, questions in models.items():
        for q, verdicts in enumerate(questions):
            for s, ok in enumerate(verdicts):
                rec = {
                    "benchmark": benchmark,
                    "question_id": q,
                    "model": model,
                    "sample": s,
                    "text": f"step {s}\n\\boxed{{{q if ok else q + 1}}}",
                    "correct": ok,
                }
                if with_question and s == 0:
                    rec["problem"] = f"What is {q}?"
                    rec["gold"] = str(q)
                records.append(rec)
    return records
