"""``leash demo --train`` end to end on a reduced configuration: real training, real sampling.

One run trains the base and its GRPO checkpoints, samples them with ``leash sample --engine
hf`` and verifies; the test checks the folder (models, series ``rl@STEP``, every sample
verified), that pass@1 rose from the base to the last checkpoint, that a rerun skips every
finished stage, that two runs of a micro configuration with one seed give the very same
weights and samples, and that the checkpoints are ordinary model folders (``leash entropy``
agrees with the exact entropies the hf engine stored while sampling).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.sampling_checks import NEEDS_TORCH, leash, leash_ok, samples

pytestmark = NEEDS_TORCH

#: The reduced configuration (the defaults are the README's run).
REDUCED = {
    "--sft-steps": "60",
    "--steps": "4",
    "--checkpoints": "2",
    "--k": "8",
    "--questions": "6",
    "--seed": "0",
}
STEPS = (2, 4)


def demo_args(root: Path, options: dict[str, str]) -> list[str]:
    args = ["demo", "--train", "--no-open", "-o", str(root)]
    for flag, value in options.items():
        args += [flag, value]
    return args


def run_demo(root: Path, options: dict[str, str] = REDUCED) -> str:
    return leash_ok(*demo_args(root, options), timeout=1200)


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("demo-train") / "run"
    run_demo(root)
    return root


def test_the_folder_holds_the_base_and_the_series(demo_run):
    manifest = json.loads((demo_run / "results" / "manifest.json").read_text())
    assert [(m["name"], m["role"]) for m in manifest["models"]] == [
        ("base", "base"),
        *((f"rl@{s}", "target") for s in STEPS),
    ]
    rows = samples(demo_run / "results")
    k, n = int(REDUCED["--k"]), int(REDUCED["--questions"])
    assert len(rows) == k * n * (1 + len(STEPS))
    assert all(r["status"] is not None for r in rows)  # verified
    for step in STEPS:
        assert (demo_run / "models" / f"step-{step}" / "config.json").is_file()
    report = json.loads((demo_run / "work" / "report.json").read_text())
    series = [r for r in report["series"] if r["scope"] == "overall"]
    assert [r["step"] for r in series] == [0, *STEPS]


@pytest.mark.xfail(
    strict=True,
    reason="not met yet: a configuration short enough for CI does not raise pass@1 by 5 points;"
    " the default run raises it about 4 (docs/demo-train.md, issue 37)",
)
def test_rlvr_raises_pass_at_1(demo_run):
    summary = json.loads((demo_run / "work" / "summary.json").read_text())
    base = summary["base_pass@1"]
    last = summary["targets"][f"rl@{STEPS[-1]}"]["pass@1"]
    # the pass@1 of the samples themselves, not of the summary's arithmetic
    rows = samples(demo_run / "results")
    correct = [r["correct"] for r in rows if r["model"] == "base"]
    assert base == pytest.approx(sum(correct) / len(correct))
    assert last >= base + 0.05, (base, last)


def test_a_rerun_skips_every_finished_stage(demo_run):
    before = {p.name: p.stat().st_mtime_ns for p in (demo_run / "work" / "stages").iterdir()}
    err = run_demo_stderr(demo_run)
    assert err.count("done before") == 5
    after = {p.name: p.stat().st_mtime_ns for p in (demo_run / "work" / "stages").iterdir()}
    assert after == before


def run_demo_stderr(root: Path) -> str:
    result = leash(*demo_args(root, REDUCED), timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr


def test_the_same_seed_gives_the_same_models_and_samples(tmp_path):
    """Two runs of a micro configuration in two folders: identical weights and samples."""
    micro = {"--sft-steps": "20", "--steps": "2", "--checkpoints": "1", "--k": "4"}
    micro |= {"--questions": "3", "--seed": "7"}
    for name in ("a", "b"):
        run_demo(tmp_path / name, micro)

    def keyed(root: Path) -> dict:
        return {
            (r["question_id"], r["model"], r["sample"]): (r["text"], r["correct"])
            for r in samples(root / "results")
        }

    assert len(keyed(tmp_path / "a")) == 4 * 3 * 2
    assert keyed(tmp_path / "a") == keyed(tmp_path / "b")
    for model in ("base", "step-2"):
        a, b = (tmp_path / n / "models" / model / "model.safetensors" for n in "ab")
        assert a.read_bytes() == b.read_bytes()


def test_leash_entropy_works_on_a_checkpoint(demo_run):
    name = f"rl@{STEPS[-1]}"
    checkpoint = demo_run / "models" / f"step-{STEPS[-1]}"
    leash_ok(
        "entropy",
        str(demo_run / "results"),
        "--model",
        f"{name}={checkpoint}",
        "--samples",
        "4",
        "--engine",
        "hf",
        "--device",
        "cpu",
        "--dtype",
        "float32",
    )
    rows = [r for r in samples(demo_run / "results") if r["model"] == name and r["sample"] < 4]
    assert rows and all(r["token_entropy_exact"] is not None for r in rows)
    for r in rows:  # teacher forcing recomputes what the hf engine measured while sampling
        assert r["token_entropy_exact"] == pytest.approx(r["token_entropy"], rel=1e-3, abs=1e-4)
