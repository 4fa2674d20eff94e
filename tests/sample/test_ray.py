"""``leash sample --ray`` and ``leash verify --ray`` on a local Ray cluster the test starts.

The cluster is a real one (``ray start --head`` with 2 CPUs, reached through
RAY_ADDRESS), the checkpoints the closed-form ones the sampling tests build, the
engine ``hf`` on CPU. A Ray run must draw the very samples of a local run with the
same seed; an engine worker killed by its process id mid-run is replaced and the
folder still ends complete; ``verify --ray`` gives the verdicts of a local verify.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sampler.store.side_tables.adaptive_stops import read_stops
from tests.support.sampling_checks import (
    NEEDS_TORCH,
    ROOT,
    base_and_target,
    base_target_and_bench,
    by_key,
    samples,
    sampling_flags,
)

pytestmark = [
    NEEDS_TORCH,
    pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed"),
]

N_QUESTIONS = 12
K = 16
#: The test's own loopback cluster runs without token authentication (Ray >= 2.5x enables it
#: by default for clusters it starts; a user's cluster keeps whatever it has).
#: No usage reports, and every node on 127.0.0.1 (Ray resolves 127.0.0.1 to the machine's
#: address unless its loopback-only switch is set)
RAY_TEST_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
}


def ray_command() -> list[str]:
    beside = Path(sys.executable).parent / "ray"
    found = str(beside) if beside.exists() else shutil.which("ray")
    if found is None:
        pytest.skip("the ray command is not installed")
    return [found]


@pytest.fixture(scope="module")
def cluster():
    """A 2-CPU Ray head node in its own temporary folder; its address."""
    # Ray's socket paths must stay under AF_UNIX's 107 bytes: pytest-xdist's temporary
    # folders (``pytest-NNNN/popen-gwN/ray0/session_<date>_<pid>/sockets/plasma_store``) do not
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    port = 20000 + os.getpid() % 10000
    env = {**os.environ, **RAY_TEST_ENV}
    start = [
        *ray_command(),
        "start",
        "--head",
        "--node-ip-address",
        "127.0.0.1",
        "--num-cpus",
        "2",
        "--port",
        str(port),
        "--include-dashboard",
        "false",
        "--temp-dir",
        str(temp),
        "--disable-usage-stats",
    ]
    subprocess.run(start, check=True, capture_output=True, env=env, timeout=180)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([*ray_command(), "stop", "--force"], capture_output=True, timeout=120)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory) -> dict[str, Path]:
    return base_target_and_bench(tmp_path_factory.mktemp("ray-models"), N_QUESTIONS)


def sample_args(checkpoints: dict[str, Path], out: Path) -> list[str]:
    return [
        *base_and_target(checkpoints),
        "--engine",
        "hf",
        "--dtype",
        "float32",
        *sampling_flags(K, 0.8),
        "--seed",
        "7",
        "--no-verify",
        "-o",
        str(out),
    ]


def run_leash(args: list[str], address: str | None = None, **kwargs) -> subprocess.Popen:
    env = {**os.environ, **RAY_TEST_ENV}
    env.pop("RAY_ADDRESS", None)
    env.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")  # leash must bind the cluster itself
    if address:
        env["RAY_ADDRESS"] = address
    return subprocess.Popen(
        [sys.executable, "-m", "leash_tui", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def finish(process: subprocess.Popen, timeout: float = 600) -> str:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, (out + err)[-4000:]
    return out + err


@pytest.fixture(scope="module")
def local_run(checkpoints, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local") / "results"
    finish(run_leash(sample_args(checkpoints, out)))
    return out


def engine_actor_pids() -> list[int]:
    """Process ids of live Ray engine actors (Ray names their processes ray::EngineWorker)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if cmdline.startswith(b"ray::EngineWorker"):
            pids.append(int(entry.name))
    return pids


def test_a_ray_run_draws_the_samples_of_a_local_run(cluster, checkpoints, local_run, tmp_path):
    out = tmp_path / "results"
    log = finish(run_leash([*sample_args(checkpoints, out), "--ray"], address=cluster))
    assert "sampled into" in log
    local = by_key(samples(local_run))
    on_ray = by_key(samples(out))
    assert on_ray.keys() == local.keys()
    assert len(on_ray) == 2 * N_QUESTIONS * K
    for key, row in local.items():
        assert on_ray[key]["text"] == row["text"], key
        assert on_ray[key]["n_tokens"] == row["n_tokens"], key


def test_an_engine_worker_killed_mid_run_is_replaced_and_the_folder_completes(
    cluster, checkpoints, local_run, tmp_path
):
    out = tmp_path / "results"
    killed: list[int] = []

    def kill_first_actor() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not killed:
            pids = engine_actor_pids()
            shards = list((out / "samples").glob("*.parquet")) if out.exists() else []
            if pids and (shards or time.monotonic() > deadline - 290):
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return
            time.sleep(0.2)

    args = [*sample_args(checkpoints, out), "--ray", "--flush-seconds", "0"]
    process = run_leash(args, address=cluster)
    killer = threading.Thread(target=kill_first_actor)
    killer.start()
    finish(process)
    killer.join()
    assert killed, "no engine worker was seen to kill"
    local = by_key(samples(local_run))
    on_ray = by_key(samples(out))
    assert on_ray.keys() == local.keys()  # nothing lost, nothing doubled (keys are unique)
    assert len(samples(out)) == len(local)
    assert all(on_ray[key]["text"] == row["text"] for key, row in local.items())


