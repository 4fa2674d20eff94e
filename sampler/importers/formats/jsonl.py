"""``leash import`` of sample JSON Lines (docs/interchange.md §1), the default import format.

Each line is one sample and names its benchmark, question, model and sample
index. Lines are checked one by one (``_LineChecker``) and handed to the shared
``ImportSession`` of ``sampler.importers.core``, which stages them, rejects
duplicates and samples already in the folder, and commits only when every file
is valid: any bad line raises LeashError naming the file and line, and the
results folder is left exactly as it was.

A file may be given as ``MODEL=PATH``: its lines then need no ``model`` field
(and a line naming another model is an error).

A line's ``correct`` (or ``status``, or ``source_correct``) is the source tool's
verdict: it is kept as ``source_correct`` only, never as leash's ``correct``/``status``,
which ``leash verify`` fills. ``--trust-verdicts`` (``ImportSession``) makes it the
verdict of samples whose question has no gold, marked as the source's.

A field the format does not define is ignored, as docs/interchange.md asks, but never in
silence: a misspelled optional field (``glod``, ``corect``) would otherwise drop the
gold or the verdict and send every later message the wrong way. Each unknown field
gets one warning naming it, its file and first line, and the closest known field;
with ``strict`` it is an error and nothing is written.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sampler.benchmarks.files import iter_json_lines
from sampler.errors import LeashError
from sampler.importers.core import ImportSession, ImportSummary
from sampler.store import STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER, STATUSES, check_name

#: source statuses that are a verdict (right or wrong); timeout and error are none
_JUDGED = (STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER)
REQUIRED = ("benchmark", "question_id", "model", "sample", "text")
#: Every field of docs/interchange.md §1 (what ``leash export`` writes, and what import reads).
KNOWN_FIELDS = (
    *REQUIRED,
    "correct",
    "answer",
    "status",
    "source_correct",
    "problem",
    "gold",
    "n_tokens",
    "finish_reason",
    "token_entropy",
    "domain",
    "answer_written",  # written by export (verify's extraction); leash extracts again
    "answer_rule",
)
_KNOWN = frozenset(KNOWN_FIELDS)


def unknown_field_message(name: str, where: str) -> str:
    """``WHERE: unknown field 'glod' (did you mean gold?)``: the text of warning and error."""
    close = difflib.get_close_matches(name, KNOWN_FIELDS, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(KNOWN_FIELDS)}"
    shown = json.dumps(name, ensure_ascii=True)
    return f"{where}: unknown field {shown}, ignored ({hint})"


__all__ = ["ImportSummary", "import_jsonl", "read_jsonl_file"]


def import_jsonl(
    paths: Sequence[Path | str],
    root: Path | str,
    base: str | None = None,
    strict: bool = False,
    trust_verdicts: bool = False,
) -> ImportSummary:
    """Import sample JSONL files into ``root`` (created if absent). See the module docstring."""
    with ImportSession(root, base, trust_verdicts=trust_verdicts) as session:
        for path in paths:
            read_jsonl_file(session, Path(path), strict=strict)
        return session.commit()


def read_jsonl_file(
    session: ImportSession, path: Path, model: str | None = None, strict: bool = False
) -> None:
    """Stream one interchange JSONL file into ``session``; ``model`` fills absent model fields.

    Unknown fields are warned about once per file (``session.summary.warnings``), or with
    ``strict`` raise LeashError.
    """
    index = session.file(path, "line", model)
    in_file = 0
    unknown_seen: set[str] = set()
    for number, record in iter_json_lines(path):
        in_file += 1
        where = session.where(index, number)
        if not _KNOWN.issuperset(record):
            for name in sorted(set(record) - _KNOWN - unknown_seen):
                message = unknown_field_message(name, where)
                if strict:
                    raise LeashError(message.replace(", ignored", "") + "; --strict")
                unknown_seen.add(name)
                session.summary.warnings.append(message)
        if model is not None:
            named = record.setdefault("model", model)
            if named != model:
                raise LeashError(
                    f"{where}: field 'model' is {_describe(named)} but the file was given"
                    f" as {model}=PATH"
                )
        checker = _LineChecker(where, record)
        row = checker.row()
        session.add_sample(row, index, number)
        problem = checker.optional("problem", (str,), "a string")
        gold = checker.optional("gold", (str, int, float), "a string or number")
        if isinstance(gold, float) and not math.isfinite(gold):
            raise LeashError(
                f"{where}: field 'gold' must be a finite number or a string, got {gold}"
            )
        session.note_question(row["benchmark"], row["question_id"], problem, gold_text(gold), where)
        domain = checker.optional("domain", (str,), "a string")
        if domain is not None:
            session.note_domain(row["benchmark"], domain, where)
    if in_file == 0:
        raise LeashError(f"{path}: no samples (empty file)")


def gold_text(gold: str | int | float | None) -> str | None:
    """A gold answer as text: 27.0 is "27", other numbers and strings as written."""
    if isinstance(gold, float) and gold.is_integer():
        gold = int(gold)
    return None if gold is None else str(gold)


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

    def source_verdict(self) -> bool | None:
        """The source tool's verdict: ``source_correct`` (what export writes), else
        ``correct``, else a ``status`` that says right or wrong (timeout and error say
        neither). Never leash's own verdict: docs/interchange.md §1."""
        correct = self.optional("correct", (bool,), "true or false")
        status = self.optional("status", (str,), "a string")
        if status is not None and status not in STATUSES:
            raise self.fail(f"field 'status' must be one of {', '.join(STATUSES)}, got {status!r}")
        if status is not None and correct is not None and (status == STATUS_CORRECT) != correct:
            raise self.fail(f"fields 'correct' ({correct}) and 'status' ({status!r}) disagree")
        if correct is None and status in _JUDGED:
            correct = status == STATUS_CORRECT
        kept = self.optional("source_correct", (bool,), "true or false")
        return kept if kept is not None else correct

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
        source = self.source_verdict()
        n_tokens = self.optional("n_tokens", (int,), "an integer >= 0")
        if n_tokens is not None and not 0 <= n_tokens < 2**31:
            raise self.fail(
                "field 'n_tokens' must be an integer from 0 to 2147483647,"
                f" got {_describe(n_tokens)}"
            )
        entropy = self.optional("token_entropy", (int, float), "a number")
        if entropy is not None and not (abs(entropy) < 1e308 and math.isfinite(entropy)):
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
            "source_correct": source,
            "token_entropy": None if entropy is None else float(entropy),
        }


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null or absent)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
