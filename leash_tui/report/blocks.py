"""The report's optional parts beyond the summary rows: estimators, a forecast, guessing.

Each is a ``Block``: a name (its JSON key, and the ``row`` value of its CSV lines), a
title for the tables, its columns from the column registry (``report.columns``), and
rows that name their scope like summary rows do. Each becomes one section of the report
(``report.pair_sections.block_section``), which every format shows, so a new part is one
builder here and its columns there.

- estimators (``--estimate-k``): pass@k, pass^k and G-Pass@k_τ of both models at each
  k asked (``analysis.estimators``), distinct answers per question and maj@n over the
  verifier's answer classes (``analysis.answer_stats``);
- forecast (``--forecast K``): pass@K of ``analysis.forecast``: measured when K is at
  most the samples drawn, else the (zero-inflated) beta-binomial fit chosen by
  likelihood, labelled "forecast" in every format, the fit named (``forecast_model``);
- support by threshold (``--threshold-curve``): P/E/S/O and NSCR at support thresholds
  τ from one success to all samples, the breadth-to-depth view (Cover@τ): whether
  shrinkage lives in questions the base solved once or in ones it solved often;
- guessing (benchmarks graded by the ``choice`` verifier): options, the chance of a
  uniform guesser at the row's budget, and the supported questions that chance alone
  explains (``analysis.guessing``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.estimators import g_pass_at_k, pass_hat_k
from leash_tui.analysis.forecast import ONE_RATE, forecast
from leash_tui.analysis.guessing import chance_explained, choice_options, guess_chance
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import expected_counts, in_support, int_column, support_rates
from leash_tui.analysis.support_names import G_PASS_AT_K, MAJ_AT_N, NSCR, PASS_AT_K, PASS_HAT_K
from leash_tui.report.columns import ESTIMATE, FORECAST, GUESSING, THRESHOLDS, ReportColumn
from sampler.errors import LeashError

#: a scope of the report: its summary row and its per-question comparison table
Scope = tuple[dict[str, Any], pa.Table]
CHOICE_VERIFIER = "choice"
#: the support thresholds of the breadth-to-depth curve (0 = one success)
CURVE_THRESHOLDS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


@dataclass
class Block:
    """An optional part of the report (see the module docstring)."""

    key: str
    title: str
    columns: tuple[ReportColumn, ...]
    rows: list[dict[str, Any]] = field(default_factory=list)


def _label(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row[key] for key in ("scope", "name", "base", "target")}


def _counts(part: pa.Table) -> tuple[np.ndarray, ...]:
    return tuple(int_column(part, name) for name in ("n_base", "c_base", "n_target", "c_target"))


def _pair(base: float, target: float) -> dict[str, float]:
    return {"base": float(base), "target": float(target)}


def estimate_block(
    scopes: Sequence[Scope], ks: Sequence[int], tau: float, answer_stats: pa.Table | None
) -> Block:
    """pass@k, pass^k, G-Pass@k_τ per scope and k; LeashError for a k above some n."""
    block = Block("estimates", f"estimators (G-Pass at τ = {tau:g})", ESTIMATE)
    for row, part in scopes:
        n_b, c_b, n_t, c_t = _counts(part)
        smallest = int(np.minimum(n_b, n_t).min())
        distinct = _mean_stat(part, row, answer_stats, "distinct_answers")
        majority = _mean_stat(part, row, answer_stats, "majority")
        for k in ks:
            if k > smallest:
                raise LeashError(
                    f"--estimate-k {k}: larger than the {smallest} verified samples of some"
                    f" question of {row['name']} (an estimate needs k <= n; see --forecast)"
                )
            block.rows.append(
                {
                    **_label(row),
                    "k": k,
                    PASS_AT_K: _pair(pass_at_k(n_b, c_b, k).mean(), pass_at_k(n_t, c_t, k).mean()),
                    PASS_HAT_K: _pair(
                        pass_hat_k(n_b, c_b, k).mean(), pass_hat_k(n_t, c_t, k).mean()
                    ),
                    G_PASS_AT_K: _pair(
                        g_pass_at_k(n_b, c_b, k, tau).mean(), g_pass_at_k(n_t, c_t, k, tau).mean()
                    ),
                    "distinct_answers": distinct,
                    MAJ_AT_N: majority,
                }
            )
    return block


def _mean_stat(
    part: pa.Table, row: dict[str, Any], answer_stats: pa.Table | None, name: str
) -> dict[str, float | None]:
    """The mean over the scope's questions of one answer statistic (answer classes, maj@n)
    of each model (None without statistics)."""
    out: dict[str, float | None] = {"base": None, "target": None}
    if answer_stats is None or name not in answer_stats.column_names:
        return out
    keys = part.select(["benchmark", "question_id"])
    for role in ("base", "target"):
        stats = answer_stats.filter(pc.equal(answer_stats.column("model"), row[role]))
        joined = keys.join(
            stats.select(["benchmark", "question_id", name]),
            keys=["benchmark", "question_id"],
        )
        mean = pc.mean(joined.column(name)).as_py() if joined.num_rows else None
        out[role] = None if mean is None else float(mean)
    return out


def threshold_block(scopes: Sequence[Scope], taus: Sequence[float] = CURVE_THRESHOLDS) -> Block:
    """P/E/S/O (expected counts) and NSCR per scope at each support threshold τ, at the
    row's budget (``analysis.support.in_support``)."""
    block = Block("thresholds", "support by threshold τ (breadth to depth)", THRESHOLDS)
    for row, part in scopes:
        n_b, c_b, n_t, c_t = _counts(part)
        k = row["k"]
        exact = bool(((n_b == k) & (n_t == k)).all())  # 0/1 support: whole counts
        for tau in taus:
            counts: dict[str, Any] = expected_counts(
                in_support(n_b, c_b, k, tau), in_support(n_t, c_t, k, tau)
            )
            if exact:
                counts = {key: round(value) for key, value in counts.items()}
            rates = support_rates(*counts.values())
            block.rows.append({**_label(row), "tau": tau, **counts, NSCR: rates[NSCR]})
    return block


