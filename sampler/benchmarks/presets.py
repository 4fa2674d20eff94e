"""Turn benchmark records into normalised questions, through a field mapping or a preset.

A preset knows one public benchmark's field quirks (float golds, golds inside the
reference solution, list golds with units, missing ids); a custom mapping names the
fields of any other file. Both go through ``load_benchmark_file``, which reports bad
input (missing field, duplicate id, empty file) naming the file and line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from sampler.benchmarks.files import read_records
from sampler.errors import LeashError
from sampler.latex_boxed import last_boxed
from sampler.store import DEFAULT_DOMAIN, DEFAULT_VERIFIER, check_name


@dataclass(frozen=True)
class Question:
    """One question in leash's normalised form."""

    benchmark: str
    question_id: str
    problem: str
    gold: str | None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_row(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark,
            "question_id": self.question_id,
            "problem": self.problem,
            "gold": self.gold,
            "metadata": self.metadata or None,
        }


@dataclass(frozen=True)
class FieldMapping:
    """Which record fields hold the problem, gold and id; each lists accepted names in order.

    ``id`` empty means "use the record's 0-based position". ``gold_from_solution``
    names a field whose last ``\\boxed{}`` is the gold (used when no gold field is
    present). ``metadata`` fields are kept with the question when present.
    """

    problem: tuple[str, ...] = ("problem", "question", "prompt")
    gold: tuple[str, ...] = ("answer", "gold", "final_answer", "solution_answer")
    id: tuple[str, ...] = ("id", "idx", "unique_id", "question_id")
    gold_from_solution: str | None = "solution"
    #: Fields holding a reference solution, kept as the question's ``solution`` metadata
    #: (the traces of ``leash perplexity --traces reference``).
    solution: tuple[str, ...] = ("solution", "reference_solution")
    metadata: tuple[str, ...] = ()
    unit: str | None = None
    domain: str = DEFAULT_DOMAIN
    id_required: bool = False
    #: The verifier of the preset's benchmark (None: the benchmark file's, else math).
    verifier: str | None = None
    #: A marker in the gold field after which the final answer stands (GSM8K's ``####``);
    #: the text before it is kept as the question's ``solution``, and the answer loses
    #: its thousands separators (``1,000`` is ``1000``).
    gold_after: str | None = None


@dataclass(frozen=True)
class Preset:
    """A named benchmark with known fields; used with a path the user gives."""

    name: str
    description: str
    mapping: FieldMapping
    #: The answer format the benchmark's prompt asks for, as the extraction strategies that
    #: read it first (``sampler.verify.answers.extraction``); () for leash's default order.
    #: A ``--extract-benchmark`` setting for the benchmark overrides it.
    answer_format: tuple[str, ...] = ()


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "math500",
            "MATH-500 (PRM800K test split): LaTeX gold in 'answer', id 'unique_id'",
            FieldMapping(
                problem=("problem",),
                gold=("answer",),
                id=("unique_id",),
                gold_from_solution=None,
                metadata=("subject", "level"),
            ),
        ),
        Preset(
            "aime24",
            "AIME 2024: integer gold in 'answer' (a string), id 'id'",
            FieldMapping(
                problem=("problem",),
                gold=("answer",),
                id=("id",),
                gold_from_solution=None,
                metadata=("url",),
            ),
        ),
        Preset(
            "aime25",
            "AIME 2025: problem in 'problem' or 'question', integer gold; id 'id' or the position",
            FieldMapping(
                problem=("problem", "question"),
                gold=("answer",),
                id=("id", "idx"),
                gold_from_solution=None,
                metadata=("url",),
            ),
        ),
        Preset(
            "amc23",
            "AMC 2023: gold is a JSON float such as 27.0 (read as 27), id 'id'",
            FieldMapping(
                problem=("problem", "question"),
                gold=("answer",),
                id=("id",),
                gold_from_solution=None,
                metadata=("url",),
            ),
        ),
        Preset(
            "gsm8k",
            "GSM8K: problem in 'question', the gold after '####' in 'answer' (its worked"
            " solution kept), thousands separators removed; id 'id' or the position",
            FieldMapping(
                problem=("question", "problem"),
                gold=("answer",),
                id=("id", "idx"),
                gold_from_solution=None,
                solution=(),
                gold_after="####",
            ),
            # GSM8K's format: the answer on a closing "#### N" line, read before any box
            answer_format=("hashes", "boxed", "stated", "tool_output"),
        ),
        Preset(
            "minerva_math",
            "Minerva math: no gold field; the gold is the last \\boxed{} of 'solution'; id 'idx'",
            FieldMapping(
                problem=("problem",),
                gold=(),
                id=("idx",),
                gold_from_solution="solution",
                metadata=("type",),
            ),
        ),
        Preset(
            "olympiadbench",
            "OlympiadBench: problem in 'question', gold a list in 'final_answer'"
            " (several parts in some rows), optional 'unit'",
            FieldMapping(
                problem=("question",),
                gold=("final_answer",),
                id=("id",),
                gold_from_solution=None,
                metadata=("subfield", "answer_type", "is_multiple_answer"),
                unit="unit",
            ),
        ),
    )
}


