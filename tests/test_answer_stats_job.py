"""The child process that computes entropies fills `leash report`'s cache for the explorer."""

from __future__ import annotations

from pathlib import Path

from leash_tui.explorer.answer_stats_job import AnswerStatsJob
from leash_tui.explorer.explorer_model import open_counts
from leash_tui.results_reader import Results
from sampler.demo_results import write_demo_results
from tests.explorer_helpers import isolated_cache  # noqa: F401  (autouse fixture)


def test_job_fills_the_cache_the_explorer_opens_from(tmp_path: Path) -> None:
    root = write_demo_results(tmp_path / "demo", n_questions=10, n_samples=4, seed=2)
    results = Results.open(root)
    counts, stats = open_counts(results)
    assert stats is None
    assert AnswerStatsJob(root).run() is None
    cached_counts, cached_stats = open_counts(results)
    assert cached_stats is not None and cached_stats.num_rows == counts.num_rows
    assert cached_counts.equals(counts)


def test_job_reports_a_bad_folder(tmp_path: Path) -> None:
    problem = AnswerStatsJob(tmp_path / "nothing").run()
    assert problem is not None and "no such results folder" in problem
