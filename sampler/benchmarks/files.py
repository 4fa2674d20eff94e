"""Read benchmark records from JSONL, JSON, Parquet, CSV or the Hugging Face hub.

Each reader yields ``(where, record)`` pairs, where ``where`` names the line or
record for error messages ("test.jsonl line 12"). Parsing the records into
questions is ``benchmark_presets``' job.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sampler import install_hint
from sampler.errors import LeashError

Record = dict[str, Any]
HUB_PREFIX = "hf:"


def read_records(source: str) -> Iterator[tuple[str, Record]]:
    """Yield ``(location, record)`` from a file path or ``hf:ORG/NAME[:split]``."""
    if source.startswith(HUB_PREFIX):
        yield from _read_hub(source)
        return
    path = Path(source)
    if not path.exists():
        raise LeashError(f"{path}: no such file")
    if path.is_dir():
        raise LeashError(f"{path}: is a folder; give the benchmark file itself")
    suffix = path.suffix.lower()
    readers = {
        ".jsonl": _read_jsonl,
        ".ndjson": _read_jsonl,
        ".json": _read_json,
        ".parquet": _read_parquet,
        ".csv": _read_csv,
    }
    reader = readers.get(suffix)
    if reader is None:
        raise LeashError(
            f"{path}: unknown file type {suffix or '(none)'!r}; use .jsonl, .json, .parquet or .csv"
        )
    yield from reader(path)


def _short_json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def iter_json_lines(path: Path) -> Iterator[tuple[int, Record]]:
    """Yield (line number, JSON object) for each non-blank line; errors name file and line."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LeashError(
                    f"{path} line {number}: not UTF-8 text (byte {exc.start + 1} of the line)"
                ) from None
            if not line.strip():
                continue
            record = parse_json_line(line, f"{path} line {number}")
            if not isinstance(record, dict):
                raise LeashError(
                    f"{path} line {number}: expected a JSON object, got {_short_json(record)}"
                )
            yield number, record


def parse_json_line(line: str, where: str) -> Any:
    """``json.loads(line)``, with every way it can fail a LeashError naming ``where``.

    Beyond malformed JSON: integers of more than 4,300 digits (ValueError), nesting
    deeper than the interpreter's recursion limit (RecursionError), and escapes that
    leave a lone surrogate (``"\\ud800"``, which no file can store) are refused here.
    """
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LeashError(f"{where}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise LeashError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise LeashError(f"{where}: not usable JSON ({exc})") from None
    if "\\u" in line:  # only an escape can make a lone surrogate
        bad = _lone_surrogate(record)
        if bad is not None:
            raise LeashError(f"{where}: {bad} holds a lone surrogate (\\ud800-\\udfff), not text")
    return record


def _lone_surrogate(value: Any, name: str = "the line") -> str | None:
    """Where in ``value`` a string holds a lone surrogate (None if nowhere)."""
    stack = [(name, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return where
        elif isinstance(item, dict):
            for key, inner in item.items():
                stack.append((f"field {key!r}" if where == name else where, inner))
                if isinstance(key, str):
                    stack.append(("a field name", key))
        elif isinstance(item, list):
            stack.extend((where, inner) for inner in item)
    return None


def _read_jsonl(path: Path) -> Iterator[tuple[str, Record]]:
    for number, record in iter_json_lines(path):
        yield f"{path} line {number}", record


def _read_json(path: Path) -> Iterator[tuple[str, Record]]:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LeashError(f"{path} line {exc.lineno}: not valid JSON ({exc.msg})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise LeashError(f"{path}: cannot be read ({exc})") from exc
    if isinstance(payload, dict):
        for key in ("data", "rows", "questions", "test"):
            if isinstance(payload.get(key), list):
                payload = payload[key]
                break
    if not isinstance(payload, list):
        raise LeashError(f"{path}: expected a JSON list of objects (or {{'data': [...]}})")
    for index, record in enumerate(payload):
        if not isinstance(record, dict):
            raise LeashError(f"{path} record {index}: expected a JSON object")
        yield f"{path} record {index}", record


def _read_parquet(path: Path) -> Iterator[tuple[str, Record]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(path)
        row = 0
        for batch in handle.iter_batches(batch_size=4096):
            for record in batch.to_pylist():
                yield f"{path} row {row}", record
                row += 1
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc


def _read_csv(path: Path) -> Iterator[tuple[str, Record]]:
    try:
        handle = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc})") from exc
    with handle:
        reader = csv.DictReader(handle)
        try:
            for record in reader:
                yield f"{path} line {reader.line_num}", dict(record)
        except (csv.Error, UnicodeDecodeError) as exc:
            raise LeashError(f"{path} line {reader.line_num}: not valid CSV ({exc})") from exc


def _read_hub(source: str) -> Iterator[tuple[str, Record]]:
    """``hf:ORG/NAME[:split]`` through the ``datasets`` package (extra ``hf``)."""
    spec = source[len(HUB_PREFIX) :]
    name, _, split = spec.partition(":")
    if not name or "/" not in name:
        raise LeashError(f"{source}: expected hf:ORG/NAME or hf:ORG/NAME:SPLIT")
    try:
        import datasets  # type: ignore[import-not-found]
    except ImportError as exc:
        raise LeashError(
            f"{source}: loading from the hub needs the 'datasets' package"
            f" ({install_hint('hf')}); or download the file and give its path"
        ) from exc
    try:
        data = datasets.load_dataset(name, split=split or "test")
    except Exception as exc:  # the hub raises many types: network, missing split, auth
        raise LeashError(f"{source}: could not load from the hub ({exc})") from exc
    for index, record in enumerate(data):
        yield f"{source} row {index}", dict(record)