def forecast_block(scopes: Sequence[Scope], k: int) -> Block:
    """pass@K per scope (``analysis.forecast``: measured, or the fit chosen by likelihood,
    which ``forecast_model`` names), beside the measured pass@k; LeashError when no fit
    is identified (one sample per question)."""
    title = f"forecast of pass@{k:,} (a fit, not measured, where K exceeds the samples)"
    block = Block("forecast", title, FORECAST)
    for row, part in scopes:
        n_b, c_b, n_t, c_t = _counts(part)
        try:
            fb, ft = forecast(n_b, c_b, k), forecast(n_t, c_t, k)
        except ValueError as exc:
            raise LeashError(f"--forecast {k}: {row['name']}: {exc}") from None
        block.rows.append(
            {
                **_label(row),
                "k": row["k"],
                PASS_AT_K: row[PASS_AT_K],
                "forecast_k": k,
                "forecast": _pair(fb.value, ft.value),
                "forecast_model": {"base": fb.model, "target": ft.model},
                "forecast_fit": f"{_short(fb.model)}{chr(8594)}{_short(ft.model)}",
            }
        )
    return block


def _short(model: str) -> str:
    """A fit's name in a table cell: BB, ZIBB, 1 rate, measured, none, all."""
    return _SHORT.get(model, model)


_SHORT = {
    "beta-binomial": "BB",
    "zero-inflated beta-binomial": "ZIBB",
    ONE_RATE: "1 rate",
    "no success in any sample": "none",
    "every sample correct": "all",
}


def guessing_block(
    scopes: Sequence[Scope],
    verifiers: Mapping[str, str],
    problems: pa.Table | None,
    zeta: float,
) -> Block | None:
    """Per scope of choice benchmarks: options, guess@k, supported and chance-explained
    questions of each model; None when no benchmark is graded by ``choice``."""
    choice = {name for name, verifier in verifiers.items() if verifier == CHOICE_VERIFIER}
    if not choice or problems is None:
        return None
    options = _options(problems, choice)
    block = Block("guessing", "guessing (choice questions)", GUESSING)
    for row, part in scopes:
        keys = list(
            zip(
                part.column("benchmark").to_pylist(),
                part.column("question_id").to_pylist(),
                strict=True,
            )
        )
        m = np.array([options.get(key, 0) for key in keys])
        known = m >= 2
        if not known.any():
            continue
        n_b, c_b, n_t, c_t = (a[known] for a in _counts(part))
        mk = m[known]
        k = row["k"]
        block.rows.append(
            {
                **_label(row),
                "questions": int(known.sum()),
                "options": float(np.median(mk)),
                "guess@k": float(guess_chance(mk, k).mean()),
                "supported": {"base": int((c_b > 0).sum()), "target": int((c_t > 0).sum())},
                "by_chance": {
                    "base": int(chance_explained(c_b, n_b, mk, zeta).sum()),
                    "target": int(chance_explained(c_t, n_t, mk, zeta).sum()),
                },
            }
        )
    return block if block.rows else None


def _options(problems: pa.Table, benchmarks: set[str]) -> dict[tuple[str, str], int]:
    rows = problems.filter(pc.is_in(problems.column("benchmark"), pa.array(sorted(benchmarks))))
    out = {}
    for bench, qid, problem in zip(
        rows.column("benchmark").to_pylist(),
        rows.column("question_id").to_pylist(),
        rows.column("problem").to_pylist(),
        strict=True,
    ):
        m = choice_options(problem)
        if m is not None:
            out[(bench, qid)] = m
    return out
