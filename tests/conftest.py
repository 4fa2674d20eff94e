"""Shared pytest fixtures: a private report cache for every test, and the real benchmark files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import BENCHMARK_FILES


@pytest.fixture(autouse=True)
def private_report_cache(tmp_path_factory, monkeypatch):
    """Keep every test's report cache out of the user's ~/.cache/leash."""
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path_factory.mktemp("leash-cache")))


@pytest.fixture
def benchmark_files() -> Path:
    """The real benchmark files (MATH-500, AIME 2024, AMC 2023, Minerva, OlympiadBench)."""
    if not BENCHMARK_FILES.is_dir():  # shipped in tests/data: missing means a broken checkout
        pytest.fail(f"benchmark files missing at {BENCHMARK_FILES}")
    return BENCHMARK_FILES
