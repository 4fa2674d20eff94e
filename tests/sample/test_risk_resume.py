"""A ``leash sample --adaptive --risk DELTA`` run killed after its first round resumes to
the uninterrupted run: the same stops (``stop``, ``drawn``, ``first_success``,
``risk_q``) and the same samples.

The closed-form checkpoints of the sampling tests (tests/support/closed_form_model.py),
engine hf; k = 16, N = 4 (rounds 4, 8, 16), DELTA = 0.9 as in test_sample_risk.py (high
enough that a handful of questions gives a group a bound below it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sampler.store.side_tables.adaptive_stops import read_stops
from tests.sample.test_sample_adaptive import command, keyed
from tests.support.sampling_checks import HAVE_TORCH, ROOT, base_target_and_bench, leash_ok

pytestmark = pytest.mark.skipif(not HAVE_TORCH, reason="torch and transformers are needed")

N_QUESTIONS = 8
DELTA = 0.9
RISK = ("--adaptive", "--min-samples", "4", "--risk", str(DELTA))


def stops(root: Path) -> dict[tuple, tuple]:
    return {
        (r["benchmark"], r["question_id"], r["model"]): (
            r["stop"],
            r["drawn"],
            r["first_success"],
            r["risk_q"],
        )
        for r in read_stops(root).to_pylist()
    }


def kill_after_first_round(args: list[str]) -> None:
    """Start ``leash`` with ``args`` and kill -9 its process group once round 1 starts."""
    run = subprocess.Popen(
        [sys.executable, "-m", "leash_tui", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 600
    assert run.stderr is not None
    for line in run.stderr:
        if line.startswith("round 1:"):
            break
        assert time.monotonic() < deadline, "round 1 never started"
    else:
        run.wait()
        pytest.fail("the run ended before its second round")
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()


def test_a_risk_run_killed_after_its_first_round_resumes_to_the_whole_runs_stops(tmp_path):
    inputs = base_target_and_bench(tmp_path / "inputs", N_QUESTIONS)
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    leash_ok(*command(inputs, "hf", whole, *RISK))
    expected = stops(whole)
    assert any(stop == "risk" for stop, *_ in expected.values())  # the rule fires here
    args = command(inputs, "hf", killed, *RISK)
    kill_after_first_round(args)
    assert stops(killed) != expected  # the kill left the run unfinished
    leash_ok(*args)
    assert stops(killed) == expected
    resumed, uninterrupted = keyed(killed), keyed(whole)
    assert resumed.keys() == uninterrupted.keys()
    for key, row in uninterrupted.items():
        assert (resumed[key]["text"], resumed[key]["status"]) == (row["text"], row["status"])
