"""Support dynamics of an adaptively sampled folder (``leash sample --adaptive``), exactly.

An adaptive run gives every (model, question) its first N samples, then draws on only
until a verified success (or k). Its samples are the full run's samples 0 .. drawn-1,
so a question's in-support state at any budget j is exact from its first success index
f: in support iff f < j; out of support iff no success among j verified samples. What
needs samples that were not drawn is not guessed:

- budget j <= N: pass@j and expected P/E/S/O from the unbiased estimator over the first
  N samples (as for a folder of N samples), pass@1 over the first N;
- budget j > N: P/E/S/O exact (integers) from f; pass@j of the full estimator would need
  all j samples of every question, so it is null (shown as a dash) and a note says why.

Pure functions on ``store.first_success`` rows; the shapes are ``support``'s, so the
summary rows, tests and renderers are the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.budget_curves import curve_budgets
from leash_tui.analysis.exact_tests import fisher_exact_two_sided
from leash_tui.analysis.pass_at_k import pass_at_ks
from leash_tui.analysis.support import (
    compare_questions,
    compared_rows,
    expected_counts,
    int_column,
    support_rates,
)
from leash_tui.analysis.support_names import CATEGORIES, RATES

#: Per-question columns added to ``support.QUESTION_COLUMNS`` (* = base / target).
ADAPTIVE_COLUMNS = ("first_*", "prefix_*", "nfirst_*", "cfirst_*", "riskq_*")
#: The summary row's key of the stated bound on misclassified questions (``--risk``).
MISCLASSIFIED_BOUND = "misclassified_bound"
_KEYS = ["benchmark", "question_id"]


def _model_rows(first: pa.Table, model: str, role: str) -> pa.Table:
    rows = first.filter(pc.equal(first.column("model"), model))
    return pa.table(
        {
            "benchmark": rows.column("benchmark"),
            "question_id": rows.column("question_id"),
            f"first_{role}": pc.fill_null(rows.column("first_success"), -1),
            f"prefix_{role}": rows.column("verified_prefix"),
            f"nfirst_{role}": rows.column("n_first"),
            f"cfirst_{role}": rows.column("c_first"),
            f"riskq_{role}": (
                pc.fill_null(rows.column("risk_q"), 0.0)
                if "risk_q" in rows.column_names
                else pa.array(np.zeros(rows.num_rows))
            ),
        }
    )


def with_risk_stops(first: pa.Table, stops: pa.Table, samples: dict[str, int]) -> pa.Table:
    """``first`` (store.first_success rows) with a ``risk_q`` column: the q that
    ``--risk`` stated for a pair it stopped without a success (``stops``: the folder's
    adaptive_stops rows), null elsewhere. A stopped pair is known out of support at every
    budget up to its model's k (``samples``; its verified prefix is raised to k): it is
    counted out, within the stated bound, not left undecided."""
    risky = stops.filter(pc.equal(stops.column("stop"), "risk")).to_pylist()
    q = {(r["benchmark"], r["question_id"], r["model"]): r["risk_q"] for r in risky}
    names = ("benchmark", "question_id", "model")
    keys = list(zip(*(first.column(c).to_pylist() for c in names), strict=True))
    stated = [q.get(key) for key in keys]
    prefix = [
        p if v is None else max(p, samples.get(key[2], p))
        for p, v, key in zip(first.column("verified_prefix").to_pylist(), stated, keys, strict=True)
    ]
    index = first.column_names.index("verified_prefix")
    out = first.set_column(index, "verified_prefix", pa.array(prefix, pa.int64()))
    return out.append_column("risk_q", pa.array(stated, pa.float64()))


def _decided(first: np.ndarray, prefix: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(in support at budget k, known at budget k) from first success and verified prefix."""
    inside = (first >= 0) & (first < k)
    return inside, inside | (prefix >= k)


