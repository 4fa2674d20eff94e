"""Turn a folder's counts into report rows: pick the pairs, check verification, compute.

Every target of the manifest (or those asked for) is compared with the base.
Samples not yet verified are not counted, and the report says how many there are;
a question with no verified sample for a model of a pair makes the report refuse,
unless ``allow_partial``, which leaves such questions out and says which. Questions
sampled for only one model of a pair are left out of that pair and named. When samples
carry imported source verdicts, how often leash's verdict differs from the source's is
given per model (notes, and the optional ``grading_agreement`` field of the JSON).
When some verdicts are trusted source verdicts (``leash import --trust-verdicts``:
questions without a gold, graded by the source tool, not by leash), every row says on
how many of its questions each model's verdicts rest on them
(``trusted_source_verdicts``), and a note says so.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.adaptive_support import adaptive_curve, adaptive_row
from leash_tui.analysis.answer_stats import model_stats
from leash_tui.analysis.budget_curves import budget_curve
from leash_tui.analysis.grading_agreement import agreement_by_model, agreement_notes
from leash_tui.analysis.loss_audit import format_effect_notes
from leash_tui.analysis.perplexity_summary import perplexity_rows
from leash_tui.analysis.series import find_series, parse_checkpoint
from leash_tui.analysis.support import (
    compare_questions,
    missing_questions,
    pair_scopes,
    scope_intervals,
    summary_row,
)
from leash_tui.analysis.support_names import CATEGORIES, RATES
from leash_tui.analysis.token_entropy_kind import prefer_exact
from leash_tui.report import adaptive_rules as rules
from leash_tui.report.adaptive_pair import adaptive_first_n, adaptive_pair, pair_budget
from leash_tui.report.blocks import (
    Block,
    estimate_block,
    forecast_block,
    guessing_block,
    threshold_block,
)
from leash_tui.report.data import ReportData
from leash_tui.report.rule_section import rule_rows
from sampler.errors import LeashError
from sampler.store import MANIFEST_FILE
from sampler.verify.identity import grader_note

REPORT_FORMAT = "leash-report/1"
_LISTED = 5  # questions named in a note before "and N more"


@dataclass
class Report:
    """Rows of docs/interchange.md section 2 (grouped by target), curves, and notes for the user."""

    base: str
    targets: list[str]
    rows: list[dict[str, Any]]
    curves: list[list[dict[str, Any]]] | None = None  # one curve per row, when asked
    notes: list[str] = field(default_factory=list)
    #: per reported model with source verdicts: grading_agreement.agreement_by_model rows
    grading_agreement: list[dict[str, Any]] = field(default_factory=list)
    #: training series (targets named NAME@STEP): rows like ``rows`` plus ``series`` and
    #: ``step``, per series, then per scope, in step order; step 0 is the base against
    #: itself (P = the base's support, E = S = 0)
    series_rows: list[dict[str, Any]] = field(default_factory=list)
    series_curves: list[list[dict[str, Any]]] | None = None  # one per series row, when asked
    #: analysis.perplexity rows of every target (``leash perplexity`` results)
    perplexity: list[dict[str, Any]] = field(default_factory=list)
    #: confidence parameter of the ε bound the human-readable formats state (--zeta)
    zeta: float = 0.05
    #: optional parts (estimators, forecast, guessing), in order: report.blocks
    blocks: list[Block] = field(default_factory=list)
    #: per target, the answers each extraction rule found: report.rule_section
    answer_rules: list[dict[str, Any]] = field(default_factory=list)

    def series_names(self) -> list[str]:
        """The series of the report, in order."""
        return list(dict.fromkeys(row["series"] for row in self.series_rows))

    def series_of(self, name: str) -> list[tuple[dict[str, Any], list[dict[str, Any]] | None]]:
        """(row, curve or None) of one series, in report order."""
        curves = self.series_curves or [None] * len(self.series_rows)
        pairs = zip(self.series_rows, curves, strict=True)
        return [(r, c) for r, c in pairs if r["series"] == name]

    def rows_of(self, target: str) -> list[tuple[dict[str, Any], list[dict[str, Any]] | None]]:
        """(row, curve or None) of one target, in report order."""
        curves = self.curves or [None] * len(self.rows)
        return [(r, c) for r, c in zip(self.rows, curves, strict=True) if r["target"] == target]


def _listing(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _choose_models(
    data: ReportData, wanted: Sequence[str], base_name: str | None = None
) -> tuple[str, list[str], list[str]]:
    """(base, targets to report, notes); LeashError when the choice is impossible.

    ``base_name`` (``--base``) makes any model of the folder the base of the comparison,
    and every other model (the manifest's base included) a target, so that two
    checkpoints can be compared head to head."""
    manifest, notes = data.manifest, []
    where = data.root / MANIFEST_FILE
    sampled = set(data.counts.column("model").to_pylist())
    if base_name is not None:
        names = [m.name for m in manifest.models]
        if base_name not in names:
            raise LeashError(f"--base {base_name}: no such model in {where} ({', '.join(names)})")
        base = base_name
        targets = [n for n in names if n != base]
    else:
        if manifest.base is None:
            raise LeashError(
                f"{where}: no model has role 'base'; a report compares targets to a base"
            )
        base = manifest.base.name
        targets = [m.name for m in manifest.targets]
    if base not in sampled:
        raise LeashError(f"{data.root}: the base model {base!r} has no samples yet")
    for name in wanted:
        if name == base:
            raise LeashError(f"--target {name}: that is the base model; name a target")
        if name not in targets:
            choices = ", ".join(targets) or "none"
            raise LeashError(f"--target {name}: no such target in {where} (targets: {choices})")
        if name not in sampled:
            raise LeashError(f"--target {name}: the model has no samples yet in {data.root}")
    if wanted:
        return base, list(dict.fromkeys(wanted)), notes
    chosen = [t for t in targets if t in sampled]
    for t in targets:
        if t not in sampled:
            notes.append(f"target {t} has no samples yet; left out")
    if not chosen:
        raise LeashError(f"{where}: no target model with samples to compare with {base!r}")
    return base, chosen, notes


def single_model(data: ReportData, wanted: Sequence[str], base_name: str | None) -> str | None:
    """The folder's one sampled model when there is nothing to compare it with: it is the
    base (``--base``, else the manifest's) or the manifest's only model, no other model has
    samples, and no --target asks for one; None otherwise."""
    sampled = set(data.counts.column("model").to_pylist())
    if wanted or len(sampled) != 1:
        return None
    (model,) = sampled
    manifest = data.manifest
    base = base_name or (manifest.base.name if manifest.base else None)
    return model if model == base or [m.name for m in manifest.models] == [model] else None


def _without_gold_less(data: ReportData) -> tuple[ReportData, list[str]]:
    """``data`` without the questions that have no gold (every sample ``no_gold``), and
    their names: nothing was graded, so they are in no category."""
    counts = data.counts
    if "n_no_gold" not in counts.column_names or not counts.num_rows:
        return data, []
    n_gold_less = counts.column("n_no_gold").to_numpy()
    gold_less = (n_gold_less > 0) & (n_gold_less == counts.column("n").to_numpy())
    if not gold_less.any():
        return data, []
    keys = sorted(
        set(
            zip(
                counts.column("benchmark").to_numpy(zero_copy_only=False)[gold_less].tolist(),
                counts.column("question_id").to_numpy(zero_copy_only=False)[gold_less].tolist(),
                strict=True,
            )
        )
    )
    marked = pa.array([f"{b}\x1f{q}" for b, q in keys], pa.string())
    joined = pc.binary_join_element_wise(
        counts.column("benchmark"), counts.column("question_id"), "\x1f"
    )
    kept = counts.filter(pc.invert(pc.is_in(joined, marked)))
    return replace(data, counts=kept), [f"{b}/{q}" for b, q in keys]


def _unverified_note(counts: pa.Table, models: Sequence[str]) -> str | None:
    parts, total = [], 0
    for model in models:
        rows = counts.filter(pc.equal(counts.column("model"), model))
        missing = int(pc.sum(pc.subtract(rows.column("n"), rows.column("n_verified"))).as_py() or 0)
        if missing:
            parts.append(f"{model}: {missing:,}")
            total += missing
    if not total:
        return None
    return (
        f"{total:,} samples are not verified yet ({', '.join(parts)}); they are counted"
        " neither right nor wrong (run `leash verify` to include them)"
    )


def build_report(
    data: ReportData,
    targets: Sequence[str] = (),
    k: int | None = None,
    allow_partial: bool = False,
    curves: bool = False,
    base: str | None = None,
    zeta: float = 0.05,
    tau: float = 0.0,
    bootstrap: int = 0,
    level: float = 0.95,
    estimate_ks: Sequence[int] = (),
    g_tau: float = 0.5,
    forecast: int | None = None,
    threshold_curve: bool = False,
    resamples: MutableMapping | None = None,
) -> Report:
    """Compare each chosen target with the base (``base``: any model of the folder, else the
    manifest's); raise LeashError on what cannot be reported.

    ``tau``: support threshold (0: one success); ``bootstrap`` resamples (0: no
    intervals) at confidence ``level`` (analysis.support.summary_row); ``estimate_ks``
    the budgets of the estimators block (G-Pass at ``g_tau``); ``forecast`` the K of the
    forecast block; ``threshold_curve`` adds P/E/S/O against τ (report.blocks);
    ``resamples``: where the bootstrap keeps each benchmark's resample sums (a
    resample_cache.ResampleCache keeps them between reports; default: this report only).
    """
    explicit = base is not None and (data.manifest.base is None or base != data.manifest.base.name)
    base, chosen, notes = _choose_models(data, targets, base)
    data, no_gold = _without_gold_less(data)
    trusted = trusted_questions(data.counts, [base, *chosen])
    notes += _folder_notes(data, base, chosen, no_gold, trusted)
    entropies, kinds = _entropies(data, [base, *chosen])
    note = _entropy_kind_note(kinds)
    if note:
        notes.append(note)
    # the bootstrap's resamples of each benchmark, shared by its rows
    memo: MutableMapping = resamples if resamples is not None else {}
    ask = _Asked(k, tau, bootstrap, level, allow_partial, curves, memo)
    built = _Built()
    for target in chosen:
        _compare_target(data, base, target, entropies, kinds, trusted, ask, built, notes)
    if built.unverified:
        detail = f"{len(built.unverified)} question(s) have no verified sample for a model: "
        detail += _listing(built.unverified)
        if not allow_partial:
            raise LeashError(
                f"{detail}. Run `leash verify` first, or pass --allow-partial to leave them out"
            )
        notes.append(f"{detail}; left out (--allow-partial)")
    if not built.rows:
        raise LeashError(f"{data.root}: no question has verified samples of both models to compare")
    agreement = _agreement(data, [base, *chosen], notes)
    first_scopes = rules.block_scopes(built.scopes, built.firsts, estimate_ks, threshold_curve)
    blocks = _blocks(data, first_scopes, estimate_ks, g_tau, forecast, zeta)
    if threshold_curve:
        blocks.insert(0, threshold_block(built.scopes))
    if any(n is not None for n in built.firsts):
        for block in (b for b in blocks if b.key == "estimates"):
            rules.drop_all_sample_stats(block.rows, list(data.adaptive_min_samples))
        first_n = min(n for n in built.firsts if n)
        notes.append(rules.adaptive_rule_note(first_n, data.entropy_samples))
    series_rows, series_curves = (
        ([], []) if explicit else _series_rows(data, base, chosen, k, entropies, kinds, curves, tau)
    )  # a series runs from the manifest's base: with another --base there is none
    return Report(
        base,
        chosen,
        built.rows,
        built.curves if curves else None,
        notes,
        agreement,
        series_rows,
        series_curves if curves else None,
        built.perplexity,
        zeta,
        blocks,
        rule_rows(data.rules, data.counts, base, chosen),
    )


@dataclass(frozen=True)
class _Asked:
    """The options of ``build_report`` that shape each pair's rows."""

    k: int | None
    tau: float
    bootstrap: int
    level: float
    allow_partial: bool
    curves: bool
    memo: MutableMapping


@dataclass
class _Built:
    """What the pairs of a report add up to: rows, curves, perplexity, scopes."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    curves: list[list[dict[str, Any]]] = field(default_factory=list)
    perplexity: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    scopes: list[tuple[dict[str, Any], pa.Table]] = field(default_factory=list)
    firsts: list[int | None] = field(default_factory=list)  # N of an adaptive pair's scope


def _folder_notes(
    data: ReportData,
    base: str,
    chosen: Sequence[str],
    no_gold: list[str],
    trusted: dict[str, set[tuple[str, str]]],
) -> list[str]:
    """The notes on the folder as a whole: gold-less questions, coverage, grading, answer
    rules, trusted verdicts and samples not verified yet."""
    notes = []
    if no_gold:
        notes.append(
            f"{len(no_gold)} question(s) have no gold answer (status no_gold), left out of"
            f" P/E/S/O: {_listing(no_gold)}"
        )
    notes += data.coverage
    graded_by = grader_note(data.manifest.verification)
    if graded_by:
        notes.append(graded_by)
    notes += format_effect_notes(data.counts, data.rules, base, chosen)
    if data.rules_skipped is not None:
        notes.append(
            f"the rules that found the answers were not compared over {data.rules_skipped:,}"
            " samples (a read of every shard); `leash info` compares them"
        )
    if trusted:
        notes.append(_trusted_note(trusted))
    note = _unverified_note(data.counts, [base, *chosen])
    if note:
        notes.append(note)
    return notes


def _entropies(
    data: ReportData, models: Sequence[str]
) -> tuple[dict[str, pa.Table], dict[str, str | None]]:
    """Per model, its per-question entropies (exact where measured) and their kind."""
    entropies, kinds = {}, {}
    for m in models:
        entropies[m], kinds[m] = prefer_exact(
            model_stats(data.answer_stats, m), data.exact_entropy, m
        )
    return entropies, kinds


def _compare_target(
    data: ReportData,
    base: str,
    target: str,
    entropies: dict[str, pa.Table],
    kinds: dict[str, str | None],
    trusted: dict[str, set[tuple[str, str]]],
    ask: _Asked,
    built: _Built,
    notes: list[str],
) -> None:
    """The rows (curves, perplexity) of base vs ``target`` added to ``built``."""
    questions, budget, n_first = _pair_questions(
        data, base, target, ask.k, ask.tau, ask.allow_partial, notes
    )
    for model, keys in missing_questions(data.counts, base, target).items():
        if keys:
            names = [f"{b}/{q}" for b, q in keys]
            notes.append(
                f"{len(keys)} question(s) have samples of {model} only, left out of"
                f" {base} vs {target}: {_listing(names)}"
            )
    if n_first is None:  # an adaptive pair refused or noted its undecided questions
        built.unverified += _unverified_questions(questions, base, target)
    domains = data.domains()
    if data.perplexity is not None and data.perplexity.num_rows:
        built.perplexity += perplexity_rows(data.perplexity, questions, domains, base, target)
    checkpoint = parse_checkpoint(target)
    for scope, name, looked_up, part in pair_scopes(questions, domains, entropies, base, target):
        row = summary_row(looked_up, scope, name, base, target, budget, entropies, ask.tau)
        if n_first is not None:
            row = adaptive_row(row, part, n_first)
            row = rules.adaptive_summary(
                row, pair_budget(data, base, target), list(data.adaptive_min_samples),
                n_first, data.entropy_samples,
            )  # fmt: skip
        row["token_entropy_kind"] = _kinds(row, kinds)
        if ask.bootstrap and n_first is not None:
            row["ci"] = rules.adaptive_intervals(part, row, ask.bootstrap, ask.level, ask.memo)
        elif ask.bootstrap:
            row["ci"] = scope_intervals(part, row["k"], ask.tau, ask.bootstrap, ask.level, ask.memo)
        if trusted:
            row["trusted_source_verdicts"] = trusted_counts(part, trusted, base, target)
        if checkpoint is not None:
            row["series"], row["step"] = checkpoint
        built.rows.append(row)
        built.scopes.append((row, part))
        built.firsts.append(n_first)
        if ask.curves:
            built.curves.append(_curve_points(part, ask.tau, n_first))


def _agreement(data: ReportData, models: list[str], notes: list[str]) -> list[dict[str, Any]]:
    """Per reported model with source verdicts, how often leash's verdict differs."""
    if data.agreement is None:
        return []
    agreement = [r for r in agreement_by_model(data.agreement) if r["model"] in models]
    agreement.sort(key=lambda r: models.index(r["model"]))
    notes += agreement_notes(data.agreement, models)
    return agreement


def _blocks(
    data: ReportData,
    scopes: list[tuple[dict[str, Any], pa.Table]],
    estimate_ks: Sequence[int],
    g_tau: float,
    forecast: int | None,
    zeta: float,
) -> list[Block]:
    """The optional parts asked for (estimators, forecast) and guessing when it applies."""
    blocks = []
    if estimate_ks:
        blocks.append(estimate_block(scopes, estimate_ks, g_tau, data.answer_stats))
    if forecast is not None:
        blocks.append(forecast_block(scopes, forecast))
    verifiers = {b.name: b.verifier for b in data.manifest.benchmarks}
    guessing = guessing_block(scopes, verifiers, data.questions, zeta)
    if guessing is not None:
        blocks.append(guessing)
    return blocks


def _pair_questions(
    data: ReportData,
    base: str,
    target: str,
    k: int | None,
    tau: float,
    allow_partial: bool,
    notes: list[str],
) -> tuple[pa.Table, int | None, int | None]:
    """(per-question table, budget, N of an adaptive pair or None) of base vs target."""
    n_first = adaptive_first_n(data, base, target)
    if n_first is not None:  # sampled with --adaptive: exact support from first successes
        if tau:
            raise LeashError(
                f"{base} vs {target} was sampled adaptively: a support threshold needs each"
                " question's success rate over all k samples, which were not drawn"
            )
        questions, budget = adaptive_pair(data, base, target, k, n_first, allow_partial, notes)
        return questions, budget, n_first
    try:
        return compare_questions(data.counts, base, target, k, tau), k, None
    except ValueError as exc:
        raise LeashError(f"--k {k}: {exc}") from None


def _series_rows(
    data: ReportData,
    base: str,
    targets: Sequence[str],
    k: int | None,
    entropies: dict[str, pa.Table],
    kinds: dict[str, str | None],
    curves: bool,
    tau: float = 0.0,
) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Rows (and curves) of every training series among ``targets``: per series, per scope
    (benchmarks, domains, overall), one row per step in step order, the base as step 0."""
    try:
        series = find_series(targets)
    except ValueError as exc:
        raise LeashError(f"{data.root / MANIFEST_FILE}: {exc}") from None
    domains = data.domains()
    trusted = trusted_questions(data.counts, [base, *targets])
    rows: list[dict[str, Any]] = []
    row_curves: list[list[dict[str, Any]]] = []
    for run in series:
        by_scope: dict[tuple[str, str], list[tuple[dict[str, Any], pa.Table, int | None]]] = {}
        for step, model in run.models(base):
            questions, budget, n_first = _pair_questions(data, base, model, k, tau, True, [])
            for scope, name, looked_up, part in pair_scopes(
                questions, domains, entropies, base, model
            ):
                row = summary_row(looked_up, scope, name, base, model, budget, entropies, tau)
                if n_first is not None:
                    row = adaptive_row(row, part, n_first)
                row["token_entropy_kind"] = _kinds(row, kinds)
                if trusted:
                    row["trusted_source_verdicts"] = trusted_counts(part, trusted, base, model)
                row["series"], row["step"] = run.name, step
                by_scope.setdefault((scope, name), []).append((row, part, n_first))
        for entries in by_scope.values():
            for row, part, n_first in entries:
                rows.append(row)
                if curves:
                    row_curves.append(_curve_points(part, tau=tau, n_first=n_first))
    return rows, row_curves


def trusted_questions(counts: pa.Table, models: Sequence[str]) -> dict[str, set[tuple[str, str]]]:
    """Per model of ``models``, the questions where some of its verdicts are trusted source
    verdicts (``n_trusted`` > 0); {} when no model has any."""
    if "n_trusted" not in counts.column_names:
        return {}
    hit = counts.filter(
        pc.and_(pc.greater(counts.column("n_trusted"), 0), pc.is_in(counts.column("model"),
                pa.array(list(models), pa.string())))
    )  # fmt: skip
    out: dict[str, set[tuple[str, str]]] = {model: set() for model in models}
    for bench, qid, model in zip(
        hit.column("benchmark").to_pylist(),
        hit.column("question_id").to_pylist(),
        hit.column("model").to_pylist(),
        strict=True,
    ):
        out[model].add((bench, qid))
    return {model: keys for model, keys in out.items() if keys}


def trusted_counts(
    part: pa.Table, trusted: dict[str, set[tuple[str, str]]], base: str, target: str
) -> dict[str, int]:
    """{base, target}: how many questions of ``part`` rest on trusted source verdicts."""
    bench, qid = part.column("benchmark").to_pylist(), part.column("question_id").to_pylist()
    keys = list(zip(bench, qid, strict=True))
    return {
        role: sum(key in trusted.get(model, ()) for key in keys)
        for role, model in (("base", base), ("target", target))
    }


def _trusted_note(trusted: dict[str, set[tuple[str, str]]]) -> str:
    parts = ", ".join(f"{model}: {len(keys):,}" for model, keys in trusted.items())
    return (
        f"verdicts leash did not compute: questions whose verdicts are the source's, trusted"
        f" at import (--trust-verdicts, no gold to grade them): {parts}"
    )


def _kinds(row: dict[str, Any], kinds: dict[str, str | None]) -> dict[str, str | None]:
    """The kind of each token entropy of ``row`` (null where the row shows none)."""
    return {
        role: kinds.get(row[role]) if row["token_entropy"][role] is not None else None
        for role in ("base", "target")
    }


def _entropy_kind_note(kinds: dict[str, str | None]) -> str | None:
    """Which token entropy each model's numbers are, when any is exact."""
    if "exact" not in kinds.values():
        return None
    parts = [
        f"{m}: {'exact (teacher forcing)' if k == 'exact' else k}" for m, k in kinds.items() if k
    ]
    text = "token entropy is " + "; ".join(parts)
    if "top-k" in kinds.values():
        text += " (top-k is the top-k part, a lower bound: compare models of one kind)"
    return text


def _unverified_questions(questions: pa.Table, base: str, target: str) -> list[str]:
    out = []
    n_b = questions.column("n_base").to_numpy()
    n_t = questions.column("n_target").to_numpy()
    bench, qid = questions.column("benchmark"), questions.column("question_id")
    for i in np.flatnonzero((n_b == 0) | (n_t == 0)):
        who = [m for m, n in ((base, n_b[i]), (target, n_t[i])) if n == 0]
        out.append(f"{bench[int(i)]}/{qid[int(i)]} ({', '.join(who)})")
    return out


def _curve_points(
    questions: pa.Table, tau: float = 0.0, n_first: int | None = None
) -> list[dict[str, Any]]:
    if n_first is None:
        curve = budget_curve(questions, tau=tau).to_pylist()
    else:
        curve = adaptive_curve(questions, n_first).to_pylist()
    return [
        {
            "k": p["k"],
            "pass@k": {"base": p["passk_base"], "target": p["passk_target"]},
            **{key: p[key] for key in (*CATEGORIES, *RATES)},
        }
        for p in curve
    ]
