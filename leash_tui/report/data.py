"""Load what a support-dynamics report needs from a results folder, in one read.

The per-(benchmark, question, model) statistics (verdict counts, answer classes,
token-entropy sums) come from the summaries leash stores in each shard's footer
(store.shard_summary). Shards without a trustworthy summary are scanned: the narrow
columns of REPORT_COLUMNS and the sample index (never the completion text) chunk by
chunk (store.key_stats), the same code as ``Results.verdict_counts()``, and the
resulting per-question tables are cached outside the folder (report.cache) while the
shards are unchanged. When the shards' statistics show imported source verdicts, the
grading-agreement columns are read too (grading_agreement.agreement_table: five
narrow columns, no text).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from leash_tui.analysis.answer_stats import ANSWER_STATS_COLUMNS, answer_stats_table
from leash_tui.analysis.grading_agreement import agreement_table, may_have_source_verdicts
from leash_tui.analysis.token_entropy_kind import exact_stats
from leash_tui.report import cache as report_cache
from sampler.store.schema import Manifest
from sampler.store.shards.coverage import coverage_notes
from sampler.store.shards.duplicate_keys import check_unique_samples
from sampler.store.shards.key_stats import counts_table, merge_stats
from sampler.store.shards.reader import COUNT_KEYS, VERDICT_COUNT_COLUMNS, Results
from sampler.store.shards.shard_summary import combined_stats, split_by_summary, too_short
from sampler.store.side_tables.entropy_samples import DEFAULT_ENTROPY_SAMPLES
from sampler.store.side_tables.perplexity_table import read_perplexity

REPORT_COLUMNS = (
    *COUNT_KEYS,
    "status",
    "answer",
    "token_entropy",
    "verdict_source",
    "finish_reason",
)
COUNTS_COLUMNS = (*COUNT_KEYS, "n", *VERDICT_COUNT_COLUMNS)
_CACHED_COLUMNS = tuple(dict.fromkeys([*COUNTS_COLUMNS, *ANSWER_STATS_COLUMNS]))


@dataclass(frozen=True)
class ReportData:
    """A folder's manifest, verdict counts and per-question answer statistics."""

    root: Path
    manifest: Manifest
    counts: pa.Table  # Results.verdict_counts() columns
    answer_stats: pa.Table  # answer_stats.ANSWER_STATS_COLUMNS
    #: grading_agreement.AGREEMENT_COLUMNS of every sample; None when no shard can hold a
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

    def domains(self) -> dict[str, str]:
        """benchmark -> domain, in manifest order, then benchmarks seen only in samples."""
        names = [b.name for b in self.manifest.benchmarks]
        names += sorted(set(self.counts.column("benchmark").to_pylist()) - set(names))
        return {name: self.manifest.domain_of(name) for name in names}


def cache_stamp(results: Results, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES) -> str | None:
    """The report cache's fingerprint of the folder now (None if a shard vanished meanwhile);
    answer entropy at another N is another cache entry."""
    try:
        columns = [*REPORT_COLUMNS, f"answer_entropy@{entropy_samples}"]
        return report_cache.fingerprint(results.root, results.shard_paths(), columns)
    except OSError:
        return None


def cached_tables(
    results: Results, stamp: str | None = None, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES
) -> tuple[pa.Table, pa.Table] | None:
    """(verdict counts, answer statistics) from the cache if it is current, else None."""
    stamp = stamp or cache_stamp(results, entropy_samples)
    cached = report_cache.load(results.root, stamp) if stamp else None
    if cached is None or not set(_CACHED_COLUMNS) <= set(cached.column_names):
        return None
    return cached.select(list(COUNTS_COLUMNS)), cached.select(list(ANSWER_STATS_COLUMNS))


