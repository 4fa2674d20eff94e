"""Loading a benchmark: ``NAME=[VERIFIER:]SOURCE``, its file's verifier field, or its preset.

The verifier of a benchmark is, first to last: the prefix of its spec
(``NAME=code:FILE``, ``NAME=choice:FILE``, ``NAME=exact:FILE``, ``NAME=math:FILE``,
``NAME=reasoning-gym:TASK:SIZE:SEED``), a ``verifier`` field in its file (every
record that has one must agree with the others and with the prefix), its preset's,
and ``math``. The chosen verifier reads the records into questions (or generates
them, for Reasoning Gym) and is recorded with the benchmark in the manifest.

Benchmarks sit below verification, so the verifiers come in as ``readers`` (name ->
QuestionReader; ``sampler.verify.verifiers.verifiers()`` is the registry every caller
passes): this module knows what a verifier must do to read questions, not which exist.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from sampler.benchmarks.files import Record, read_records
from sampler.benchmarks.gold_checks import worked_solution_warning
from sampler.benchmarks.presets import PRESETS, Benchmark, FieldMapping, Question
from sampler.errors import LeashError
from sampler.store import DEFAULT_DOMAIN, DEFAULT_VERIFIER, check_name

#: The record field that names a benchmark file's verifier.
VERIFIER_FIELD = "verifier"


class QuestionReader(Protocol):
    """What loading asks of a verifier (``sampler.verify.verifiers.base.Verifier``)."""

    name: str
    default_domain: str

    def load_questions(
        self, name: str, records: Sequence[tuple[str, Record]], mapping: FieldMapping
    ) -> list[Question]: ...

    def generate(self, name: str, source: str) -> list[Question] | None: ...


Readers = Mapping[str, QuestionReader]


def reader(readers: Readers, name: str, where: str) -> QuestionReader:
    """The reader called ``name``; a LeashError naming ``where`` and the choices if none is."""
    if name not in readers:
        raise LeashError(f"{where}: unknown verifier {name!r}; choose from {', '.join(readers)}")
    return readers[name]


@dataclass(frozen=True)
class BenchSource:
    """Where a benchmark's questions come from, and the verifier its spec asks for (if any)."""

    source: str
    verifier: str | None = None


def split_verifier(source: str, readers: Readers) -> BenchSource:
    """``code:data/x.jsonl`` as (``data/x.jsonl``, ``code``); a source without a known
    verifier prefix (or an existing file whose name happens to have one) as it is."""
    prefix, sep, rest = source.partition(":")
    if sep and prefix in readers and rest and not Path(source).exists():
        return BenchSource(rest, prefix)
    return BenchSource(source)


def parse_bench_spec(spec: str, readers: Readers) -> tuple[str, BenchSource]:
    """``NAME=[VERIFIER:]SOURCE`` as (name, source with its verifier)."""
    name, sep, source = spec.partition("=")
    if not sep or not name.strip() or not source.strip():
        raise LeashError(
            f"benchmark {spec!r}: expected NAME=PATH or NAME=VERIFIER:PATH (presets:"
            f" {', '.join(PRESETS)}; verifiers: {', '.join(readers)}),"
            " e.g. aime24=data/aime24.jsonl or dice=reasoning-gym:dice:100:0"
        )
    return name.strip(), split_verifier(source.strip(), readers)


def _file_verifier(
    records: list[tuple[str, Record]], asked: str | None, readers: Readers
) -> str | None:
    """The verifier the records name in their ``verifier`` field (all must agree)."""
    chosen: tuple[str, str] | None = (asked, "the benchmark spec") if asked else None
    for where, record in records:
        value = record.get(VERIFIER_FIELD)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise LeashError(f"{where}: field {VERIFIER_FIELD!r} must be a verifier name")
        value = value.strip()
        reader(readers, value, f"{where}: field {VERIFIER_FIELD!r}")
        if chosen is None:
            chosen = (value, where)
        elif chosen[0] != value:
            raise LeashError(
                f"{where}: field {VERIFIER_FIELD!r} is {value!r} but {chosen[1]} says {chosen[0]!r}"
            )
    return chosen[0] if chosen else None


def load_benchmark(
    name: str,
    source: str | BenchSource,
    readers: Readers,
    mapping: FieldMapping | None = None,
    domain: str | None = None,
) -> Benchmark:
    """Load benchmark ``name`` from ``source`` with its verifier (see the module docstring),
    one of ``readers``.

    ``mapping`` overrides the preset's (or the generic) field mapping; ``domain``
    the domain tag, which otherwise is the preset's, else the verifier's default.
    """
    spec = source if isinstance(source, BenchSource) else split_verifier(source, readers)
    try:
        check_name("benchmark", name)
    except ValueError as exc:
        raise LeashError(str(exc)) from exc
    preset = PRESETS.get(name)
    if mapping is None:
        mapping = preset.mapping if preset else FieldMapping()
    where = f"benchmark {name!r}"
    if spec.verifier is not None:
        verifier = reader(readers, spec.verifier, where)
        generated = verifier.generate(name, spec.source)
        if generated is not None:
            return Benchmark(
                name=name,
                domain=domain or verifier.default_domain,
                source=f"{verifier.name}:{spec.source}",
                questions=generated,
                verifier=verifier.name,
            )
    records = list(read_records(spec.source))
    if not records:
        raise LeashError(f"{spec.source}: no questions (empty file)")
    chosen = _file_verifier(records, spec.verifier, readers) or mapping.verifier or DEFAULT_VERIFIER
    verifier = reader(readers, chosen, where)
    if domain:
        mapping = replace(mapping, domain=domain)
    elif mapping.domain == DEFAULT_DOMAIN and mapping.verifier is None:
        mapping = replace(mapping, domain=verifier.default_domain)
    questions = verifier.load_questions(name, records, mapping)
    math = verifier.name == DEFAULT_VERIFIER
    warning = worked_solution_warning(name, questions) if math else None
    return Benchmark(
        name=name,
        domain=mapping.domain,
        source=spec.source if spec.verifier is None else f"{spec.verifier}:{spec.source}",
        questions=questions,
        verifier=verifier.name,
        warnings=[warning] if warning else [],
    )
