"""What a support-dynamics report needs from a results folder, in one read.

The folder's per-key statistics come from the store (``ResultsFolder.key_stats``:
footer summaries, else a scan of narrow columns, else its cache); this module turns
them into the report's tables with the analysis functions: verdict counts and
per-question answer statistics. Grading agreement, exact token entropies and
perplexity rows are read through the folder only when its footers show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.adaptive_support import with_risk_stops
from leash_tui.analysis.token_entropy_kind import exact_stats
from leash_tui.report.folder_reads import agreement_samples, exact_entropy_samples
from leash_tui.report.loss_table import rule_counts
from sampler.sample.first_success import first_success
from sampler.store import (
    DEFAULT_ENTROPY_SAMPLES,
    KEY_STATS_COLUMNS,
    PERPLEXITY_SCORE_COLUMNS,
    Manifest,
    ResultsFolder,
    answer_stats_table,
    as_folder,
    counts_table,
    coverage_notes,
)

#: the sample columns whose per-key statistics a report reads (the store's)
REPORT_COLUMNS = KEY_STATS_COLUMNS


@dataclass(frozen=True)
class ReportData:
    """A folder's manifest, verdict counts and per-question answer statistics."""

    root: Path
    manifest: Manifest
    counts: pa.Table  # ResultsFolder.verdict_counts() columns
    answer_stats: pa.Table  # answer_stats.ANSWER_STATS_COLUMNS
    #: report.folder_reads.AGREEMENT_COLUMNS of every sample; None when no shard can hold a
    #: source verdict (nothing was imported with one)
    agreement: pa.Table | None = None
    #: store.coverage notes: listed questions a model has no sample of, unlisted ones
    coverage: list[str] = field(default_factory=list)
    #: token_entropy_kind.EXACT_STATS_COLUMNS, when some sample has an exact token entropy
    #: (``leash entropy``); None otherwise
    exact_entropy: pa.Table | None = None
    #: store.perplexity_table rows (``leash perplexity``); empty when none
    perplexity: pa.Table | None = None
    #: the questions table (problem text: the options of choice questions, report.blocks)
    questions: pa.Table | None = None
    #: model -> extraction rule -> samples whose answer it found (``answer_rule``)
    rules: dict[str, dict[str, int]] = field(default_factory=dict)
    #: samples of a folder too large for the answer-rule comparison (None: compared)
    rules_skipped: int | None = None
    #: store.first_success rows, when some model was sampled with ``leash sample --adaptive``
    #: (their n_first / c_first over the first ``adaptive_min_samples``); None otherwise
    adaptive: pa.Table | None = None
    adaptive_min_samples: dict[str, int] = field(default_factory=dict)  # model -> N
    adaptive_risk: dict[str, float] = field(default_factory=dict)  # model -> its --risk DELTA
    #: N of the answer entropy (``--entropy-samples``): its first N samples per question
    entropy_samples: int = DEFAULT_ENTROPY_SAMPLES

    def domains(self) -> dict[str, str]:
        """benchmark -> domain, in manifest order, then benchmarks seen only in samples."""
        names = [b.name for b in self.manifest.benchmarks]
        names += sorted(set(self.counts.column("benchmark").to_pylist()) - set(names))
        return {name: self.manifest.domain_of(name) for name in names}


def report_tables(
    folder: ResultsFolder,
    use_cache: bool = True,
    scan: bool = True,
    entropy_samples: int = DEFAULT_ENTROPY_SAMPLES,
) -> tuple[pa.Table, pa.Table] | None:
    """(verdict counts, answer statistics) of the folder; the options are those of
    ``ResultsFolder.key_stats`` (None only when ``scan`` is false and a scan was needed).
    From the shard index when it is current (the answer classes are never decoded)."""
    if use_cache:
        answers = folder.indexed_answer_stats(entropy_samples)
        if answers is not None:
            return folder.verdict_counts(), answers
    stats = folder.key_stats(use_cache=use_cache, scan=scan, keep=entropy_samples)
    if stats is None:
        return None
    return counts_table(stats), answer_stats_table(stats, entropy_samples)


#: Up to this many samples the report compares the rules that found each model's answers
#: (a read of the answer_rule column of every shard); above it ``leash info`` does.
RULE_CHECK_SAMPLES = 2_000_000


def load_report_data(
    folder: ResultsFolder | Path | str,
    use_cache: bool = True,
    entropy_samples: int = DEFAULT_ENTROPY_SAMPLES,
) -> ReportData:
    """Counts and answer statistics of ``folder`` (LeashError on bad input);
    ``use_cache`` and ``entropy_samples`` as in ``report_tables``. Grading agreement is
    read when the shards' statistics show imported source verdicts."""
    folder = as_folder(folder)
    tables = report_tables(folder, use_cache=use_cache, entropy_samples=entropy_samples)
    assert tables is not None  # scanning is allowed, so there is always an answer
    counts, stats = tables
    exact = exact_entropy_samples(folder)
    total = int(pc.sum(counts.column("n")).as_py() or 0) if counts.num_rows else 0
    compare_rules = total <= RULE_CHECK_SAMPLES
    min_samples = adaptive_models(folder.manifest)
    adaptive = first_success(folder, min(min_samples.values())) if min_samples else None
    risk = risk_models(folder.manifest)
    if adaptive is not None and risk:  # --risk: its stopped pairs are known out, within a bound
        samples = {
            m.name: int((m.sampling or {}).get("samples") or 0) for m in folder.manifest.models
        }
        adaptive = with_risk_stops(adaptive, folder.adaptive_stops(), samples)
    return ReportData(
        root=folder.root,
        manifest=folder.manifest,
        counts=counts,
        answer_stats=stats,
        agreement=agreement_samples(folder),
        coverage=coverage_notes(folder, counts),
        exact_entropy=exact_stats(exact) if exact is not None else None,
        perplexity=folder.perplexity(columns=PERPLEXITY_SCORE_COLUMNS),
        questions=folder.questions,
        rules=rule_counts(folder, [m.name for m in folder.manifest.models])
        if compare_rules
        else {},
        rules_skipped=None if compare_rules else total,
        adaptive=adaptive,
        adaptive_min_samples=min_samples,
        adaptive_risk=risk,
        entropy_samples=entropy_samples,
    )


def adaptive_models(manifest: Manifest) -> dict[str, int]:
    """model -> its min_samples N, for the models sampled with ``leash sample --adaptive``."""
    out = {}
    for entry in manifest.models:
        record = (entry.sampling or {}).get("adaptive")
        if isinstance(record, dict) and isinstance(record.get("min_samples"), int):
            out[entry.name] = int(record["min_samples"])
    return out


def risk_models(manifest: Manifest) -> dict[str, float]:
    """model -> its DELTA, for the models sampled with ``leash sample --adaptive --risk``."""
    out = {}
    for entry in manifest.models:
        record = (entry.sampling or {}).get("adaptive")
        if isinstance(record, dict) and isinstance(record.get("risk"), int | float):
            out[entry.name] = float(record["risk"])
    return out
