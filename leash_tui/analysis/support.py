"""Support dynamics maths: pass@k, P/E/S/O categories, rates, tests, curves, answer statistics.

Pure functions, no I/O. The definitions are those of the support-dynamics spec
(docs/support-dynamics.md, after Wu et al., arXiv 2507.14843): a question is in a
model's support at budget k when at least one of k samples is verified correct.
Only verified samples count: for a model and a question, n is the number of
verified samples and c the number verified correct.

Choices this module makes where the spec leaves room:
- Budget of one question: the requested k, else min(n_base, n_target).
- Category of one question: when k equals a model's n, in support iff c >= 1
  (exact). When the model has more samples than k its in-support state is a
  probability, pass@k; the question's *label* takes in-support iff pass@k >= 0.5.
  Summaries do not count labels: they report the expected counts (sums of
  pass@k products), which equal the exact counts when k equals every n.
- Budget of a summary scope (benchmark, domain, overall): the requested k, else
  the smallest per-question budget in the scope. P/E/S/O are ints when every
  question of the scope has exactly k verified samples for both models, else floats.
- Sign test at a budget below some n: S and E are the label counts.
- A question without any verified sample for a model has k = 0 and null pass@k,
  category and p-value; summaries leave it out (the caller says so to the user).
- Answers: a sample without an answer is in the class "NA"; all samples verified
  correct form ONE class (the verifier judged them all equal to the gold answer),
  shown under their most frequent answer string.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.bootstrap import bootstrap_intervals, data_seed
from leash_tui.analysis.estimators import binom_upper_bound, support_probability
from leash_tui.analysis.exact_tests import fisher_exact_two_sided, sign_test_two_sided
from leash_tui.analysis.pass_at_k import pass_at_k
from leash_tui.analysis.support_names import CATEGORIES, RATES
from sampler.store import DEFAULT_DOMAIN, question_keys

_CELLS_PER_CHUNK = 2_000_000

QUESTION_COLUMNS = (
    "benchmark",
    "question_id",
    "n_base",
    "c_base",
    "n_target",
    "c_target",
    "k",
    "pass1_base",
    "pass1_target",
    "passk_base",
    "passk_target",
    "category",
    "fisher_p",
    "losing_upper",
)


# -- per question -------------------------------------------------------------------
def _model_counts(counts: pa.Table, model: str) -> pa.Table:
    rows = counts.filter(pc.equal(counts.column("model"), model))
    return rows.select(["benchmark", "question_id", "n_verified", "n_correct"])


def missing_questions(counts: pa.Table, base: str, target: str) -> dict[str, list[tuple[str, str]]]:
    """Questions with samples of one model only: {model: [(benchmark, question_id), ...]}."""
    rows = {model: _model_counts(counts, model) for model in (base, target)}
    keys = {model: question_keys(table) for model, table in rows.items()}
    out = {}
    for model, other in ((base, target), (target, base)):
        alone = rows[model].filter(pc.invert(pc.is_in(keys[model], value_set=keys[other])))
        out[model] = sorted(
            set(
                zip(
                    alone.column("benchmark").cast(pa.string()).to_pylist(),
                    alone.column("question_id").cast(pa.string()).to_pylist(),
                    strict=True,
                )
            )
        )
    return out


def compare_questions(
    counts: pa.Table, base: str, target: str, k: int | None = None, tau: float = 0.0
) -> pa.Table:
    """One row per question with samples of both models (see QUESTION_COLUMNS).

    ``counts`` is ``ResultsFolder.verdict_counts()``. Rows sorted by (benchmark, question_id).
    ``k`` larger than a question's verified samples raises ValueError naming it.
    ``tau`` is the support threshold of the category (``in_support``).
    ``losing_upper``: for S and E questions, the one-sided 95% Clopper–Pearson upper bound
    of the losing side's success rate (the target's for S, the base's for E): how small
    its chance could be given what was seen ("0 of 8192": below 3.7e-4); null otherwise.
    """
    if k is not None and k < 1:
        raise ValueError("k must be at least 1")
    left = _model_counts(counts, base).rename_columns(
        ["benchmark", "question_id", "n_base", "c_base"]
    )
    right = _model_counts(counts, target).rename_columns(
        ["benchmark", "question_id", "n_target", "c_target"]
    )
    joined = left.join(right, keys=["benchmark", "question_id"], join_type="inner")
    joined = joined.take(
        pc.sort_indices(
            joined, sort_keys=[("benchmark", "ascending"), ("question_id", "ascending")]
        )
    )
    n_b = joined.column("n_base").to_numpy().astype(np.int64)
    c_b = joined.column("c_base").to_numpy().astype(np.int64)
    n_t = joined.column("n_target").to_numpy().astype(np.int64)
    c_t = joined.column("c_target").to_numpy().astype(np.int64)
    verified = (n_b > 0) & (n_t > 0)
    budget = np.minimum(n_b, n_t)
    if k is not None:
        too_big = verified & (budget < k)
        if too_big.any():
            i = int(np.flatnonzero(too_big)[0])
            where = f"{joined.column('benchmark')[i]}/{joined.column('question_id')[i]}"
            raise ValueError(
                f"k = {k} is larger than the verified samples of question {where}"
                f" ({base}: {n_b[i]}, {target}: {n_t[i]})"
            )
        budget = np.where(verified, k, 0)
    else:
        budget = np.where(verified, budget, 0)

    size = joined.num_rows
    pass1_b, pass1_t = np.full(size, np.nan), np.full(size, np.nan)
    passk_b, passk_t = np.full(size, np.nan), np.full(size, np.nan)
    fisher = np.full(size, np.nan)
    category = np.full(size, None, dtype=object)
    if verified.any():
        v = verified
        pass1_b[v], pass1_t[v] = c_b[v] / n_b[v], c_t[v] / n_t[v]
        passk_b[v] = pass_at_k(n_b[v], c_b[v], budget[v])
        passk_t[v] = pass_at_k(n_t[v], c_t[v], budget[v])
        in_b = in_support(n_b[v], c_b[v], budget[v], tau, passk_b[v])
        in_t = in_support(n_t[v], c_t[v], budget[v], tau, passk_t[v])
        category[v] = _labels(in_b >= 0.5, in_t >= 0.5)
        fisher[v] = fisher_exact_two_sided(c_b[v], n_b[v] - c_b[v], c_t[v], n_t[v] - c_t[v])
    losing = np.full(size, np.nan)
    shrunk, expanded = category == "S", category == "E"
    if shrunk.any():
        losing[shrunk] = _unique_upper(c_t[shrunk], n_t[shrunk])
    if expanded.any():
        losing[expanded] = _unique_upper(c_b[expanded], n_b[expanded])

    def floats(values: np.ndarray) -> pa.Array:
        return pa.array(values, pa.float64(), mask=np.isnan(values))

    return pa.table(
        {
            "benchmark": joined.column("benchmark"),
            "question_id": joined.column("question_id"),
            "n_base": pa.array(n_b),
            "c_base": pa.array(c_b),
            "n_target": pa.array(n_t),
            "c_target": pa.array(c_t),
            "k": pa.array(budget),
            "pass1_base": floats(pass1_b),
            "pass1_target": floats(pass1_t),
            "passk_base": floats(passk_b),
            "passk_target": floats(passk_t),
            "category": pa.array(category, pa.string()),
            "fisher_p": floats(fisher),
            "losing_upper": floats(losing),
        }
    )


def _unique_upper(c: np.ndarray, n: np.ndarray, level: float = 0.95) -> np.ndarray:
    """``binom_upper_bound`` computed once per distinct (c, n)."""
    pairs, inverse = np.unique(np.stack([c, n], axis=1), axis=0, return_inverse=True)
    return binom_upper_bound(pairs[:, 0], pairs[:, 1], level)[inverse.reshape(-1)]


def add_answer_columns(
    questions: pa.Table, answer_stats: pa.Table, base: str, target: str
) -> pa.Table:
    """``questions`` plus, for base and target, gold share and rank, answer and token entropy.

    ``answer_stats`` is ``answer_stats.question_answer_stats`` (all models). Adds
    gold_share_*, gold_rank_*, answer_entropy_* and token_entropy_* (mean over the
    question's samples) with * = base / target; null where the data is missing.
    """
    out = questions
    for role, model in (("base", base), ("target", target)):
        stats = answer_stats.filter(pc.equal(answer_stats.column("model"), model))
        token_n = stats.column("token_entropy_n")
        token_mean = pc.if_else(
            pc.greater(token_n, 0),
            pc.divide(stats.column("token_entropy_sum"), pc.cast(token_n, pa.float64())),
            pa.scalar(None, pa.float64()),
        )
        part = pa.table(
            {
                "benchmark": stats.column("benchmark"),
                "question_id": stats.column("question_id"),
                f"gold_share_{role}": stats.column("gold_share"),
                f"gold_rank_{role}": stats.column("gold_rank"),
                f"answer_entropy_{role}": stats.column("answer_entropy"),
                f"token_entropy_{role}": token_mean,
            }
        )
        out = out.join(part, keys=["benchmark", "question_id"], join_type="left outer")
    order = pc.sort_indices(
        out, sort_keys=[("benchmark", "ascending"), ("question_id", "ascending")]
    )
    return out.take(order)


def in_support(
    n: np.ndarray, c: np.ndarray, k: int | np.ndarray, tau: float = 0.0, passk=None
) -> np.ndarray:
    """Probability that each question is in the model's support at budget k, threshold τ.

    τ = 0 (the paper's rule, one success): pass@k. τ > 0: at least ⌈τ·k⌉ of k samples
    correct, P(X ≥ max(1, ⌈τ·k⌉)) with X hypergeometric (``estimators.support_probability``);
    at k = n this is 1 when c/n ≥ τ, else 0.
    """
    if tau == 0.0:
        return pass_at_k(n, c, k) if passk is None else passk
    return support_probability(n, c, k, tau)


def _labels(base_in: np.ndarray, target_in: np.ndarray) -> np.ndarray:
    p, e, s, o = CATEGORIES
    names = np.array([o, e, s, p], dtype=object)  # index = 2*base_in + target_in
    return names[2 * base_in.astype(np.int64) + target_in.astype(np.int64)]


# -- rates --------------------------------------------------------------------------
def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def support_rates(p: float, e: float, s: float, o: float) -> dict[str, float | None]:
    """SRR, NDR, SDS and NSCR from (possibly expected) counts; None where undefined.

    Notes (docs/support-dynamics.md):

    - SRR, support retention rate = P / (P + S)
    - NDR, net discovery rate = E / (P + E)
    - SDS, support dynamic score = 2·SRR·NDR / (SRR + NDR), the harmonic mean;
      0 when SRR + NDR = 0 and both are defined
    - NSCR, net support change rate = (E − S) / (P + E + S), in [−1, 1]

    A rate whose denominator is 0 is undefined (None, shown as a dash), never 0;
    O enters none of them.
    """
    srr = _ratio(p, p + s)
    ndr = _ratio(e, p + e)
    if srr is None or ndr is None:
        sds = None
    elif srr + ndr == 0:
        sds = 0.0
    else:
        sds = 2 * srr * ndr / (srr + ndr)
    return dict(zip(RATES, (srr, ndr, sds, _ratio(e - s, p + e + s)), strict=True))


def expected_counts(b: np.ndarray, t: np.ndarray) -> dict[str, float]:
    """Expected P/E/S/O given per-question in-support probabilities of base and target.

    With b_i, t_i the probabilities that question i is in the base's and the target's
    support (pass@k): P = Σ b_i·t_i, E = Σ (1 − b_i)·t_i, S = Σ b_i·(1 − t_i),
    O = Σ (1 − b_i)·(1 − t_i). They are the exact counts when every b_i, t_i is 0 or 1.
    """
    return {
        "P": float(np.sum(b * t)),
        "E": float(np.sum((1 - b) * t)),
        "S": float(np.sum(b * (1 - t))),
        "O": float(np.sum((1 - b) * (1 - t))),
    }


# -- summaries ----------------------------------------------------------------------
def compared_rows(questions: pa.Table) -> pa.Table:
    """The questions with a category (both models have verified samples)."""
    return questions.filter(pc.is_valid(questions.column("category")))


def int_column(table: pa.Table, name: str) -> np.ndarray:
    return table.column(name).to_numpy().astype(np.int64)


def _scope_budget(questions: pa.Table, k: int | None) -> int:
    per_question = int_column(questions, "k")
    n_base, n_target = int_column(questions, "n_base"), int_column(questions, "n_target")
    smallest = int(np.minimum(n_base, n_target).min())
    budget = int(per_question.min()) if k is None else k
    if budget > smallest:
        raise ValueError(
            f"k = {budget} is larger than the smallest verified sample count {smallest}"
        )
    return budget


def summary_row(
    questions: pa.Table,
    scope: str,
    name: str,
    base: str,
    target: str,
    k: int | None = None,
    entropies: Mapping[str, pa.Table] | None = None,
    tau: float = 0.0,
) -> dict[str, Any]:
    """One row of docs/interchange.md section 2 for the (already compared) questions of a scope.

    ``tau`` > 0 counts support at that threshold (``in_support``; the row says
    ``support_threshold``).
    """
    budget = _scope_budget(questions, k)
    n_b, c_b = int_column(questions, "n_base"), int_column(questions, "c_base")
    n_t, c_t = int_column(questions, "n_target"), int_column(questions, "c_target")
    passk_b = pass_at_k(n_b, c_b, budget)
    passk_t = pass_at_k(n_t, c_t, budget)
    b = in_support(n_b, c_b, budget, tau, passk_b)
    t = in_support(n_t, c_t, budget, tau, passk_t)
    counts: dict[str, Any] = expected_counts(b, t)
    if bool(((n_b == budget) & (n_t == budget)).all()):
        counts = {key: round(value) for key, value in counts.items()}
    labels = _labels(b >= 0.5, t >= 0.5)
    sign_p = float(sign_test_two_sided(int((labels == "S").sum()), int((labels == "E").sum()))[0])
    row: dict[str, Any] = {
        "scope": scope,
        "name": name,
        "base": base,
        "target": target,
        "k": budget,
        "N": questions.num_rows,
        **counts,
        **support_rates(counts["P"], counts["E"], counts["S"], counts["O"]),
        "pass@1": {"base": float(np.mean(c_b / n_b)), "target": float(np.mean(c_t / n_t))},
        "pass@k": {"base": float(np.mean(passk_b)), "target": float(np.mean(passk_t))},
        "sign_test_p": None if math.isnan(sign_p) else sign_p,
        "token_entropy": {"base": None, "target": None},
        "answer_entropy": {"base": None, "target": None},
    }
    if tau:
        row["support_threshold"] = tau
    if entropies:
        for role, model in (("base", base), ("target", target)):
            if model in entropies:
                token, answer = scope_entropies(questions, entropies[model], role)
                row["token_entropy"][role] = token
                # over one sample per question every answer entropy is 0: no measure
                one = bool((n_b if role == "base" else n_t).max() <= 1)
                row["answer_entropy"][role] = None if one else answer
    return row


def scope_intervals(
    questions: pa.Table,
    budget: int,
    tau: float = 0.0,
    resamples: int = 2000,
    level: float = 0.95,
    memo: MutableMapping | None = None,
) -> dict[str, Any]:
    """A row's ``ci``: {"level", "resamples", then [lo, hi] or None per statistic}.

    The paired percentile bootstrap of ``analysis.bootstrap`` over the questions of a
    scope at the row's budget and support threshold, each benchmark resampled within
    itself, seeded by the budget, threshold and a hash of each benchmark's per-question
    values (two readers, one interval); ``memo`` (one mapping for the rows of a report)
    lets a domain or overall row reuse its benchmarks' resamples.
    """
    n_b, c_b = int_column(questions, "n_base"), int_column(questions, "c_base")
    n_t, c_t = int_column(questions, "n_target"), int_column(questions, "c_target")
    passk_b, passk_t = pass_at_k(n_b, c_b, budget), pass_at_k(n_t, c_t, budget)
    b = in_support(n_b, c_b, budget, tau, passk_b)
    t = in_support(n_t, c_t, budget, tau, passk_t)
    bench = questions.column("benchmark").to_numpy(zero_copy_only=False)
    seed = data_seed(extra=(budget, tau, resamples))
    drawn = bootstrap_intervals(
        b, t, c_b / n_b, c_t / n_t, bench, resamples, level, seed, passk_b, passk_t, memo
    )
    return {"level": level, **drawn_fields(drawn, resamples), **drawn.ci}


def drawn_fields(drawn: Any, resamples: int) -> dict[str, Any]:
    """``resamples`` drawn (at most the asked) and ``mc_error``: the largest Monte Carlo
    standard error of an interval end as a share of its half-width."""
    return {"resamples": drawn.resamples or resamples, "mc_error": round(drawn.mc_error, 4)}


ENTROPY_FIELDS = ("token_entropy_sum", "token_entropy_n", "answer_entropy")


def _entropy_column(role: str, field: str) -> str:
    return f"{role}.{field}"


def with_entropies(
    questions: pa.Table, entropies: Mapping[str, pa.Table] | None, models: Mapping[str, str]
) -> pa.Table:
    """``questions`` with the per-question entropy stats of each role's model (``models``:
    role -> model) as columns ``<role>.<field>`` (null where the model has none): looked
    up once for a pair, so each scope's row sums its own rows (scope_entropies) instead
    of joining every model's stats again (a fifth of a second at 49k questions)."""
    if not entropies or questions.num_rows == 0:
        return questions
    keys = question_keys(questions)
    for role, model in models.items():
        stats = entropies.get(model)
        if stats is None:
            continue
        at = pc.index_in(keys, value_set=question_keys(stats))
        for field in ENTROPY_FIELDS:
            column = stats.column(field).combine_chunks()
            questions = questions.append_column(_entropy_column(role, field), column.take(at))
    return questions


def scope_entropies(
    questions: pa.Table, stats: pa.Table | None, role: str | None = None
) -> tuple[float | None, float | None]:
    """(token entropy, answer entropy) of one model over the questions of a scope.

    ``stats`` has one row per question (benchmark, question_id, token_entropy_sum,
    token_entropy_n, answer_entropy), as ``answer_stats.question_answer_stats`` makes
    it; when ``questions`` already holds them for ``role`` (with_entropies), those
    columns are read instead. Token entropy is the mean over samples; answer entropy
    the mean over questions.
    """
    if role is not None and _entropy_column(role, "token_entropy_n") in questions.column_names:
        joined = questions.select([_entropy_column(role, f) for f in ENTROPY_FIELDS])
        joined = joined.rename_columns(list(ENTROPY_FIELDS))  # nulls: no stats (skipped)
    elif stats is not None:
        keys = questions.select(["benchmark", "question_id"])
        joined = keys.join(stats, keys=["benchmark", "question_id"], join_type="inner")
    else:
        return None, None
    token_n = float(pc.sum(joined.column("token_entropy_n")).as_py() or 0)
    token = None
    if token_n > 0:
        token = float(pc.sum(joined.column("token_entropy_sum")).as_py()) / token_n
    answer_mean = pc.mean(joined.column("answer_entropy")).as_py() if joined.num_rows else None
    return token, None if answer_mean is None else float(answer_mean)


def summary_rows(
    questions: pa.Table,
    domains: Mapping[str, str],
    base: str,
    target: str,
    k: int | None = None,
    entropies: Mapping[str, pa.Table] | None = None,
    tau: float = 0.0,
) -> list[dict[str, Any]]:
    """Rows per benchmark, then per domain, then overall (docs/interchange.md section 2).

    ``questions`` is ``compare_questions(...)``; questions without a category are
    left out. ``domains`` maps benchmark -> domain (see scope_tables for the order).
    ``entropies`` maps a model name to its per-question stats (see scope_entropies).
    """
    return [
        summary_row(looked_up, scope, name, base, target, k, entropies, tau)
        for scope, name, looked_up, _ in pair_scopes(questions, domains, entropies, base, target)
    ]


def pair_scopes(
    questions: pa.Table,
    domains: Mapping[str, str],
    entropies: Mapping[str, pa.Table] | None,
    base: str,
    target: str,
) -> list[tuple[str, str, pa.Table, pa.Table]]:
    """scope_tables of a pair's ``questions`` as (scope, name, the part with the pair's
    entropy columns for summary_row (with_entropies, looked up once), the part as given)."""
    columns = questions.column_names
    looked_up = with_entropies(questions, entropies, {"base": base, "target": target})
    return [
        (scope, name, part, part.select(columns))
        for scope, name, part in scope_tables(looked_up, domains)
    ]


def scope_tables(
    questions: pa.Table, domains: Mapping[str, str]
) -> list[tuple[str, str, pa.Table]]:
    """(scope, name, questions of the scope) for each benchmark, then domain, then overall.

    Only questions with a category count. Benchmarks come in the order of ``domains``
    (then by name); domains in the order of their first benchmark; a benchmark not in
    ``domains`` is in domain "math".
    """
    compared = compared_rows(questions)
    if compared.num_rows == 0:
        return []
    present = set(compared.column("benchmark").to_pylist())
    order = [b for b in domains if b in present] + sorted(present - set(domains))
    bench_col = compared.column("benchmark")
    out = [("benchmark", b, compared.filter(pc.equal(bench_col, b))) for b in order]
    domain_of = {b: domains.get(b, DEFAULT_DOMAIN) for b in order}
    for domain in dict.fromkeys(domain_of.values()):
        members = pa.array([b for b in order if domain_of[b] == domain], pa.string())
        out.append(("domain", domain, compared.filter(pc.is_in(bench_col, members))))
    out.append(("overall", "overall", compared))
    return out
