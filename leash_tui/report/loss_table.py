"""The loss audit of a folder, read and rendered (``leash witnesses --losses``).

``load_losses`` compares the base with each chosen target (``analysis.support``), reads
only the key, status and answer columns of the targets' rejected samples on the
questions they lost, and builds the claims (``analysis.loss_audit``); ``rule_counts``
reads which rule found each model's answers, for the format-effect warnings of
``leash info`` and ``leash report``. Untrusted answers are made visible when rendered.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.loss_audit import LossClaim, loss_claims
from leash_tui.analysis.support import compare_questions
from leash_tui.report.columns import ReportColumn
from leash_tui.report.plain_columns import gold_answers, plain_strings
from leash_tui.report.sections import Chapter, Document, Row, Section, terminal_listing
from leash_tui.report.write_data import listing_document, write_csv, write_json
from leash_tui.report.write_people import print_document
from sampler.errors import LeashError
from sampler.store import STATUS_CORRECT, ResultsFolder, as_folder, column_all_null

FORMAT = "leash-losses/1"
_REJECTED_COLUMNS = (
    "benchmark",
    "question_id",
    "model",
    "status",
    "answer",
    "answer_written",
    "answer_rule",
)
CSV_COLUMNS = (
    "benchmark",
    "question_id",
    "target",
    "c_base",
    "n_base",
    "n_target",
    "gold",
    "rejected_answer",
    "status",
    "rule",
    "samples",
    "classes",
)


#: the label columns of rejected samples, plain strings before the join
LABEL_COLUMNS = ("benchmark", "question_id", "model", "status", "answer_rule")


def _base(results: ResultsFolder) -> str:
    bases = [m.name for m in results.manifest.models if m.role == "base"]
    if not bases:
        raise LeashError(f"{results.root}: no base model in the manifest")
    return bases[0]


def load_losses(
    folder: ResultsFolder | Path | str, targets: Sequence[str] = (), top: int = 3
) -> tuple[ResultsFolder, list[LossClaim]]:
    """The folder and the loss claims of each chosen target (all targets by default)."""
    results = as_folder(folder)
    base = _base(results)
    names = [m.name for m in results.manifest.models if m.name != base]
    for name in targets:
        if name not in names:
            raise LeashError(f"{results.root}: no target {name!r} (targets: {', '.join(names)})")
    counts = results.verdict_counts()
    golds = gold_answers(results.questions)
    present = set(counts.column("model").cast(pa.string()).to_pylist())
    claims: list[LossClaim] = []
    for target in targets or names:
        if target not in present or base not in present:
            continue
        questions = compare_questions(counts, base, target, None)
        lost = questions.filter(pc.equal(questions.column("category"), "S"))
        if lost.num_rows == 0:
            continue
        rejected = results.samples(
            columns=list(_REJECTED_COLUMNS),
            filter=(pc.field("model") == target) & (pc.field("status") != STATUS_CORRECT),
        )
        keys = pa.table(
            {
                "benchmark": lost.column("benchmark").cast(pa.string()),
                "question_id": lost.column("question_id").cast(pa.string()),
            }
        )
        rejected = plain_strings(
            rejected, ("benchmark", "question_id", "model", "status", "answer_rule")
        ).join(keys, ["benchmark", "question_id"], join_type="inner")
        claims += loss_claims(questions, rejected, golds, target, top)
    return results, claims


def rule_counts(results: ResultsFolder, models: Sequence[str]) -> dict[str, dict[str, int]]:
    """model -> extraction rule -> verified samples it found an answer for (no read when
    the footer statistics show no rule recorded: imports of other harnesses' verdicts)."""
    if column_all_null(results, "answer_rule"):
        return {}
    table = results.samples(
        columns=["model", "answer_rule"], filter=pc.field("answer_rule").is_valid()
    )
    if table.num_rows == 0:
        return {}
    grouped = (
        plain_strings(table, ("model", "answer_rule"))
        .group_by(["model", "answer_rule"])
        .aggregate([([], "count_all")])
    )
    out: dict[str, dict[str, int]] = {}
    for row in grouped.to_pylist():
        if row["model"] in models:
            out.setdefault(row["model"], {})[row["answer_rule"]] = int(row["count_all"])
    return out


def truncated_no_answers(results: ResultsFolder, models: Sequence[str]) -> dict[str, int]:
    """model -> no_answer samples that stopped at the token limit (finish reason length)."""
    table = results.samples(
        columns=["model"],
        filter=(pc.field("status") == "no_answer") & (pc.field("finish_reason") == "length"),
    )
    names = plain_strings(table, ("model",)).column("model").to_pylist()
    return {m: names.count(m) for m in models if m in names}


def loss_records(claims: list[LossClaim]) -> list[dict[str, Any]]:
    return [
        {
            "benchmark": c.benchmark,
            "question_id": c.question_id,
            "target": c.target,
            "base_support": f"{c.c_base}/{c.n_base}",
            "n_target": c.n_target,
            "gold": c.gold,
            "rejected_classes": c.classes,
            "rejected": [
                {"answer": r.answer, "status": r.status, "rule": r.rule, "samples": r.samples}
                for r in c.rejected
            ],
        }
        for c in claims
    ]


def losses_document(claims: list[LossClaim]) -> Document:
    """JSON: the claims with their rejected answers; CSV: one line per rejected answer class
    (a lost question without one takes one line)."""
    lines = [
        {
            "benchmark": c.benchmark,
            "question_id": c.question_id,
            "target": c.target,
            "c_base": c.c_base,
            "n_base": c.n_base,
            "n_target": c.n_target,
            "gold": c.gold,
            "rejected_answer": r.answer if r else None,
            "status": r.status if r else None,
            "rule": r.rule if r else None,
            "samples": r.samples if r else None,
            "classes": c.classes,
        }
        for c in claims
        for r in c.rejected or [None]
    ]
    return listing_document({"format": FORMAT}, "claims", loss_records(claims), CSV_COLUMNS, lines)


def render_losses_json(claims: list[LossClaim]) -> str:
    return write_json(losses_document(claims), allow_nan=True)


def render_losses_csv(claims: list[LossClaim]) -> str:
    return write_csv(losses_document(claims))


#: the columns of the terminal table, after the benchmark (its label)
TABLE_COLUMNS = (
    ReportColumn("id", "id", "text", justify="left", names=True),
    ReportColumn("target", "target", "text", justify="left", names=True),
    ReportColumn("base", "base c/n", "text", 1),
    ReportColumn("gold", "gold", "text", 2, justify="left", wrap=True),
    ReportColumn("answer", "rejected answer", "text", 2, justify="left", wrap=True),
    ReportColumn("status", "status", "text", 2, justify="left"),
    ReportColumn("samples", "×", "text", 2),
    ReportColumn("rule", "rule", "text", 3, justify="left"),
)


def loss_section(claims: list[LossClaim]) -> Section:
    """The terminal table: one line per rejected answer class, the lost question's names on
    its first."""
    caption = (
        f"{len(claims)} lost question(s); one answer class rejected again and again, or"
        " no_answer, may be a false reject rather than lost support"
    )
    title = "shrinkage claims: the target's most frequent rejected answers"
    section = terminal_listing("losses", title, TABLE_COLUMNS, "benchmark", caption)
    for n, c in enumerate(claims):
        for i, r in enumerate(c.rejected or [None]):
            first = i == 0
            values = {
                "id": c.question_id if first else "",
                "target": c.target if first else "",
                "base": f"{c.c_base}/{c.n_base:,}" if first else "",
                "gold": (c.gold or "–") if first else "",
                "answer": (r.answer or "(no answer)") if r else "–",
                "status": r.status if r else "",
                "samples": str(r.samples) if r else "",
                "rule": (r.rule or "") if r else "",
            }
            section.rows.append(Row(values, c.benchmark if first else "", group=str(n)))
    return section


def print_losses(claims: list[LossClaim], console: Any) -> None:
    """The loss table (``loss_section``), or a line saying there is no loss."""
    from rich.text import Text

    if not claims:
        console.print(Text("No shrinkage claim: no question left the target's support."))
        return
    print_document(Document([Chapter("", {})], [loss_section(claims)]), console)
