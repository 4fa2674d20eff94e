"""Runs shared by the adaptive and risk tests of tests/sample (one xdist group, so each is
drawn once per session): the closed-form checkpoints on ``ADAPTIVE_QUESTIONS`` questions, a
full hf run and a ``--adaptive --risk 0.9`` hf run of them with the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.sampling_checks import (
    ADAPTIVE_N,
    ADAPTIVE_QUESTIONS,
    adaptive_command,
    base_target_and_bench,
    leash_ok,
)

#: the xdist group of every test that uses these runs (tests/conftest.py orders it)
ADAPTIVE_HF_GROUP = "sample-adaptive-hf"
#: --risk of the risk tests: high enough that 10 questions give a group a bound below it
RISK_DELTA = 0.9
RISK_FLAGS = ("--adaptive", "--min-samples", str(ADAPTIVE_N), "--risk", str(RISK_DELTA))


@pytest.fixture(scope="session")
def adaptive_inputs(tmp_path_factory) -> dict[str, Path]:
    return base_target_and_bench(tmp_path_factory.mktemp("adaptive-inputs"), ADAPTIVE_QUESTIONS)


@pytest.fixture(scope="session")
def hf_full_run(adaptive_inputs, tmp_path_factory) -> Path:
    """A full (non-adaptive) hf run: k samples of every question, seed 3."""
    out = tmp_path_factory.mktemp("hf-full") / "full"
    leash_ok(*adaptive_command(adaptive_inputs, "hf", out))
    return out


@pytest.fixture(scope="session")
def hf_risk_run(adaptive_inputs, tmp_path_factory) -> Path:
    """An uninterrupted ``--adaptive --risk 0.9`` hf run of the same seed."""
    out = tmp_path_factory.mktemp("hf-risk") / "risk"
    leash_ok(*adaptive_command(adaptive_inputs, "hf", out, *RISK_FLAGS))
    return out
