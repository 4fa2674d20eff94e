"""What ``leash info`` says about a results folder, as plain data (no terminal code here).

Besides models, benchmarks and counts, the description holds two warnings a
comparison needs: questions that one model of a (base, target) pair has samples
for and the other has not (``missing_questions``: they are left out of that
pair's counts), and, per model with imported source verdicts, how often leash's
verdict and the source's differ (``grading_agreement``). It also counts, per
benchmark, where the golds came from (``gold_sources``); counts include ``n_trusted``,
verdicts that are the source's (``leash import --trust-verdicts``), not leash's.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.grading_agreement import agreement_by_model
from leash_tui.analysis.loss_audit import format_effect_notes
from leash_tui.analysis.series import find_series
from leash_tui.report.folder_reads import agreement_samples
from leash_tui.report.loss_table import rule_counts, truncated_no_answers
from sampler.store import (
    FORMAT,
    VERDICT_COUNT_COLUMNS,
    Manifest,
    ResultsFolder,
    coverage_notes,
    shards_not_indexed,
    shards_without_summary,
)
from sampler.verify.identity import grader_note


def _format_effects(results: ResultsFolder, counts: pa.Table) -> list[str]:
    """Base against each target: no_answer shares and answer rules far apart."""
    base = [m.name for m in results.manifest.models if m.role == "base"]
    if not base or not counts.num_rows:
        return []
    targets = [m.name for m in results.manifest.models if m.name != base[0]]
    rules = rule_counts(results, [base[0], *targets])
    truncated = truncated_no_answers(results, [base[0], *targets])
    return format_effect_notes(counts, rules, base[0], targets, truncated)


COUNT_FIELDS = ("n", *VERDICT_COUNT_COLUMNS)


#: Where a question's gold came from when its metadata does not say: the gold field.
GOLD_FIELD = "gold field"


def gold_sources(questions: pa.Table) -> list[dict[str, Any]]:
    """Questions per benchmark and gold source (``metadata["gold_source"]``: the last box of
    a solution, a raw field of an imported row, a harness's normalised gold...)."""
    counted: dict[tuple[str, str], int] = {}
    if questions.num_rows:
        for bench, meta in zip(
            questions.column("benchmark").to_pylist(),
            questions.column("metadata").to_pylist(),
            strict=True,
        ):
            try:
                parsed = json.loads(meta) if meta else {}
            except ValueError:
                parsed = {}
            source = parsed.get("gold_source") if isinstance(parsed, dict) else None
            key = (bench, str(source) if source else GOLD_FIELD)
            counted[key] = counted.get(key, 0) + 1
    return [{"benchmark": b, "source": s, "questions": n} for (b, s), n in sorted(counted.items())]


def describe_results(results: ResultsFolder) -> dict[str, Any]:
    """A JSON-ready description: format, models, benchmarks and per model x benchmark counts."""
    manifest = results.manifest
    counts = results.verdict_counts()
    agreement = agreement_samples(results)
    questions = results.questions
    per_bench_questions: dict[str, int] = {}
    if questions.num_rows:
        grouped = questions.group_by("benchmark").aggregate([("question_id", "count")])
        per_bench_questions = dict(
            zip(
                grouped.column("benchmark").to_pylist(),
                grouped.column("question_id_count").to_pylist(),
                strict=True,
            )
        )
    samples = []
    if counts.num_rows:
        per_pair = counts.group_by(["model", "benchmark"]).aggregate(
            [(f, "sum") for f in COUNT_FIELDS]
            + [("question_id", "count"), ("n", "min"), ("n", "max")]
        )
        for row in per_pair.to_pylist():
            entry = {"model": row["model"], "benchmark": row["benchmark"]}
            entry.update({f: row[f"{f}_sum"] for f in COUNT_FIELDS})
            entry["questions"] = row["question_id_count"]
            entry["samples_per_question"] = [row["n_min"], row["n_max"]]
            samples.append(entry)
        samples.sort(key=lambda e: (_model_order(manifest, e["model"]), e["benchmark"]))
    total = int(pc.sum(counts.column("n")).as_py() or 0) if counts.num_rows else 0
    verified = int(pc.sum(counts.column("n_verified")).as_py() or 0) if counts.num_rows else 0
    trusted = int(pc.sum(counts.column("n_trusted")).as_py() or 0) if counts.num_rows else 0
    no_gold = int(pc.sum(counts.column("n_no_gold")).as_py() or 0) if counts.num_rows else 0
    return {
        "folder": str(results.root),
        "format": manifest.format or FORMAT,
        "created": manifest.created,
        "synthetic": manifest.synthetic,
        "tool_versions": manifest.tool_versions,
        "models": [
            {"name": m.name, "role": m.role, "source": m.source, "sampling": m.sampling}
            for m in manifest.models
        ],
        "benchmarks": [
            {
                "name": b.name,
                "domain": b.domain,
                "verifier": b.verifier,
                "source": b.source,
                "questions": per_bench_questions.get(b.name, 0),
            }
            for b in manifest.benchmarks
        ],
        "samples": samples,
        "series": series_description(manifest),
        "gold_sources": gold_sources(questions),
        "missing_questions": missing_questions(counts, manifest),
        "coverage": coverage_notes(results, counts),
        # who graded: every verifier identity that wrote verdicts (sampler.verify.identity)
        "graders": list(manifest.verification.get("graders") or []),
        "grader_note": grader_note(manifest.verification),
        "format_effects": _format_effects(results, counts),
        "grading_agreement": sorted(
            agreement_by_model(agreement) if agreement is not None else [],
            key=lambda row: _model_order(manifest, row["model"]),
        ),
        "totals": {
            "samples": total,
            "verified": verified,
            "unverified": total - verified - no_gold,
            # samples of questions without a gold (status no_gold): left out of P/E/S/O
            "no_gold": no_gold,
            # verdicts leash did not compute: source verdicts trusted at import
            "trusted_source_verdicts": trusted,
        },
        "shards": len(results.shard_paths()),
        "shards_without_summary": shards_without_summary(results),
        # shards the shard index does not describe as they are (None: no index)
        "shards_not_indexed": shards_not_indexed(results),
    }


def series_description(manifest: Manifest) -> list[dict[str, Any]]:
    """Training series among the targets (names ``NAME@STEP``): name, steps and models,
    the base being step 0. A duplicate step is reported as the series' ``error``."""
    base = manifest.base
    if base is None:
        return []
    try:
        found = find_series(m.name for m in manifest.targets)
    except ValueError as exc:
        return [{"name": None, "steps": [], "models": [], "error": str(exc)}]
    return [
        {
            "name": run.name,
            "steps": run.steps,
            "models": [model for _, model in run.models(base.name)],
        }
        for run in found
    ]


def _model_order(manifest, name: str) -> tuple[int, int]:
    for index, model in enumerate(manifest.models):
        if model.name == name:
            return (0 if model.role == "base" else 1, index)
    return (2, 0)


def question_sets(counts: pa.Table) -> dict[str, set[tuple[str, str]]]:
    """Per model, the (benchmark, question_id) it has samples of (from verdict counts)."""
    present = counts.filter(pc.greater(counts.column("n"), 0)) if counts.num_rows else counts
    sets: dict[str, set[tuple[str, str]]] = {}
    for bench, qid, model in zip(
        present.column("benchmark").to_pylist(),
        present.column("question_id").to_pylist(),
        present.column("model").to_pylist(),
        strict=True,
    ):
        sets.setdefault(model, set()).add((bench, qid))
    return sets


def missing_questions(counts: pa.Table, manifest: Manifest) -> list[dict[str, Any]]:
    """For each (base, target) pair whose question sets differ: the questions of one only.

    Rows: base, target, only_base and only_target (sorted "benchmark/question_id"
    names). Such questions are left out of the pair's comparison.
    """
    base = manifest.base
    if base is None:
        return []
    sets = question_sets(counts)
    base_set = sets.get(base.name, set())
    rows = []
    for target in manifest.targets:
        target_set = sets.get(target.name, set())
        only_base = sorted(base_set - target_set, key=_question_order)
        only_target = sorted(target_set - base_set, key=_question_order)
        if only_base or only_target:
            rows.append(
                {
                    "base": base.name,
                    "target": target.name,
                    "only_base": [f"{b}/{q}" for b, q in only_base],
                    "only_target": [f"{b}/{q}" for b, q in only_target],
                }
            )
    return rows


def _question_order(key: tuple[str, str]) -> tuple[str, int, int | str]:
    bench, qid = key
    return (bench, 0, int(qid)) if qid.isdigit() else (bench, 1, qid)
