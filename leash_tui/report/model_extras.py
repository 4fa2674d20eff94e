"""The options of ``leash report`` on a one-model folder: estimators, forecast, intervals.

``model_table`` gives one model's own pass@k; this adds, per row, what the options ask
for, computed by the same code as a pair's report (``report.blocks``, with the model as
both sides of its own comparison, then one side kept):

- ``--estimate-k``: ``estimates``, one entry per k: pass@k, pass^k, G-Pass@k_τ, distinct
  answers and maj@n of the model (a k above some question's samples is refused);
- ``--forecast K``: ``forecast`` {k, value, model} (``analysis.forecast``: measured within
  the samples, else the fit chosen by likelihood, named);
- ``--bootstrap N`` (N > 0): ``ci`` {level, resamples, pass@1, pass@k}: the Bayesian
  bootstrap over questions of ``analysis.bootstrap`` (each benchmark within itself).

Options that need a pair (a support threshold, the threshold curve) are refused with a
one-line error. The table and Markdown formats print each addition as lines after the
table; JSON carries the fields; CSV and LaTeX say in a note where they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from leash_tui.analysis.bootstrap import bootstrap_intervals, data_seed
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import compare_questions, drawn_fields, int_column, scope_tables
from leash_tui.report.blocks import estimate_block, forecast_block
from leash_tui.report.data import ReportData
from leash_tui.report.model_table import ModelReport
from sampler.errors import LeashError


def refuse_pair_options(tau: float, threshold_curve: bool, model: str) -> None:
    """LeashError for the options that count P/E/S/O, which one model has not."""
    for asked, option in ((tau > 0, "--support-threshold"), (threshold_curve, "--threshold-curve")):
        if asked:
            raise LeashError(
                f"{option}: the folder holds one model ({model}), and the option counts"
                " P/E/S/O of a pair; sample a second model or drop the option"
            )


def add_model_extras(
    report: ModelReport,
    data: ReportData,
    k: int | None,
    estimate_ks: Sequence[int] = (),
    g_tau: float = 0.5,
    forecast: int | None = None,
    bootstrap: int = 0,
    level: float = 0.95,
) -> None:
    """Add ``estimates``, ``forecast`` and ``ci`` to the rows of ``report`` (in place)."""
    if not (estimate_ks or forecast is not None or bootstrap):
        return
    model = report.model
    questions = compare_questions(data.counts, model, model, k)
    parts = [part for _, _, part in scope_tables(questions, data.domains())]
    scopes = []
    for row, part in zip(report.rows, parts, strict=True):
        pair = {"scope": row["scope"], "name": row["name"], "base": model, "target": model}
        scopes.append(({**pair, "k": row["k"], "pass@k": row["pass@k"]}, part))
    if estimate_ks:
        block = estimate_block(scopes, estimate_ks, g_tau, data.answer_stats)
        for i, (row, _) in enumerate(scopes):
            entries = [e for e in block.rows if e["name"] == row["name"] and _same(e, row)]
            report.rows[i]["estimates"] = [_one_side(e, ("k",)) for e in entries]
        budgets = ", ".join(map(str, estimate_ks))
        report.notes.append(
            f"estimators at k = {budgets}: G-Pass at τ = {g_tau:g}; maj@n and distinct"
            " answers over all samples"
        )
    if forecast is not None:
        block = forecast_block(scopes, forecast)
        for i, entry in enumerate(block.rows):
            report.rows[i]["forecast"] = {
                "k": forecast,
                "value": entry["forecast"]["base"],
                "model": entry["forecast_model"]["base"],
            }
    if bootstrap:
        for i, (row, part) in enumerate(scopes):
            report.rows[i]["ci"] = _intervals(part, row["k"], bootstrap, level)


def _same(entry: dict[str, Any], row: dict[str, Any]) -> bool:
    return entry["scope"] == row["scope"]


def _one_side(entry: dict[str, Any], keep: tuple[str, ...]) -> dict[str, Any]:
    out = {key: entry[key] for key in keep}
    for key in ("pass@k", "pass^k", "G-Pass@k", "distinct_answers", "maj@n"):
        out[key] = entry[key]["base"]
    return out


def _intervals(part, budget: int, resamples: int, level: float) -> dict[str, Any]:
    n, c = int_column(part, "n_base"), int_column(part, "c_base")
    passk = pass_at_k(n, c, budget)
    bench = part.column("benchmark").to_numpy(zero_copy_only=False)
    seed = data_seed(extra=(budget, 0.0, resamples))
    drawn = bootstrap_intervals(passk, passk, c / n, c / n, bench, resamples, level, seed)
    ci = drawn.ci
    return {
        "level": level,
        **drawn_fields(drawn, resamples),
        "pass@1": ci["pass@1_base"],
        "pass@k": ci["pass@k_base"],
    }


def extras_lines(report: ModelReport) -> list[str]:
    """The additions as plain lines for the table and Markdown formats (none: [])."""
    lines: list[str] = []
    for row in report.rows:
        label = row["name"] if row["scope"] == "benchmark" else f"{row['scope']}: {row['name']}"
        parts = []
        estimates = row.get("estimates", [])
        for e in estimates:
            k = e["k"]
            parts.append(
                f"pass@{k} {e['pass@k']:.4f}  pass^{k} {e['pass^k']:.4f}"
                f"  G-Pass@{k} {e['G-Pass@k']:.4f}"
            )
        for key, digits in (("distinct_answers", 2), ("maj@n", 4)):
            if estimates and estimates[0][key] is not None:  # over all samples, not per k
                parts.append(f"{key.replace('_', ' ')} {estimates[0][key]:.{digits}f}")
        if "forecast" in row:
            f = row["forecast"]
            parts.append(f"pass@{f['k']:,} forecast {f['value']:.4f} ({f['model']})")
        if "ci" in row:
            ci = row["ci"]
            for key in ("pass@1", "pass@k"):
                if ci[key] is not None:
                    lo, hi = ci[key]
                    parts.append(f"{key} {ci['level']:.0%} CI [{lo:.3f}, {hi:.3f}]")
        if parts:
            lines.append(f"{label}: " + "; ".join(parts))
    return lines


def extras_note(report: ModelReport, fmt: str) -> list[str]:
    """A note for CSV and LaTeX, which do not carry the additions."""
    added = any(key in row for row in report.rows for key in ("estimates", "forecast", "ci"))
    if not added or fmt not in ("csv", "latex"):
        return []
    return [f"the estimators, forecast and intervals of one model are not in --format {fmt};"
            " --format json, table or markdown show them"]  # fmt: skip