def adaptive_questions(
    first: pa.Table, base: str, target: str, k: int, n_first: int
) -> tuple[pa.Table, list[str]]:
    """``support.compare_questions``'s table for budget ``k`` (plus ADAPTIVE_COLUMNS), and
    the questions whose state at k needs samples not drawn (left without a category).

    ``first`` is ``store.first_success.first_success_table(.., n_first)``.
    """
    joined = _model_rows(first, base, "base").join(
        _model_rows(first, target, "target"), keys=_KEYS, join_type="inner"
    )
    joined = joined.take(pc.sort_indices(joined, sort_keys=[(c, "ascending") for c in _KEYS]))
    cols = {name: int_column(joined, name) for name in joined.column_names if name not in _KEYS}
    if k <= n_first:  # the estimator over the first N samples
        n = {r: cols[f"nfirst_{r}"] for r in ("base", "target")}
        c = {r: cols[f"cfirst_{r}"] for r in ("base", "target")}
        known = (n["base"] >= k) & (n["target"] >= k)
    else:  # exact: in support iff the first success is below k
        n, c, known = {}, {}, np.ones(joined.num_rows, dtype=bool)
        for role in ("base", "target"):
            inside, decided = _decided(cols[f"first_{role}"], cols[f"prefix_{role}"], k)
            n[role], c[role] = np.full(joined.num_rows, k), inside.astype(np.int64)
            known &= decided
    undecided = [
        f"{joined.column('benchmark')[int(i)]}/{joined.column('question_id')[int(i)]}"
        for i in np.flatnonzero(~known)
    ]
    zero = np.zeros(joined.num_rows, dtype=np.int64)
    counts = pa.table(
        {
            "benchmark": pa.concat_arrays([joined.column("benchmark").combine_chunks()] * 2),
            "question_id": pa.concat_arrays([joined.column("question_id").combine_chunks()] * 2),
            "model": pa.array([base] * joined.num_rows + [target] * joined.num_rows, pa.string()),
            "n_verified": np.concatenate(
                [np.where(known, n["base"], zero), np.where(known, n["target"], zero)]
            ),
            "n_correct": np.concatenate(
                [np.where(known, c["base"], zero), np.where(known, c["target"], zero)]
            ),
        }
    )
    questions = compare_questions(counts, base, target, k)
    nb, cb = cols["nfirst_base"], cols["cfirst_base"]
    nt, ct = cols["nfirst_target"], cols["cfirst_target"]
    ok = known & (nb > 0) & (nt > 0)
    pass1_b, pass1_t, fisher = (np.full(joined.num_rows, np.nan) for _ in range(3))
    pass1_b[ok], pass1_t[ok] = cb[ok] / nb[ok], ct[ok] / nt[ok]
    fisher[ok] = fisher_exact_two_sided(cb[ok], nb[ok] - cb[ok], ct[ok], nt[ok] - ct[ok])
    for name, values in (("pass1_base", pass1_b), ("pass1_target", pass1_t), ("fisher_p", fisher)):
        index = questions.column_names.index(name)
        questions = questions.set_column(
            index, name, pa.array(values, pa.float64(), mask=np.isnan(values))
        )
    for name in joined.column_names:
        if name not in _KEYS:
            questions = questions.append_column(name, joined.column(name))
    return questions, undecided


def adaptive_row(row: dict[str, Any], questions: pa.Table, n_first: int) -> dict[str, Any]:
    """A ``support.summary_row`` of ``adaptive_questions`` rows with pass@1 over the first N
    samples and pass@k null above N."""
    row = dict(row)
    row["pass@1"] = {
        role: float(
            np.mean(
                int_column(questions, f"cfirst_{role}") / int_column(questions, f"nfirst_{role}")
            )
        )
        for role in ("base", "target")
    }
    if row["k"] > n_first:
        row["pass@k"] = {"base": None, "target": None}
    names = [f"riskq_{r}" for r in ("base", "target") if f"riskq_{r}" in questions.column_names]
    stated = sum(
        (np.nan_to_num(questions.column(n).to_numpy(zero_copy_only=False)) for n in names),
        np.zeros(questions.num_rows),
    )
    if np.any(stated > 0):  # some pair stopped by --risk
        # a question is misclassified with probability <= min(1, q_base + q_target)
        row[MISCLASSIFIED_BOUND] = float(np.minimum(stated, 1.0).sum())
    return row


def adaptive_curve(questions: pa.Table, n_first: int, ks: Sequence[int] | None = None) -> pa.Table:
    """``budget_curves.budget_curve``'s columns for adaptive rows: at k <= N the estimator
    over the first N samples, above N exact counts from the first success (pass@k null)."""
    compared = compared_rows(questions)
    names = ["k", "passk_base", "passk_target", *CATEGORIES, *RATES]
    columns: dict[str, list] = {n: [] for n in names}
    if compared.num_rows:
        budget = int(int_column(compared, "k").min())
        budgets = curve_budgets(budget) if ks is None else sorted(set(ks))
        cols = {
            f"{what}_{role}": int_column(compared, f"{what}_{role}")
            for what in ("first", "nfirst", "cfirst")
            for role in ("base", "target")
        }
        for k in budgets:
            if k <= n_first:
                b = pass_at_ks(cols["nfirst_base"], cols["cfirst_base"], [k])[:, 0]
                t = pass_at_ks(cols["nfirst_target"], cols["cfirst_target"], [k])[:, 0]
                passk = (float(b.mean()), float(t.mean()))
                counts = expected_counts(b, t)
            else:
                b = ((cols["first_base"] >= 0) & (cols["first_base"] < k)).astype(np.float64)
                t = ((cols["first_target"] >= 0) & (cols["first_target"] < k)).astype(np.float64)
                passk = (None, None)
                counts = {key: float(round(v)) for key, v in expected_counts(b, t).items()}
            columns["k"].append(k)
            columns["passk_base"].append(passk[0])
            columns["passk_target"].append(passk[1])
            for key, value in {**counts, **support_rates(*counts.values())}.items():
                columns[key].append(value)
    return pa.table(
        {n: pa.array(v, pa.int64() if n == "k" else pa.float64()) for n, v in columns.items()}
    )


def adaptive_note(n_first: int) -> str:
    """What a report of an adaptive folder cannot give, in one sentence."""
    return (
        f"sampled adaptively (leash sample --adaptive, {n_first} samples per question, then"
        " until a verified success): P/E/S/O at every budget above"
        f" {n_first} are exact from the first success, and so is pass@k at the folder's own k"
        f" (whether one of its k samples succeeded); pass@k between {n_first} and that k would"
        f" need all k samples of every question and is shown as {chr(8211)}; pass@1, pass@k"
        f" up to {n_first} and the per-question test use the first {n_first} samples"
    )
