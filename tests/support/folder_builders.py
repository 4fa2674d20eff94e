"""Build small results folders for tests through the real writer (create/merge/append).

``write_folder`` is the one builder every test goes through: manifest, questions, then one
append per shard of sample rows. ``build_folder`` builds on it from a compact spec, where
a model's samples on a question are written as a compact spec, one token per sample:

    C      verified correct, answer = the question's gold ("42" unless given)
    I<x>   verified incorrect with answer <x> (e.g. I7); plain I means answer "0"
    N      verified, no answer found
    T<x>   verification timed out (answer <x>, may be empty); E<x> likewise for an error
    ?      not verified yet (no answer, no status)
    G      the question has no gold: status no_gold, no answer

    spec = {("alg", "1"): {"base": "C C I7 N", "rlvr": "C C C ?"}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from sampler.store.manifest import new_manifest
from sampler.store.schema import BenchmarkEntry, ModelEntry
from sampler.store.shards.writer import (
    append_samples,
    create_results,
    merge_questions,
    questions_table,
)

GOLD = "42"
_STATUS = {"C": "correct", "I": "incorrect", "N": "no_answer", "T": "timeout", "E": "error"}


def parse_spec(spec: str, gold: str = GOLD) -> list[tuple[str | None, str | None]]:
    """[(status, answer), ...] for a spec string (see module docstring)."""
    out: list[tuple[str | None, str | None]] = []
    for token in spec.split():
        kind, rest = token[0], token[1:]
        if kind == "?":
            out.append((None, None))
        elif kind == "C":
            out.append(("correct", rest or gold))
        elif kind == "I":
            out.append(("incorrect", rest or "0"))
        elif kind == "N":
            out.append(("no_answer", None))
        elif kind == "G":
            out.append(("no_gold", None))
        elif kind in "TE":
            out.append((_STATUS[kind], rest or None))
        else:
            raise ValueError(f"bad sample token {token!r}")
    return out


def sample_rows(
    benchmark: str,
    question_id: str,
    model: str,
    spec: str,
    token_entropy: Sequence[float | None] | None = None,
    first_sample: int = 0,
    gold: str = GOLD,
    source_correct: Sequence[bool | None] | None = None,
) -> list[dict[str, Any]]:
    """Sample rows (dicts in SAMPLES_SCHEMA columns) of one model on one question
    (``source_correct``: an imported tool's verdict per sample, as importers keep it)."""
    parsed = parse_spec(spec, gold)
    if token_entropy is not None and len(token_entropy) != len(parsed):
        raise ValueError("one token entropy per sample")
    if source_correct is not None and len(source_correct) != len(parsed):
        raise ValueError("one source verdict per sample")
    rows = []
    for i, (status, answer) in enumerate(parsed):
        rows.append(
            {
                "benchmark": benchmark,
                "question_id": question_id,
                "model": model,
                "sample": first_sample + i,
                "text": f"so the answer is \\boxed{{{answer or ''}}}",
                "answer": answer,
                "status": status,
                "correct": None if status is None else status == "correct",
                "token_entropy": None if token_entropy is None else token_entropy[i],
                "source_correct": None if source_correct is None else source_correct[i],
            }
        )
    return rows


def samples_table(rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(list(rows))


def write_folder(
    root: Path | str,
    questions: Iterable[Mapping[str, Any]] | None = None,
    shards: Iterable[Iterable[Mapping[str, Any]] | pa.Table] = (),
    *,
    models: Sequence[ModelEntry | str] = (),
    benchmarks: Sequence[BenchmarkEntry | str] | None = None,
) -> Path:
    """A results folder with ``questions`` (rows of the questions table; None: no table) and
    one sample shard per item of ``shards`` (sample rows, or a table), by the store's writer.

    ``models``: manifest entries, or names (the first is the base, the others targets).
    ``benchmarks``: entries or names (domain math); default: the questions' benchmarks in
    order of first use.
    """
    root = Path(root)
    questions = None if questions is None else list(questions)
    entries = [
        m if isinstance(m, ModelEntry) else ModelEntry(m, "base" if i == 0 else "target")
        for i, m in enumerate(models)
    ]
    if benchmarks is None:
        benchmarks = list(dict.fromkeys(q["benchmark"] for q in questions or ()))
    bench_entries = [b if isinstance(b, BenchmarkEntry) else BenchmarkEntry(b) for b in benchmarks]
    create_results(root, new_manifest(models=entries, benchmarks=bench_entries))
    if questions is not None:
        merge_questions(root, questions_table(questions))
    for shard in shards:
        table = shard if isinstance(shard, pa.Table) else samples_table(shard)
        if table.num_rows:
            append_samples(root, table)
    return root


def build_folder(
    root: Path,
    spec: Mapping[tuple[str, str], Mapping[str, str]],
    *,
    base: str = "base",
    targets: Sequence[str] = ("rlvr",),
    domains: Mapping[str, str] | None = None,
    token_entropy: Mapping[tuple[str, str, str], Sequence[float | None]] | None = None,
    golds: Mapping[tuple[str, str], str] | None = None,
    shards: int = 1,
    source_correct: Mapping[tuple[str, str, str], Sequence[bool | None]] | None = None,
    verifiers: Mapping[str, str] | None = None,
    problems: Mapping[tuple[str, str], str] | None = None,
) -> Path:
    """A results folder with the samples of ``spec`` ({(benchmark, qid): {model: spec}}).

    ``domains`` maps benchmark -> domain (manifest order = its order, else first use).
    ``token_entropy`` maps (benchmark, qid, model) -> one value per sample, and so does
    ``source_correct`` (imported source verdicts; absent: null). The samples
    are spread over ``shards`` appends (round robin by question) to exercise several shards.
    ``verifiers`` maps benchmark -> verifier name (default math); ``problems`` gives a
    question's text (default "Question Q of B?").
    """
    benchmarks = list(dict.fromkeys([*(domains or {}), *(b for b, _ in spec)]))
    questions = [
        {
            "benchmark": b,
            "question_id": q,
            "problem": (problems or {}).get((b, q), f"Question {q} of {b}?"),
            "gold": (golds or {}).get((b, q), GOLD),
        }
        for b, q in spec
    ]
    batches: list[list[dict[str, Any]]] = [[] for _ in range(max(1, shards))]
    for i, ((bench, qid), per_model) in enumerate(spec.items()):
        for model, model_spec in per_model.items():
            batches[i % len(batches)] += sample_rows(
                bench,
                qid,
                model,
                model_spec,
                (token_entropy or {}).get((bench, qid, model)),
                gold=(golds or {}).get((bench, qid), GOLD),
                source_correct=(source_correct or {}).get((bench, qid, model)),
            )
    return write_folder(
        root,
        questions,
        batches,
        models=[ModelEntry(base, "base"), *(ModelEntry(t, "target") for t in targets)],
        benchmarks=[
            BenchmarkEntry(b, domain=(domains or {}).get(b, "math"), **_verifier(verifiers, b))
            for b in benchmarks
        ],
    )


def _verifier(verifiers: Mapping[str, str] | None, benchmark: str) -> dict[str, str]:
    name = (verifiers or {}).get(benchmark)
    return {} if name is None else {"verifier": name}


def counts_spec(correct: int, total: int) -> str:
    """A spec with ``correct`` correct then ``total - correct`` incorrect samples."""
    return " ".join(["C"] * correct + ["I"] * (total - correct))