@dataclass
class Benchmark:
    """A loaded benchmark: name, domain, where it came from, its questions in file order,
    and the verifier that grades it (``sampler.verify.verifiers``)."""

    name: str
    domain: str
    source: str
    questions: list[Question]
    verifier: str = DEFAULT_VERIFIER
    #: one-line warnings about the loaded questions (``sampler.benchmarks.gold_checks``)
    warnings: list[str] = field(default_factory=list)


def gold_to_text(value: Any) -> tuple[str | None, list[str] | None]:
    """Normalise a gold value to text; return (gold, parts) where parts lists a multi-part gold.

    Integral floats lose their ``.0`` (AMC's 27.0 is "27"); lists are joined with
    ", " and their elements returned as parts when there are several.
    """
    if value is None:
        return None, None
    if isinstance(value, bool):
        return str(value), None
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value)), None
        return repr(value), None
    if isinstance(value, int):
        return str(value), None
    if isinstance(value, list | tuple):
        parts = [gold_to_text(v)[0] or "" for v in value]
        parts = [p for p in parts if p.strip()]
        if not parts:
            return None, None
        return ", ".join(parts), parts if len(parts) > 1 else None
    text = str(value).strip()
    return (text or None), None


def gold_from_record(
    record: dict[str, Any], mapping: FieldMapping
) -> tuple[str | None, dict[str, Any]]:
    """A record's gold by ``mapping``: its gold field, else the last ``\\boxed{}`` of its
    solution field; with the metadata that goes with it (``gold_parts`` of a list gold,
    ``unit``, and ``gold_source`` when the gold came from the solution). None if neither."""
    gold_field, gold_value = _first_present(record, mapping.gold)
    gold, parts = gold_to_text(gold_value)
    metadata: dict[str, Any] = {}
    if gold is not None and mapping.gold_after and mapping.gold_after in gold:
        solution, _, answer = gold.rpartition(mapping.gold_after)
        gold = _THOUSANDS_RE.sub("", answer.strip()) or None
        if solution.strip():
            metadata["solution"] = solution.strip()
        metadata["gold_source"] = f"after {mapping.gold_after!r} of {gold_field!r}"
    if gold is None and mapping.gold_from_solution:
        solution = record.get(mapping.gold_from_solution)
        if isinstance(solution, list):
            solution = "\n".join(str(s) for s in solution)
        if isinstance(solution, str):
            gold = last_boxed(solution)
            if gold is not None:
                metadata["gold_source"] = f"last \\boxed{{}} of {mapping.gold_from_solution!r}"
    if gold is None:
        return None, {}
    if parts:
        metadata["gold_parts"] = parts
    if mapping.unit and record.get(mapping.unit):
        metadata["unit"] = str(record[mapping.unit])
    return gold, metadata


_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _first_present(record: dict[str, Any], names: Iterable[str]) -> tuple[str | None, Any]:
    for name in names:
        if name in record and record[name] is not None:
            return name, record[name]
    return None, None


def _expected(names: tuple[str, ...]) -> str:
    return " or ".join(repr(n) for n in names)


