"""``leash sample --engine hf`` (transformers generate) end to end, from a TOML config.

The same closed-form checkpoints as the vLLM tests: the report must agree with the
closed form; ``--shard I/N`` runs filling one folder at the same time must give the
very samples of an unsharded run; ``--token-detail`` keeps exact per-token entropies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.support.sampling_checks import (
    BASE,
    NEEDS_TORCH,
    ROOT,
    TARGET,
    base_target_and_bench,
    by_key,
    check_model_rates,
    check_report,
    check_structure,
    leash,
    leash_ok,
    sample_command,
    samples,
    sampling_flags,
)

pytestmark = NEEDS_TORCH

N_QUESTIONS = 20
K = 32
TEMPERATURE = 0.8


def write_config(path: Path, out: Path, models: dict[str, Path], bench: Path) -> Path:
    lines = [
        f'output = "{out}"',
        f"samples = {K}",
        f"temperature = {TEMPERATURE}",
        "top_p = 1.0",
        "max_tokens = 40",
        'engine = "hf"',
        'dtype = "float32"',
        "hf_batch_size = 32",
        "token_detail = 2",
        'base = "base"',
    ]
    for name, checkpoint in models.items():
        lines += ["", f"[models.{name}]", f'path = "{checkpoint}"']
    lines += ["", "[benchmarks.toy]", f'path = "{bench}"']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hf_run(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hf")
    paths = base_target_and_bench(folder, N_QUESTIONS)
    out = folder / "results"
    config = write_config(
        folder / "run.toml", out, {"base": paths["base"], "target": paths["target"]}, paths["bench"]
    )
    leash_ok("sample", "--config", str(config))
    return {**paths, "out": out, "folder": folder}


def test_hf_samples_match_the_closed_form(hf_run):
    rows = samples(hf_run["out"])
    check_structure(rows, "base", N_QUESTIONS, K, BASE.token_entropy())
    check_structure(rows, "target", N_QUESTIONS, K, TARGET.token_entropy())
    check_model_rates(rows, "base", BASE, K, TEMPERATURE, N_QUESTIONS)
    check_model_rates(rows, "target", TARGET, K, TEMPERATURE, N_QUESTIONS)
    check_report(hf_run["out"], K, TEMPERATURE, N_QUESTIONS)


def test_token_detail_holds_exact_per_token_entropies(hf_run):
    detail = pq.read_table(sorted((hf_run["out"] / "token_detail").glob("*.parquet")))
    rows = samples(hf_run["out"])
    n_tokens = {(r["question_id"], r["model"], r["sample"]): r["n_tokens"] for r in rows}
    entries = detail.to_pylist()
    assert len(entries) == 2 * N_QUESTIONS * 2  # samples 0 and 1 of each question and model
    for e in entries:
        assert e["sample"] in (0, 1)
        assert len(e["token_entropy"]) == n_tokens[(e["question_id"], e["model"], e["sample"])]
        exact = (BASE if e["model"] == "base" else TARGET).token_entropy()
        assert all(abs(h - exact) < 1e-5 for h in e["token_entropy"])


def test_concurrent_shards_fill_one_folder_with_the_unsharded_samples(hf_run):
    folder = hf_run["folder"]
    out = folder / "sharded"
    config = write_config(folder / "base.toml", out, {"base": hf_run["base"]}, hf_run["bench"])
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "leash_tui",
                "sample",
                "--config",
                str(config),
                "--shard",
                f"{i}/2",
                "--no-verify",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    for run in runs:
        _, err = run.communicate(timeout=900)
        assert run.returncode == 0, err[-3000:]
    sharded = by_key(samples(out))
    unsharded = {key: r for key, r in by_key(samples(hf_run["out"])).items() if key[2] == "base"}
    assert sharded.keys() == unsharded.keys()
    assert all(sharded[key]["text"] == unsharded[key]["text"] for key in unsharded)


def test_a_new_target_joins_an_existing_folder_against_its_base(hf_run, tmp_path):
    out = hf_run["out"]
    before = {key for key in by_key(samples(out))}
    args = [
        "--engine",
        "hf",
        "--dtype",
        "float32",
        *sampling_flags(K, TEMPERATURE),
        "--no-verify",
    ]
    leash_ok(
        *sample_command({"target2": hf_run["target"]}, hf_run["bench"]),
        *args,
        "-o",
        str(out),
    )
    rows = by_key(samples(out))
    assert {key for key in rows if key[2] != "target2"} == before  # nothing else touched
    assert sum(1 for key in rows if key[2] == "target2") == N_QUESTIONS * K
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(m["name"], m["role"]) for m in manifest["models"]] == [
        ("base", "base"),
        ("target", "target"),
        ("target2", "target"),
    ]
    fresh = tmp_path / "fresh"
    result = leash(
        *sample_command({"target2": hf_run["target"]}, hf_run["bench"]),
        *args,
        "-o",
        str(fresh),
    )
    assert result.returncode != 0
    assert "--base 'base': not a model of this run" in result.stderr