def test_verify_on_ray_gives_the_verdicts_of_a_local_verify(cluster, local_run, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(local_run, copy)
    finish(run_leash(["verify", str(local_run), "--no-progress"]))
    finish(run_leash(["verify", str(copy), "--ray", "--no-progress"], address=cluster))
    columns = ["benchmark", "question_id", "model", "sample", "status", "answer", "correct"]

    def verdicts(root: Path) -> list[tuple]:
        files = sorted((root / "samples").glob("*.parquet"))
        rows = pq.read_table(files, columns=columns).to_pylist()
        return sorted(tuple(r[c] for c in columns) for r in rows)

    local, on_ray = verdicts(local_run), verdicts(copy)
    assert len(local) == 2 * N_QUESTIONS * K
    assert all(row[4] is not None for row in on_ray)
    assert on_ray == local


def test_a_driver_killed_mid_run_resumes_from_its_shards(cluster, checkpoints, local_run, tmp_path):
    out = tmp_path / "results"
    args = [*sample_args(checkpoints, out), "--ray", "--flush-seconds", "0"]
    process = run_leash(args, address=cluster)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and len(list((out / "samples").glob("*.parquet"))) >= 2:
            break
        time.sleep(0.1)
    assert process.poll() is None, "the run ended before it could be killed"
    process.kill()
    process.communicate(timeout=60)
    written = len(samples(out))
    assert 0 < written < 2 * N_QUESTIONS * K
    log = finish(run_leash(args, address=cluster))
    assert "sampled into" in log
    local = by_key(samples(local_run))
    rows = samples(out)
    assert len(rows) == len(local)  # nothing doubled
    resumed = by_key(rows)
    assert resumed.keys() == local.keys()  # nothing lost
    assert all(resumed[key]["text"] == row["text"] for key, row in local.items())


def adaptive_args(checkpoints: dict[str, Path], out: Path) -> list[str]:
    flags = sample_args(checkpoints, out)
    flags.remove("--no-verify")  # adaptive runs verify as they sample
    return [*flags, "--adaptive", "--min-samples", "4"]


def test_an_adaptive_ray_run_draws_the_samples_and_stops_of_a_local_one(
    cluster, checkpoints, tmp_path
):
    """``--ray --adaptive``: engine actors sample every round (verified on the cluster too)
    and the folder holds the very samples, verdicts and stops of a local adaptive run."""
    local_out, ray_out = tmp_path / "local", tmp_path / "ray"
    finish(run_leash(adaptive_args(checkpoints, local_out)))
    log = finish(run_leash([*adaptive_args(checkpoints, ray_out), "--ray"], address=cluster))
    assert "round 1:" in log and "sampled into" in log
    local, on_ray = by_key(samples(local_out)), by_key(samples(ray_out))
    assert on_ray.keys() == local.keys()
    assert len(local) < 2 * N_QUESTIONS * K  # the adaptive run stopped somewhere
    for key, row in local.items():
        assert (on_ray[key]["text"], on_ray[key]["status"]) == (row["text"], row["status"]), key
    stops = [read_stops(out).sort_by([("model", "ascending"), ("question_id", "ascending")])
             for out in (local_out, ray_out)]  # fmt: skip
    assert stops[0].to_pylist() == stops[1].to_pylist()
    assert {r["drawn"] for r in stops[1].to_pylist()} >= {4, K}
    manifest = json.loads((ray_out / "manifest.json").read_text(encoding="utf-8"))
    assert [m["sampling"]["engine_loads"] for m in manifest["models"]] == [1, 1]


def test_runs_without_ray_never_import_it():
    code = (
        "import sys\n"
        "import leash_tui.commands.sample, leash_tui.commands.verify\n"
        "import sampler.sample.run, sampler.verify.run, sampler.verify.workers.pool\n"
        "print('RAY' if 'ray' in sys.modules else 'NO RAY')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "NO RAY"


def test_a_local_cluster_started_for_a_run_listens_on_loopback_only():
    """With no address, ``--ray`` starts a cluster of its own bound to 127.0.0.1."""
    probe = (
        "from sampler.ray_cluster import connect, disconnect\n"
        "connect()\n"
        "import ray\n"
        "print(sorted({n['NodeManagerAddress'] for n in ray.nodes()}))\n"
        "disconnect()\n"
    )
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay short
    env = {**os.environ, **RAY_TEST_ENV, "RAY_TMPDIR": temp}
    env.pop("RAY_ADDRESS", None)
    env.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")  # leash must bind the cluster itself
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    shutil.rmtree(temp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "['127.0.0.1']"
