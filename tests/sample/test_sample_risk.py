"""``leash sample --engine hf --adaptive --risk DELTA`` end to end on the closed-form
checkpoints (tests/support/closed_form_model.py), beside a full run of the same seed.

The risk run's samples are the full run's (sample i is sample i), its risk stops are
those the rule gives on the full run's own first successes (the rule reads only samples
below each round's budget, which the two runs share), a rerun with another --risk is
refused, and the report states the bound beside P/E/S/O. k = 16, N = 4 (rounds 4, 8,
16); DELTA = 0.9, high enough that 10 questions give a group a bound below it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sampler.sample.risk_stop import NEVER, group_stops
from sampler.store.side_tables.adaptive_stops import read_stops
from tests.sample.conftest import ADAPTIVE_HF_GROUP, RISK_DELTA
from tests.support.sampling_checks import (
    ADAPTIVE_K,
    ADAPTIVE_N,
    ADAPTIVE_QUESTIONS,
    HAVE_TORCH,
    adaptive_command,
    first_successes,
    keyed,
    leash,
    leash_in_process,
    leash_ok,
)

pytestmark = [
    pytest.mark.skipif(not HAVE_TORCH, reason="torch and transformers are needed"),
    # the full and risk runs are shared with test_sample_adaptive.py and test_risk_resume.py
    pytest.mark.xdist_group(ADAPTIVE_HF_GROUP),
]

N_QUESTIONS, K, N = ADAPTIVE_QUESTIONS, ADAPTIVE_K, ADAPTIVE_N
DELTA = RISK_DELTA
ROUNDS = [4, 8, 16]


@pytest.fixture(scope="module")
def risk_runs(adaptive_inputs, hf_full_run, hf_risk_run) -> dict[str, Path]:
    return {"full": hf_full_run, "risk": hf_risk_run, "inputs": adaptive_inputs}


def expected_stops(full: Path) -> dict[tuple, float]:
    """key -> q of the pairs the rule stops, from the full run's first successes."""
    firsts = first_successes(keyed(full))
    out = {}
    for model in ("base", "target"):
        keys = sorted(key for key in firsts if key[2] == model)
        first = [NEVER if firsts[key] is None else firsts[key] for key in keys]
        stop, q, _ = group_stops(np.array(first), np.full(len(keys), K), ROUNDS, K, DELTA)
        out |= {key: q for key, stopped in zip(keys, stop, strict=True) if stopped}
    return out


def test_risk_stops_are_recorded_and_are_the_rules_on_the_full_run(risk_runs):
    expected = expected_stops(risk_runs["full"])
    assert expected  # the rule fires on this data (else the test would prove nothing)
    stops = read_stops(risk_runs["risk"]).to_pylist()
    assert len(stops) == 2 * N_QUESTIONS
    risky = {
        (r["benchmark"], r["question_id"], r["model"]): r for r in stops if r["stop"] == "risk"
    }
    assert risky.keys() == expected.keys()
    for key, row in risky.items():
        assert row["first_success"] is None and row["drawn"] < K
        assert row["risk_q"] == pytest.approx(expected[key]) and row["risk_q"] < DELTA
    assert all(r["risk_q"] is None for r in stops if r["stop"] != "risk")
    assert all(r["stop"] in ("success", "risk") for r in stops)  # nothing left open
    manifest = json.loads((risk_runs["risk"] / "manifest.json").read_text(encoding="utf-8"))
    assert {m["sampling"]["adaptive"]["risk"] for m in manifest["models"]} == {DELTA}


def test_every_sample_drawn_is_the_full_runs_and_fewer_are_drawn(risk_runs):
    full, risky = keyed(risk_runs["full"]), keyed(risk_runs["risk"])
    assert len(risky) < len(full)
    for key, row in risky.items():
        assert (row["text"], row["status"]) == (full[key]["text"], full[key]["status"])
    stops = read_stops(risk_runs["risk"]).to_pylist()
    for row in stops:  # each pair holds exactly the prefix 0 .. drawn-1
        key = (row["benchmark"], row["question_id"], row["model"])
        held = sorted(index for (*k, index) in risky if tuple(k) == key)
        assert held == list(range(row["drawn"]))


def test_resuming_with_another_risk_is_refused(risk_runs):
    args = adaptive_command(risk_runs["inputs"], "hf", risk_runs["risk"], "--adaptive")
    for other in (["--risk", "0.5"], []):  # refused before any engine: in this process
        result = leash_in_process(*args, "--min-samples", str(N), *other)
        assert result.exit_code != 0
        assert "--risk: folder has 0.9" in result.stderr


def test_the_report_states_the_bound_beside_p_e_s_o(risk_runs):
    stops = read_stops(risk_runs["risk"]).to_pylist()
    q = {(r["question_id"], r["model"]): r["risk_q"] or 0.0 for r in stops}
    questions = {r["question_id"] for r in stops}
    bound = sum(min(1.0, q[(qid, "base")] + q[(qid, "target")]) for qid in questions)
    doc = json.loads(leash_ok("report", str(risk_runs["risk"]), "--format", "json"))
    overall = next(r for r in doc["rows"] if r["scope"] == "overall")
    assert overall["misclassified_bound"] == pytest.approx(bound)
    # P/E/S/O: a risk-stopped pair counts out of support, the others as in the full run
    firsts = first_successes(keyed(risk_runs["full"]))
    inside = {
        (qid, m): firsts[("toy", qid, m)] is not None and q[(qid, m)] == 0.0
        for qid in questions
        for m in ("base", "target")
    }
    counts = {"P": 0, "E": 0, "S": 0, "O": 0}
    for qid in questions:
        b, t = inside[(qid, "base")], inside[(qid, "target")]
        counts["P" if b and t else "E" if t else "S" if b else "O"] += 1
    assert {c: overall[c] for c in "PESO"} == counts
    table = leash("report", str(risk_runs["risk"]))  # the notes go to stderr
    assert table.returncode == 0 and "miss ≤" in table.stdout
    assert f"sampled with --risk {DELTA:g}" in table.stderr
    for fmt, marker in (
        ("markdown", "miss ≤"),
        ("latex", "miss ≤"),
        ("csv", "misclassified_bound"),
    ):
        assert marker in leash_ok("report", str(risk_runs["risk"]), "--format", fmt)