def report_tables(
    results: Results,
    use_cache: bool = True,
    scan: bool = True,
    entropy_samples: int = DEFAULT_ENTROPY_SAMPLES,
) -> tuple[pa.Table, pa.Table] | None:
    """(verdict counts, answer statistics) of the folder.

    With ``use_cache`` they come from report_cache when the folder's shards have not
    changed since they were computed, and are stored there when they had to be
    computed by a scan; when every shard has a valid footer summary (store.shard_summary)
    they come from those (as fast as the cache, so nothing is stored), and otherwise
    from the summaries that are valid plus a scan of the other shards. Without
    ``use_cache``, every sample is counted again from the rows: neither the cache nor
    the summaries are used. With ``scan`` false, None is returned instead of scanning
    any shard (a caller that can show something useful sooner without them).
    Answer entropy is over the first ``entropy_samples`` samples of each question; footer
    summaries keep the first DEFAULT_ENTROPY_SAMPLES, so a larger N scans the shards.
    """
    stamp = cache_stamp(results, entropy_samples) if use_cache else None
    cached = cached_tables(results, stamp, entropy_samples) if stamp else None
    if cached is not None:
        return cached
    if use_cache:
        stored, to_scan = split_by_summary(results.shard_paths())
        if not to_scan and not too_short(stored, entropy_samples):
            # every shard summarised: as fast as the cache, nothing to store
            check_unique_samples(stored)
            summary = merge_stats(stored)
            return counts_table(summary), answer_stats_table(summary, entropy_samples)
    else:
        stored, to_scan = [], results.shard_paths()
    if not scan:
        return None
    summary = combined_stats(stored, to_scan, REPORT_COLUMNS, keep=entropy_samples)
    counts = counts_table(summary)
    stats = answer_stats_table(summary, entropy_samples)
    if stamp:
        combined = counts
        for name in ANSWER_STATS_COLUMNS:
            if name not in COUNTS_COLUMNS:
                combined = combined.append_column(name, stats.column(name))
        report_cache.store(results.root, stamp, combined)
    return counts, stats


def exact_entropy_table(results: Results) -> pa.Table | None:
    """Per (question, model) sums of ``token_entropy_exact``, read (four narrow columns)
    only from shards whose row-group statistics show a value; None when no shard has one."""
    import pyarrow.parquet as pq

    pieces = []
    columns = ["benchmark", "question_id", "model", "token_entropy_exact"]
    for path in results.shard_paths():
        handle = pq.ParquetFile(path)
        if "token_entropy_exact" not in handle.schema_arrow.names:
            continue
        meta = handle.metadata
        index = handle.schema_arrow.names.index("token_entropy_exact")
        groups = [meta.row_group(i) for i in range(meta.num_row_groups)]
        stats = [g.column(index).statistics for g in groups]
        if all(
            s is not None and s.null_count == g.num_rows for s, g in zip(stats, groups, strict=True)
        ):
            continue  # every value null
        pieces.append(handle.read(columns=columns))
    if not pieces:
        return None
    table = pa.concat_tables([p.cast(pieces[0].schema) for p in pieces])
    return exact_stats(table.select(columns))


def load_report_data(
    root: Path | str, use_cache: bool = True, entropy_samples: int = DEFAULT_ENTROPY_SAMPLES
) -> ReportData:
    """Open ``root`` and compute counts and answer statistics (LeashError on bad input);
    ``use_cache`` and ``entropy_samples`` as in ``report_tables``. Grading agreement is
    read when the shards' statistics show imported source verdicts."""
    results = Results.open(root)
    tables = report_tables(results, use_cache=use_cache, entropy_samples=entropy_samples)
    assert tables is not None  # scanning is allowed, so there is always an answer
    counts, stats = tables
    agreement = None
    questions = results.questions
    if may_have_source_verdicts(results.shard_paths()):
        agreement = agreement_table(results)
    return ReportData(
        root=results.root,
        manifest=results.manifest,
        counts=counts,
        answer_stats=stats,
        agreement=agreement,
        coverage=coverage_notes(results.manifest, questions, counts),
        exact_entropy=exact_entropy_table(results),
        perplexity=read_perplexity(results.root),
        questions=questions,
    )
