"""Paths the tests share: the repository, the tests' own data and the benchmark files."""

from __future__ import annotations

import os
from pathlib import Path

#: the repository's root
REPO_ROOT = Path(__file__).resolve().parents[2]
#: data files the tests ship (reference suites, benchmark files)
TESTS_DATA = REPO_ROOT / "tests" / "data"
#: the real benchmark files the tests read, shipped with the tests (``LEASH_BENCHMARKS``
#: points them at another copy)
BENCHMARK_FILES = Path(os.environ.get("LEASH_BENCHMARKS", TESTS_DATA / "benchmarks"))