def _id_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def questions_from_records(
    name: str, records: Iterable[tuple[str, dict[str, Any]]], mapping: FieldMapping
) -> list[Question]:
    """Apply ``mapping`` to ``records``; raise LeashError naming the line of any bad record."""
    questions: list[Question] = []
    first_seen: dict[str, str] = {}
    for position, (where, record) in enumerate(records):
        problem = _problem(name, where, record, mapping)
        gold, metadata = gold_from_record(record, mapping)
        if gold is None:
            wanted = list(mapping.gold)
            if mapping.gold_from_solution:
                wanted.append(f"a \\boxed{{}} in {mapping.gold_from_solution!r}")
            raise LeashError(
                f"{where}: no gold answer for benchmark {name!r}: expected "
                + " or ".join(w if w.startswith("a ") else repr(w) for w in wanted)
            )
        for extra in mapping.metadata:
            if record.get(extra) is not None:
                metadata[extra] = record[extra]
        solution = _solution(record, mapping, metadata)
        if solution is not None:
            metadata["solution"] = solution
        question_id = _question_id(where, record, mapping, position)
        if question_id in first_seen:
            raise LeashError(
                f"{where}: duplicate question id {question_id!r}"
                f" (first at {first_seen[question_id]})"
            )
        first_seen[question_id] = where
        questions.append(Question(name, question_id, problem, gold, metadata))
    return questions


def _problem(name: str, where: str, record: dict[str, Any], mapping: FieldMapping) -> str:
    """The record's problem text (LeashError when missing or empty)."""
    problem_field, problem = _first_present(record, mapping.problem)
    if problem_field is None:
        raise LeashError(
            f"{where}: missing field {_expected(mapping.problem)} (the problem text)"
            f" for benchmark {name!r}; fields present: {', '.join(sorted(record)) or 'none'}"
        )
    if not isinstance(problem, str) or not problem.strip():
        raise LeashError(f"{where}: field {problem_field!r} is empty or not text")
    return problem


def _solution(record: dict[str, Any], mapping: FieldMapping, metadata: dict) -> str | None:
    """The record's reference solution (OlympiadBench: the first of a list), if any; a
    ``solution`` the gold's metadata carried is taken out of it."""
    _, solution = _first_present(record, mapping.solution)
    if solution is None:
        solution = metadata.pop("solution", None)
    if isinstance(solution, list):
        solution = next((s for s in solution if isinstance(s, str) and s.strip()), None)
    return solution if isinstance(solution, str) and solution.strip() else None


def _question_id(where: str, record: dict[str, Any], mapping: FieldMapping, position: int) -> str:
    """The record's question id: its id field, else its position (unless ids are required)."""
    id_field, id_value = _first_present(record, mapping.id)
    if id_field is None:
        if mapping.id_required:
            raise LeashError(f"{where}: missing id field {_expected(mapping.id)}")
        return str(position)
    question_id = _id_text(id_value)
    if not question_id:
        raise LeashError(f"{where}: id field {id_field!r} is empty")
    return question_id


def load_benchmark_file(
    name: str, source: str, mapping: FieldMapping | None = None, domain: str | None = None
) -> Benchmark:
    """Load benchmark ``name`` from ``source`` (a path or ``hf:ORG/NAME[:split]``).

    Without ``mapping``, a preset of the same name is used if there is one, else the
    generic mapping. ``domain`` overrides the mapping's domain tag.
    """
    try:
        check_name("benchmark", name)
    except ValueError as exc:
        raise LeashError(str(exc)) from exc
    if mapping is None:
        preset = PRESETS.get(name)
        mapping = preset.mapping if preset else FieldMapping()
    if domain:
        mapping = replace(mapping, domain=domain)
    questions = questions_from_records(name, read_records(source), mapping)
    if not questions:
        raise LeashError(f"{source}: no questions (empty file)")
    return Benchmark(name=name, domain=mapping.domain, source=source, questions=questions)


def custom_mapping(
    problem: str | None = None,
    gold: str | None = None,
    id: str | None = None,
    gold_from_solution: str | None = None,
    domain: str | None = None,
    base: FieldMapping | None = None,
) -> FieldMapping:
    """A mapping that names fields exactly (each given name replaces the default list)."""
    mapping = base or FieldMapping()
    changes: dict[str, Any] = {}
    if problem:
        changes["problem"] = (problem,)
    if gold:
        changes["gold"] = (gold,)
        changes["gold_from_solution"] = gold_from_solution
    elif gold_from_solution:
        changes["gold"] = ()
        changes["gold_from_solution"] = gold_from_solution
    if id:
        changes["id"] = (id,)
        changes["id_required"] = True
    if domain:
        changes["domain"] = domain
    return replace(mapping, **changes)
