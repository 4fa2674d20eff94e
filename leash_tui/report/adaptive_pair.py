"""The report of a base/target pair of which one model was sampled with ``--adaptive``.

``build_report`` asks here whether a pair is adaptive; if so its per-question table
comes from ``analysis.adaptive_support`` at the pair's budget (the folder's k for both
models, or ``--k``), and a question whose state at that budget would need samples that
were not drawn is refused (or left out with ``--allow-partial``), never guessed.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.adaptive_support import adaptive_note, adaptive_questions
from leash_tui.report.data import ReportData
from sampler.errors import LeashError


def adaptive_first_n(data: ReportData, base: str, target: str) -> int | None:
    """N of the pair (the smaller min_samples of its adaptive models), None if neither is."""
    found = [data.adaptive_min_samples[m] for m in (base, target) if m in data.adaptive_min_samples]
    return min(found) if found and data.adaptive is not None else None


def pair_budget(data: ReportData, base: str, target: str) -> int:
    """The pair's default budget: the smaller -k the manifest records for the two models,
    else the fewest samples of any question of a model without a record."""
    budgets = []
    for model in (base, target):
        entry = data.manifest.model(model)
        samples = (entry.sampling or {}).get("samples") if entry is not None else None
        if isinstance(samples, int) and samples > 0:
            budgets.append(samples)
        else:
            rows = data.adaptive.filter(pc.equal(data.adaptive.column("model"), model))
            if rows.num_rows:
                budgets.append(int(pc.min(rows.column("n")).as_py()))
    return min(budgets) if budgets else 1


def adaptive_pair(
    data: ReportData,
    base: str,
    target: str,
    k: int | None,
    n_first: int,
    allow_partial: bool,
    notes: list[str],
) -> tuple[pa.Table, int]:
    """(per-question table, budget) of an adaptive pair; notes say what cannot be given."""
    assert data.adaptive is not None
    budget = k or pair_budget(data, base, target)
    questions, undecided = adaptive_questions(data.adaptive, base, target, budget, n_first)
    if undecided:
        shown = ", ".join(undecided[:5]) + (
            f" and {len(undecided) - 5} more" if len(undecided) > 5 else ""
        )
        detail = (
            f"{len(undecided)} question(s) of {base} vs {target} would need samples that were"
            f" not drawn (or not verified) to be placed at k = {budget:,}: {shown}"
        )
        if not allow_partial:
            raise LeashError(
                f"{detail}. Give a smaller --k, finish the run (the same leash sample"
                " --adaptive command) and leash verify, or pass --allow-partial to leave them out"
            )
        notes.append(f"{detail}; left out (--allow-partial)")
    for note in (adaptive_note(n_first), risk_note(data, base, target)):
        if note and note not in notes:
            notes.append(note)
    return questions, budget


def risk_note(data: ReportData, base: str, target: str) -> str | None:
    """What ``--risk`` changes in the pair's numbers, in one sentence (None without it)."""
    deltas = sorted({data.adaptive_risk[m] for m in (base, target) if m in data.adaptive_risk})
    if not deltas:
        return None
    shown = " / ".join(f"{d:g}" for d in deltas)
    return (
        f"sampled with --risk {shown}: a (model, question) without a success was stopped once"
        " a bound on its chance of one in the samples left fell below that, and counts out"
        " of support at every budget above the round it stopped at; P/E/S/O there and"
        " pass@k at the folder's k are exact but for those, and the expected number of"
        " questions misclassified is at most 'miss ≤' (the sum of the bounds stated at the"
        " stops; sample.risk_stop, docs/measures-certainty.md)"
    )
