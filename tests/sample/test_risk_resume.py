"""A ``leash sample --adaptive --risk DELTA`` run killed after its first round resumes to
the uninterrupted run: the same stops (``stop``, ``drawn``, ``first_success``,
``risk_q``) and the same samples.

The closed-form checkpoints of the sampling tests (tests/support/closed_form_model.py),
engine hf; k = 16, N = 4 (rounds 4, 8, 16), DELTA = 0.9 as in test_sample_risk.py. The
uninterrupted run is the one test_sample_risk.py checks (``hf_risk_run`` in
tests/sample/conftest.py, drawn once for both).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sampler.store.side_tables.adaptive_stops import read_stops
from tests.sample.conftest import ADAPTIVE_HF_GROUP, RISK_FLAGS
from tests.support.sampling_checks import (
    HAVE_TORCH,
    adaptive_command,
    keyed,
    kill_after_first_round,
    leash_ok,
)

pytestmark = [
    pytest.mark.skipif(not HAVE_TORCH, reason="torch and transformers are needed"),
    pytest.mark.xdist_group(ADAPTIVE_HF_GROUP),  # shares hf_risk_run with test_sample_risk.py
]


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


def test_a_risk_run_killed_after_its_first_round_resumes_to_the_whole_runs_stops(
    adaptive_inputs, hf_risk_run, tmp_path
):
    whole, killed = hf_risk_run, tmp_path / "killed"
    expected = stops(whole)
    assert any(stop == "risk" for stop, *_ in expected.values())  # the rule fires here
    args = adaptive_command(adaptive_inputs, "hf", killed, *RISK_FLAGS)
    kill_after_first_round(args)
    assert stops(killed) != expected  # the kill left the run unfinished
    leash_ok(*args)
    assert stops(killed) == expected
    resumed, uninterrupted = keyed(killed), keyed(whole)
    assert resumed.keys() == uninterrupted.keys()
    for key, row in uninterrupted.items():
        assert (resumed[key]["text"], resumed[key]["status"]) == (row["text"], row["status"])
