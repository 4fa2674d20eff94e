"""What every number of an adaptive pair's report comes from, or why it is refused.

An adaptive run (``leash sample --adaptive``) draws every (model, question) its first N
samples, then draws on only until a verified success. Its samples 0 .. drawn-1 are the
full run's, so the report takes each statistic

- from the first N samples of every (model, question): pass@1, pass@k and P/E/S/O at
  k <= N, the estimators (``--estimate-k`` k <= N), the forecast's fit (``--forecast``),
  answer entropy when ``--entropy-samples`` <= N, and the intervals' pass@1;
- from the first-success index, where that is exact: P/E/S/O at every budget, and pass@k
  at the folder's own k ((P+S)/N for the base: at k = all samples, pass@k is whether
  one of them succeeded), with its interval;
- or refuses it, with a note or a one-line error that says why: pass@k at N < k < the
  folder's k (the full run's estimator needs all its samples), estimators at k > N, the
  threshold curve (a support threshold needs the success rate over all k samples), token
  entropy, distinct answers and maj@n (over every drawn sample, more of them on hard
  questions), answer entropy with ``--entropy-samples`` > N.

With ``--risk DELTA`` a pair may also stop without a success at a round d >= N: the
first-N numbers are untouched, it counts out of support at every budget above d (P/E/S/O
there and pass@k at the folder's k are exact but for those pairs), and the summary row
carries ``misclassified_bound``, the stated bound on the expected number of questions
misclassified (``analysis.adaptive_support``; ``report.adaptive_pair.risk_note`` says so).

``report.build`` calls these on the pairs that ``report.adaptive_pair`` finds adaptive.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from leash_tui.analysis.bootstrap import bootstrap_intervals, data_seed
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support import drawn_fields, int_column
from sampler.errors import LeashError

Scope = tuple[dict[str, Any], pa.Table]
_FIRST = {"n_base": "nfirst_base", "c_base": "cfirst_base"}
_FIRST |= {"n_target": "nfirst_target", "c_target": "cfirst_target"}


def adaptive_summary(
    row: dict[str, Any],
    full_k: int,
    adaptive_models: Sequence[str],
    n_first: int,
    entropy_samples: int,
) -> dict[str, Any]:
    """``row`` (already ``adaptive_row``) with pass@k at the folder's own k kept (exact)
    and the entropies of the adaptive models nulled where they are not first-N numbers."""
    row = dict(row)
    if row["k"] == full_k and row["pass@k"]["base"] is None:
        n = row["N"]
        row["pass@k"] = {"base": (row["P"] + row["S"]) / n, "target": (row["P"] + row["E"]) / n}
    row["token_entropy"] = dict(row["token_entropy"])
    row["answer_entropy"] = dict(row["answer_entropy"])
    for role in ("base", "target"):
        if row[role] in adaptive_models:
            row["token_entropy"][role] = None
            if entropy_samples > n_first:
                row["answer_entropy"][role] = None
    return row


def adaptive_intervals(
    part: pa.Table,
    row: dict[str, Any],
    resamples: int,
    level: float,
    memo: MutableMapping | None = None,
) -> dict[str, Any]:
    """A row's ``ci`` for an adaptive pair: support from ``adaptive_questions``'s counts at
    the row's budget (exact above N), pass@1 from the first N samples; no pass@k interval
    where the row has no pass@k."""
    k = row["k"]
    n_b, c_b = int_column(part, "n_base"), int_column(part, "c_base")
    n_t, c_t = int_column(part, "n_target"), int_column(part, "c_target")
    b, t = pass_at_k(n_b, c_b, k), pass_at_k(n_t, c_t, k)
    p1_b = int_column(part, "cfirst_base") / int_column(part, "nfirst_base")
    p1_t = int_column(part, "cfirst_target") / int_column(part, "nfirst_target")
    bench = part.column("benchmark").to_numpy(zero_copy_only=False)
    seed = data_seed(extra=(k, 0.0, resamples))
    drawn = bootstrap_intervals(b, t, p1_b, p1_t, bench, resamples, level, seed, b, t, memo)
    ci = drawn.ci
    if row["pass@k"]["base"] is None:
        for name in ("pass@k_base", "pass@k_target", "pass@k_diff"):
            ci[name] = None
    return {"level": level, **drawn_fields(drawn, resamples), **ci}


def first_n_part(part: pa.Table, n_first: int) -> pa.Table:
    """``part`` with the counts of the first N samples in n_* / c_* and k = N."""
    out = part
    for name, source in _FIRST.items():
        out = out.set_column(out.column_names.index(name), name, out.column(source))
    return out.set_column(
        out.column_names.index("k"), "k", pa.array(np.full(part.num_rows, n_first))
    )


def block_scopes(
    scopes: Sequence[Scope],
    firsts: Sequence[int | None],
    estimate_ks: Sequence[int],
    threshold_curve: bool,
) -> list[Scope]:
    """The scopes the estimators and the forecast read: an adaptive pair's with the counts
    of its first N samples; LeashError for an estimator budget above N or a threshold curve."""
    out = []
    for (row, part), n_first in zip(scopes, firsts, strict=True):
        if n_first is None:
            out.append((row, part))
            continue
        pair = f"{row['base']} vs {row['target']}"
        if threshold_curve:
            raise LeashError(
                f"--threshold-curve: {pair} was sampled adaptively; a support threshold needs"
                " each question's success rate over all k samples, which were not drawn"
            )
        too_big = [k for k in estimate_ks if k > n_first]
        if too_big:
            raise LeashError(
                f"--estimate-k {too_big[0]}: {pair} was sampled adaptively; the estimators use"
                f" the first {n_first} samples of every question (the later ones were drawn only"
                f" until a success), so k must be at most {n_first}"
            )
        first = first_n_part(part, n_first)
        measured = {
            role: float(pass_at_k(int_column(first, f"n_{role}"), int_column(first, f"c_{role}"),
                                  n_first).mean())
            for role in ("base", "target")
        }  # fmt: skip
        out.append(({**row, "k": n_first, "pass@k": measured}, first))
    return out


def drop_all_sample_stats(rows: list[dict[str, Any]], adaptive_models: Sequence[str]) -> None:
    """Null distinct answers and maj@n (over every drawn sample) of the adaptive models in
    the estimator rows (in place)."""
    for entry in rows:
        for role in ("base", "target"):
            if entry[role] in adaptive_models:
                for key in ("distinct_answers", "maj@n"):
                    entry[key] = {**entry[key], role: None}


def adaptive_rule_note(n_first: int, entropy_samples: int) -> str:
    """What the rules left out of an adaptive pair, in one sentence."""
    answer = (
        f"answer entropy (over the first {entropy_samples} samples: give --entropy-samples"
        f" {n_first} or fewer)"
        if entropy_samples > n_first
        else None
    )
    left = [
        "token entropy, distinct answers and maj@n (over every drawn sample, more of them"
        " on hard questions)",
        *([answer] if answer else []),
    ]
    return (
        f"of the adaptive models, not shown ({chr(8211)}): {'; '.join(left)}; the forecast"
        f" and the estimators use the first {n_first} samples of every question"
    )
