"""Shared pytest fixtures: a private report cache for every test, and the real benchmark files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import SHARED_BENCHMARKS


@pytest.fixture(autouse=True)
def private_report_cache(tmp_path_factory, monkeypatch):
    """Keep every test's report cache out of the user's ~/.cache/leash."""
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path_factory.mktemp("leash-cache")))


@pytest.fixture
def shared_benchmarks() -> Path:
    if not SHARED_BENCHMARKS.is_dir():
        pytest.skip(f"real benchmark files not present at {SHARED_BENCHMARKS}")
    return SHARED_BENCHMARKS
