"""``leash demo --train`` end to end on a reduced configuration: real training, real sampling.

One run (shared by the tests of this module) trains the base and its GRPO checkpoints,
samples them with ``leash sample --engine hf`` and verifies; the tests check the folder
(models, series ``rl@STEP``, every sample verified), that pass@1 rose from the base to the
last checkpoint by a margin, that a rerun skips every finished stage, that the same command
in a second folder gives the very same weights and samples (the second folder is handed the
first one's task and base model, whose determinism ``test_task_and_reward`` checks
in-process, so only GRPO and sampling run twice), and that the checkpoints are ordinary
model folders (``leash sample``, ``leash entropy`` and ``leash perplexity`` on them; the
last two through click's runner in the test's own process, which has torch loaded already,
rather than a ``leash`` process each that imports it again).
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from tests.support.sampling_checks import NEEDS_TORCH, leash, leash_ok, samples

pytestmark = NEEDS_TORCH

#: The reduced configuration (the defaults are the README's run).
REDUCED = {
    "--sft-steps": "300",
    "--steps": "30",
    "--checkpoints": "2",
    "--k": "32",
    "--questions": "20",
    "--seed": "0",
}
STEPS = (15, 30)
#: pass@1 of the last checkpoint over the base's that the reduced run must reach (the issue's
#: 10 points; docs/demo-train.md gives the gains measured).
MIN_GAIN = 0.10


def demo_args(root: Path, options: dict[str, str]) -> list[str]:
    args = ["demo", "--train", "--no-open", "-o", str(root)]
    for flag, value in options.items():
        args += [flag, value]
    return args


def run_demo(root: Path, options: dict[str, str] = REDUCED) -> str:
    result = leash(*demo_args(root, options), timeout=3000)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr


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


def test_rlvr_raises_pass_at_1(demo_run):
    summary = json.loads((demo_run / "work" / "summary.json").read_text())
    rows = samples(demo_run / "results")

    def pass1(model: str) -> float:  # of the samples themselves, not the summary's arithmetic
        correct = [r["correct"] for r in rows if r["model"] == model]
        return sum(correct) / len(correct)

    last = f"rl@{STEPS[-1]}"
    assert summary["base_pass@1"] == pytest.approx(pass1("base"))
    assert summary["targets"][last]["pass@1"] == pytest.approx(pass1(last))
    assert pass1(last) >= pass1("base") + MIN_GAIN, (pass1("base"), pass1(last))


def test_a_rerun_skips_every_finished_stage(demo_run):
    before = {p.name: p.stat().st_mtime_ns for p in (demo_run / "work" / "stages").iterdir()}
    err = run_demo(demo_run)
    assert err.count("done before") == 5
    after = {p.name: p.stat().st_mtime_ns for p in (demo_run / "work" / "stages").iterdir()}
    assert after == before


def test_the_same_command_gives_the_same_checkpoints_and_samples(demo_run, tmp_path):
    """The same command in a second folder that holds the first one's task and base model:
    GRPO and sampling run again and give identical weights and samples."""
    again = tmp_path / "run"
    for part in ("work/data", "models/base"):
        shutil.copytree(demo_run / part, again / part)
    for stage in ("task", "sft"):
        (again / "work" / "stages").mkdir(parents=True, exist_ok=True)
        shutil.copy(demo_run / "work" / "stages" / f"{stage}.json", again / "work" / "stages")
    err = run_demo(again)
    assert err.count("done before") == 2  # task and sft; grpo, sample and report ran

    def keyed(root: Path) -> dict:
        return {
            (r["question_id"], r["model"], r["sample"]): (r["text"], r["correct"])
            for r in samples(root / "results")
        }

    first = keyed(demo_run)
    assert len(first) == int(REDUCED["--k"]) * int(REDUCED["--questions"]) * (1 + len(STEPS))
    assert keyed(again) == first
    for step in STEPS:
        weights = [r / "models" / f"step-{step}" / "model.safetensors" for r in (demo_run, again)]
        assert weights[0].read_bytes() == weights[1].read_bytes()


def _hf(*args: str) -> list[str]:
    return [*args, "--engine", "hf", "--device", "cpu", "--dtype", "float32"]


def invoke(*args: str) -> str:
    """``leash ARGS`` in this process (click's runner): what the command prints."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, f"leash {' '.join(args)} failed:\n{result.output[-4000:]}"
    return result.output


def test_leash_entropy_works_on_a_checkpoint(demo_run):
    name = f"rl@{STEPS[-1]}"
    checkpoint = demo_run / "models" / f"step-{STEPS[-1]}"
    invoke(
        *_hf("entropy", str(demo_run / "results"), "--model", f"{name}={checkpoint}"),
        "--samples",
        "4",
    )
    rows = [r for r in samples(demo_run / "results") if r["model"] == name and r["sample"] < 4]
    assert rows and all(r["token_entropy_exact"] is not None for r in rows)
    for r in rows:  # teacher forcing recomputes what the hf engine measured while sampling
        assert r["token_entropy_exact"] == pytest.approx(r["token_entropy"], rel=1e-3, abs=1e-4)


def _solution_nll(model_dir: Path, prompt: str, solution: str) -> float:
    """Mean NLL per token of ``solution`` after ``prompt`` (no end token), by hand."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    p = tok(prompt, add_special_tokens=False)["input_ids"]
    s = tok(solution, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([p + s])).logits[0, len(p) - 1 : -1]
    nll = -torch.log_softmax(logits.double(), -1)[torch.arange(len(s)), torch.tensor(s)]
    return float(nll.mean())


def test_leash_sample_and_perplexity_work_on_a_checkpoint(demo_run, tmp_path):
    """``leash sample`` from the command line on a checkpoint alone, then ``leash perplexity``
    of the questions' reference solutions under it: the scores are the checkpoint's own."""
    import pyarrow.parquet as pq

    from sampler.benchmarks.prompts import PLAIN

    checkpoint = demo_run / "models" / f"step-{STEPS[-1]}"
    heldout = demo_run / "work" / "data" / "heldout.jsonl"
    out = tmp_path / "ckpt"
    args = ["sample", "--model", f"rl={checkpoint}", "--bench", f"toy={heldout}", "-o", str(out)]
    args += ["-k", "4", "--temperature", "1", "--top-p", "1", "--max-tokens", "16"]
    leash_ok(*args, "--template", "plain", "--chat-template", "off", "--engine", "hf")
    rows = samples(out)
    assert len(rows) == 4 * int(REDUCED["--questions"])
    assert all(r["status"] is not None for r in rows)  # verified

    invoke(*_hf("perplexity", str(out), "--traces", "reference", "--model", f"rl={checkpoint}"))
    scored = pq.read_table(out / "perplexity.parquet").to_pylist()
    assert len(scored) == int(REDUCED["--questions"])
    questions = {
        json.loads(line)["id"]: json.loads(line) for line in heldout.read_text().splitlines()
    }
    row = scored[0]
    q = questions[row["question_id"]]
    prompt = PLAIN.render(q["problem"])
    assert row["mean_nll"] == pytest.approx(_solution_nll(checkpoint, prompt, q["solution"]))
    base = _solution_nll(demo_run / "models" / "base", prompt, q["solution"])
    assert not math.isclose(row["mean_nll"], base, rel_tol=1e-6)  # the checkpoint's, not the base's
