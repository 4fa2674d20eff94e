"""Fixtures shared by the resample-cache tests: a private cache folder per test (modules opt
in with ``pytestmark = pytest.mark.usefixtures("private_cache")``), and a record of the strata
the bootstrap draws (by their size, in order)."""

from __future__ import annotations

import pytest

from leash_tui.analysis import bootstrap


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def draws(monkeypatch):
    """The strata drawn (their sizes, one entry per block of resamples), in order."""
    drawn: list[int] = []
    real = bootstrap._resample_sums

    def counted(part, resamples, seed, digest, block=0):
        drawn.append(part.shape[0])
        return real(part, resamples, seed, digest, block)

    monkeypatch.setattr(bootstrap, "_resample_sums", counted)
    return drawn
