"""Load what a support-dynamics report needs from a results folder, in one read.

Reads six narrow columns of every shard (benchmark, question_id, model, status,
answer, token_entropy; never the completion text), groups the rows once, and from
that grouping computes the verdict counts (the same function, so the same numbers,
as ``Results.verdict_counts()``) and the per-question answer and token-entropy
statistics of every model. Those per-question tables are cached outside the
folder (report_cache) and reused while the shards are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from leash_tui import report_cache
from leash_tui.answer_stats import ANSWER_STATS_COLUMNS, question_answer_stats
from leash_tui.results_reader import COUNT_KEYS, VERDICT_COUNT_COLUMNS, Results, count_verdicts
from leash_tui.sample_groups import group_samples, read_shard_columns
from sampler.results_schema import Manifest

REPORT_COLUMNS = (*COUNT_KEYS, "status", "answer", "token_entropy")
COUNTS_COLUMNS = (*COUNT_KEYS, "n", *VERDICT_COUNT_COLUMNS)
_CACHED_COLUMNS = tuple(dict.fromkeys([*COUNTS_COLUMNS, *ANSWER_STATS_COLUMNS]))


@dataclass(frozen=True)
class ReportData:
    """A folder's manifest, verdict counts and per-question answer statistics."""

    root: Path
    manifest: Manifest
    counts: pa.Table  # Results.verdict_counts() columns
    answer_stats: pa.Table  # answer_stats.ANSWER_STATS_COLUMNS

    def domains(self) -> dict[str, str]:
        """benchmark -> domain, in manifest order, then benchmarks seen only in samples."""
        names = [b.name for b in self.manifest.benchmarks]
        names += sorted(set(self.counts.column("benchmark").to_pylist()) - set(names))
        return {name: self.manifest.domain_of(name) for name in names}


def load_report_data(root: Path | str, use_cache: bool = True) -> ReportData:
    """Open ``root`` and compute counts and answer statistics (LeashError on bad input).

    With ``use_cache`` the per-question statistics come from report_cache when the
    folder's shards have not changed since they were computed.
    """
    results = Results.open(root)
    paths = results.shard_paths()
    stamp = None
    if use_cache:
        try:
            stamp = report_cache.fingerprint(results.root, paths, REPORT_COLUMNS)
        except OSError:  # a shard vanished while listing: just compute
            stamp = None
    cached = report_cache.load(results.root, stamp) if stamp else None
    if cached is not None and set(_CACHED_COLUMNS) <= set(cached.column_names):
        counts = cached.select(list(COUNTS_COLUMNS))
        stats = cached.select(list(ANSWER_STATS_COLUMNS))
    else:
        table = read_shard_columns(paths, REPORT_COLUMNS)
        groups = group_samples(table, COUNT_KEYS)
        counts = count_verdicts(table, groups)
        stats = question_answer_stats(table, groups)
        if stamp:
            extra = [c for c in ANSWER_STATS_COLUMNS if c not in COUNTS_COLUMNS]
            combined = counts
            for name in extra:
                combined = combined.append_column(name, stats.column(name))
            report_cache.store(results.root, stamp, combined)
    return ReportData(
        root=results.root, manifest=results.manifest, counts=counts, answer_stats=stats
    )
