"""Shared pytest fixtures and settings: a private report cache for every test, the real
benchmark files, vLLM's engine core in the calling process, and the grouping of tests for
the two pytest-xdist workers (``-n 2 --dist loadgroup`` in ``pyproject.toml``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.paths import BENCHMARK_FILES

# vLLM starts its engine core and, on CPU, its worker in processes of their own, each
# importing torch and vLLM again (half a minute apiece on 2 cores). The tests run both in
# the model's own worker process instead: the very same engine, model runner and samples
# (bit for bit, logprobs too), one import instead of three. The kill -9 and `vllm serve`
# tests set it back to "1" for their commands, so the default process tree stays tested.
os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")

#: Test groups that take minutes (real engines, clusters, training), handed to the xdist
#: workers first and in this order, so that the two workers end at about the same time.
#: Every other test file is a group of its own, after these, in collection order.
HEAVY_GROUPS = (
    "sample-adaptive-hf",
    "sample-adaptive-vllm",
    "sample-vllm-kill",
    "tests/sample/test_sample_vllm.py",
    "tests/sample/test_sample_adaptive.py",
    "tests/sample/test_ray.py",
    "tests/toy_rlvr/test_demo_train.py",
    "tests/sample/test_sample_hf.py",
    "tests/scoring/test_perplexity_command.py",
    "tests/store/test_concurrency_stress.py",
    "tests/verify/test_answer_verdict.py",
    "tests/verify/test_verify_reference_suites.py",
)


def _group(item: pytest.Item) -> str:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return item.nodeid.split("::")[0]
    return str(mark.args[0] if mark.args else mark.kwargs.get("name"))


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the marks into node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist's ``loadgroup``: every test file is one group (its module fixtures, such
    as a sampled folder, are built once, on one worker) unless a test names its own group
    (``pytest.mark.xdist_group``); the heavy groups go first. Without xdist: nothing."""
    if not getattr(config.option, "loadgroup", False):  # set on the workers by xdist
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_group(item)))
    rank = {name: i for i, name in enumerate(HEAVY_GROUPS)}
    items.sort(key=lambda item: rank.get(_group(item), len(rank)))  # stable: file order kept


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
