"""Where leash's verdicts and the imported source verdicts differ ("grading disagreements").

Imported samples keep the evaluation tool's verdict in ``source_correct``; ``leash
verify`` writes leash's in ``status``. A sample is *compared* when it has both: a
source verdict and a leash status of correct, incorrect or no_answer (timeout and
error are not verdicts). It *disagrees* when exactly one of the two says correct.
Each disagreement is either a verifier bug (in leash or in the tool) or a real
finding, so ``leash info``, the report and the explorer show them.

The functions below are pure (pyarrow compute over a samples table with the
``AGREEMENT_COLUMNS``); ``report.folder_reads.agreement_samples`` reads those columns from a
folder without touching completion text.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from sampler.store import STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER

#: leash statuses that are verdicts (timeout and error are not).
VERDICT_STATUSES = (STATUS_CORRECT, STATUS_INCORRECT, STATUS_NO_ANSWER)
KEYS = ("benchmark", "question_id", "model")


def _flags(samples: pa.Table) -> dict[str, pa.ChunkedArray]:
    status = samples.column("status")
    if pa.types.is_dictionary(status.type):
        status = status.cast(pa.string())
    source = samples.column("source_correct")
    has_source = pc.is_valid(source)
    has_leash = pc.fill_null(pc.is_in(status, pa.array(VERDICT_STATUSES)), False)
    leash_ok = pc.fill_null(pc.equal(status, STATUS_CORRECT), False)
    source_ok = pc.fill_null(source, False)
    compared = pc.and_(has_source, has_leash)
    return {
        "with_source_verdict": has_source,
        "compared": compared,
        "leash_correct_source_incorrect": pc.and_(
            compared, pc.and_(leash_ok, pc.invert(source_ok))
        ),
        "leash_incorrect_source_correct": pc.and_(
            compared, pc.and_(pc.invert(leash_ok), source_ok)
        ),
    }


def _counted(samples: pa.Table, keys: list[str]) -> pa.Table:
    """Per ``keys`` group: samples with a source verdict, compared, and both disagreements."""
    flags = _flags(samples)
    work = pa.table(
        {
            **{k: _plain(samples.column(k)) for k in keys},
            **{name: pc.cast(flag, pa.int64()) for name, flag in flags.items()},
        }
    )
    grouped = work.group_by(keys, use_threads=False).aggregate([(n, "sum") for n in flags])
    grouped = grouped.rename_columns([c.removesuffix("_sum") for c in grouped.column_names])
    differ = pc.add(
        grouped.column("leash_correct_source_incorrect"),
        grouped.column("leash_incorrect_source_correct"),
    )
    grouped = grouped.append_column("differ", differ)
    order = pc.sort_indices(grouped, sort_keys=[(k, "ascending") for k in keys])
    return grouped.take(order)


def _plain(column: pa.ChunkedArray) -> pa.ChunkedArray:
    return column.cast(pa.string()) if pa.types.is_dictionary(column.type) else column


def agreement_by_model(samples: pa.Table) -> list[dict[str, Any]]:
    """Per model: with_source_verdict, compared, differ, differ_rate (None when nothing was
    compared), leash_correct_source_incorrect, leash_incorrect_source_correct.

    Models whose samples carry no source verdict are left out.
    """
    if samples.num_rows == 0:
        return []
    rows = []
    for row in _counted(samples, ["model"]).to_pylist():
        if row["with_source_verdict"] == 0:
            continue
        row["differ_rate"] = row["differ"] / row["compared"] if row["compared"] else None
        rows.append(row)
    return rows


def disagreements_by_question(samples: pa.Table) -> pa.Table:
    """Per (benchmark, question_id, model) with a disagreement: compared and differ counts."""
    if samples.num_rows == 0:
        return pa.table(
            {k: pa.array([], pa.string()) for k in KEYS}
            | {"compared": pa.array([], pa.int64()), "differ": pa.array([], pa.int64())}
        )
    counted = _counted(samples, list(KEYS))
    counted = counted.filter(pc.greater(counted.column("differ"), 0))
    return counted.select([*KEYS, "compared", "differ"])


def disagreement_questions(samples: pa.Table, model: str | None = None) -> set[tuple[str, str]]:
    """The (benchmark, question_id) where some sample (of ``model``, or any) disagrees."""
    table = disagreements_by_question(samples)
    if model is not None:
        table = table.filter(pc.equal(table.column("model"), model))
    return set(
        zip(
            table.column("benchmark").to_pylist(),
            table.column("question_id").to_pylist(),
            strict=True,
        )
    )


def agreement_notes(samples: pa.Table, models: list[str] | None = None) -> list[str]:
    """One line per model (of ``models``, or all) with source verdicts, for reports.

    e.g. "rl: leash and the source disagree on 12 of 3,000 compared samples (0.4%;
    leash correct/source incorrect 2, leash incorrect/source correct 10) in 7 question(s)".
    """
    per_question = disagreements_by_question(samples)
    questions: dict[str, int] = {}
    for model in per_question.column("model").to_pylist():
        questions[model] = questions.get(model, 0) + 1
    notes = []
    for row in agreement_by_model(samples):
        model = row["model"]
        if models is not None and model not in models:
            continue
        if row["compared"] == 0:
            notes.append(
                f"{model}: {row['with_source_verdict']:,} sample(s) carry a source verdict but"
                " none has a leash verdict yet (run: leash verify)"
            )
            continue
        notes.append(
            f"{model}: leash and the source disagree on {row['differ']:,} of"
            f" {row['compared']:,} compared samples ({100 * row['differ_rate']:.1f}%;"
            f" leash correct/source incorrect {row['leash_correct_source_incorrect']:,},"
            f" leash incorrect/source correct {row['leash_incorrect_source_correct']:,})"
            f" in {questions.get(model, 0):,} question(s)"
        )
    return notes
