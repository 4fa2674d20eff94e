"""The answers of each pair by extraction rule: which rule found how many of each model's answers.

A target that learned to write its answer another way (no ``\\boxed{}``, a last number
instead) has its answers found by other rules than the base's; the format-effect notes
warn when the shares differ much, this table shows them all. Per target, one row per
rule that found an answer of either model: the samples whose answer it found, and
their share of the model's verified samples. From the ``answer_rule`` counts that
``load_report_data`` reads (none for folders above ``RULE_CHECK_SAMPLES`` samples, or
whose verdicts were imported without rules): no rows, no section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.report.cells import shown
from leash_tui.report.columns import ANSWER_RULES, ReportColumn
from leash_tui.report.sections import Row, Section, Titles

KEY = "answer_rules"
_IDS = tuple(ReportColumn(key, None, "name") for key in ("base", "target"))


def rule_rows(
    rules: Mapping[str, Mapping[str, int]], counts: pa.Table, base: str, targets: Sequence[str]
) -> list[dict[str, Any]]:
    """Per target, per rule (most answers first), the samples of base and target whose
    answer the rule found and their share of each model's verified samples."""
    verified = {m: _verified(counts, m) for m in (base, *targets)}
    out = []
    for target in targets:
        found = {m: rules.get(m, {}) for m in (base, target)}
        names = sorted(set(found[base]) | set(found[target]), key=lambda r: _order(found, r))
        for rule in names:
            samples = {"base": found[base].get(rule, 0), "target": found[target].get(rule, 0)}
            share = {
                role: samples[role] / verified[model] if verified[model] else None
                for role, model in (("base", base), ("target", target))
            }
            out.append(
                {"base": base, "target": target, "rule": rule, "samples": samples, "share": share}
            )
    return out


def _order(found: Mapping[str, Mapping[str, int]], rule: str) -> tuple[int, str]:
    return (-sum(counts.get(rule, 0) for counts in found.values()), rule)


def _verified(counts: pa.Table, model: str) -> int:
    rows = counts.filter(pc.equal(counts.column("model"), model))
    return int(pc.sum(rows.column("n_verified")).as_py() or 0)


def rule_section(rows: list[dict[str, Any]]) -> Section | None:
    """The section of ``rule_rows`` (None without rows)."""
    if not rows:
        return None
    pair = "{base} → {target}"
    titles = Titles(
        f"answers by extraction rule, {pair}",
        f"Answers by extraction rule, {pair}",
        r"Answers by extraction rule, {base} $\to$ {target}.",
    )
    section = Section(KEY, titles, (*_IDS, *ANSWER_RULES), label="rule")
    section.rows = [Row(row, shown(row["rule"]), row["target"]) for row in rows]
    return section
