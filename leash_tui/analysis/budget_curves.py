"""Budget curves: pass@k of each model and the expected P/E/S/O and rates at k = 1, 2, 4, …

Pure numpy on the per-question comparison table of ``analysis.support``; the budget
screen and ``leash report --curves`` draw them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from leash_tui.analysis.estimators import support_probability
from leash_tui.analysis.pass_at_k import pass_at_ks
from leash_tui.analysis.support import (
    compared_rows,
    expected_counts,
    int_column,
    support_rates,
)
from leash_tui.analysis.support_names import CATEGORIES, RATES


def curve_budgets(budget: int) -> list[int]:
    """1, 2, 4, ... below ``budget``, then ``budget`` itself."""
    ks, k = [], 1
    while k < budget:
        ks.append(k)
        k *= 2
    return [*ks, budget] if budget >= 1 else []


def budget_curve(
    questions: pa.Table, ks: Sequence[int] | None = None, tau: float = 0.0
) -> pa.Table:
    """pass@k of each model and expected P/E/S/O (with their rates) at several budgets.

    Default budgets: 1, 2, 4, ... up to the comparison budget (the smallest per-question
    k), plus that budget. Columns: k, passk_base, passk_target, P, E, S, O, SRR, NDR,
    SDS, NSCR (rates null where undefined). ``tau`` > 0 counts support at that threshold
    (at least ⌈τ·k⌉ of k correct, ``estimators.support_probability``); pass@k stays pass@k.
    """
    compared = compared_rows(questions)
    names = ["k", "passk_base", "passk_target", *CATEGORIES, *RATES]
    if compared.num_rows == 0:
        return pa.table({n: pa.array([], pa.int64() if n == "k" else pa.float64()) for n in names})
    n_b, c_b = int_column(compared, "n_base"), int_column(compared, "c_base")
    n_t, c_t = int_column(compared, "n_target"), int_column(compared, "c_target")
    smallest = int(np.minimum(n_b, n_t).min())
    budgets = curve_budgets(int(int_column(compared, "k").min())) if ks is None else sorted(set(ks))
    for k in budgets:
        if not 1 <= k <= smallest:
            raise ValueError(f"budget {k} is outside 1..{smallest} (the smallest verified count)")
    b = pass_at_ks(n_b, c_b, budgets)
    t = pass_at_ks(n_t, c_t, budgets)
    columns: dict[str, list] = {n: [] for n in names}
    for i, k in enumerate(budgets):
        if tau:
            in_b, in_t = (
                support_probability(n_b, c_b, k, tau),
                support_probability(n_t, c_t, k, tau),
            )
        else:
            in_b, in_t = b[:, i], t[:, i]
        counts = expected_counts(in_b, in_t)
        columns["k"].append(k)
        columns["passk_base"].append(float(b[:, i].mean()))
        columns["passk_target"].append(float(t[:, i].mean()))
        for key, value in {**counts, **support_rates(*counts.values())}.items():
            columns[key].append(value)
    return pa.table(
        {n: pa.array(v, pa.int64() if n == "k" else pa.float64()) for n, v in columns.items()}
    )
