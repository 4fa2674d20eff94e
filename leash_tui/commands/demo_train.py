"""``leash demo --train``: train a tiny base and its RLVR checkpoints on a CPU, then measure them.

Stages, each timed (wall and CPU seconds) and marked done in ``DIR/work/stages`` so that a
rerun of the same command skips what is finished:

1. ``task``: the seeded train and held-out problems (``DIR/work/data``);
2. ``sft``: the base model, trained on noisy solutions (``DIR/models/base``);
3. ``grpo``: TRL's GRPOTrainer with leash's verifier as the reward, checkpoints
   ``DIR/models/step-N``;
4. ``sample``: ``leash sample --engine hf`` (the command itself, from a run config in
   ``DIR/work/run.toml``) draws k samples per held-out question from the base and every
   checkpoint into the results folder ``DIR/results`` (series ``rl@N``) and verifies them;
5. ``report``: ``leash report --format json`` on it, summarised as pass@1 and P/E/S/O per
   checkpoint.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from leash_tui.analysis.support_names import CATEGORIES
from sampler.errors import LeashError

SIZE_CHOICES = ("tiny", "small", "medium")
#: Sampling settings of the measurement (the base distribution at temperature 1, whole).
TEMPERATURE = 1.0
MAX_TOKENS = 16
SERIES = "rl"


@dataclass(frozen=True)
class TrainDemo:
    """One ``leash demo --train`` run: its folder and every setting that shapes its result."""

    root: Path
    steps: int = 40
    k: int = 256
    size: str = "tiny"
    device: str = "cpu"
    seed: int = 0
    sft_steps: int = 300
    questions: int = 40
    train_questions: int = 2000
    checkpoints: int = 2

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def results(self) -> Path:
        return self.root / "results"

    @property
    def models(self) -> Path:
        return self.root / "models"

    def save_steps(self) -> list[int]:
        n = max(1, min(self.checkpoints, self.steps))
        return sorted({max(1, round(self.steps * (i + 1) / n)) for i in range(n)})


def check_folder(root: Path) -> None:
    """Refuse a non-empty folder that is not a ``leash demo --train`` folder."""
    if root.exists() and any(root.iterdir()) and not (root / "work" / "stages").is_dir():
        raise LeashError(f"{root}: exists and is not a leash demo --train folder; choose -o")


def run_train_demo(demo: TrainDemo, console: Any) -> dict[str, Any]:
    """Run (or resume) every stage; return the summary of the measurement."""
    from sampler.toy_rlvr.stages import Stages

    check_folder(demo.root)
    if demo.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            raise LeashError("--device cuda: torch sees no CUDA device here")
    stages = Stages(demo.work)
    times: dict[str, dict[str, float]] = {}
    for name, settings, body in _stages(demo):
        record = stages.done(name, settings)
        if record is not None:
            console.print(f"[bold]{name}[/]: done before ({record['wall_seconds']:.1f} s), kept")
        else:
            console.print(f"[bold]{name}[/]: running")
            with stages.run(name, settings) as clock:
                body(clock)
            record = stages.done(name, settings) or {}
        times[name] = {"wall": record["wall_seconds"], "cpu": record["cpu_seconds"]}
    summary = json.loads((demo.work / "summary.json").read_text(encoding="utf-8"))
    summary["times"] = times
    return summary


def _stages(demo: TrainDemo) -> list[tuple[str, dict[str, Any], Any]]:
    from sampler.toy_rlvr.task import TASK

    common = {"task": TASK, "seed": demo.seed, "size": demo.size}
    task = {**common, "questions": demo.questions, "train_questions": demo.train_questions}
    sft = {**task, "sft_steps": demo.sft_steps, "device": demo.device}
    grpo = {**sft, "steps": demo.steps, "save_at": demo.save_steps()}
    sample = {**grpo, "k": demo.k}
    return [
        ("task", task, lambda clock: _task(demo)),
        ("sft", sft, lambda clock: _sft(demo, clock)),
        ("grpo", grpo, lambda clock: _grpo(demo, clock)),
        ("sample", sample, lambda clock: _sample(demo)),
        ("report", sample, lambda clock: _report(demo)),
    ]


def _problems(demo: TrainDemo) -> tuple[list[Any], list[Any]]:
    from sampler.toy_rlvr.task import make_problems

    return make_problems(demo.train_questions, demo.questions, demo.seed)


def _task(demo: TrainDemo) -> None:
    from sampler.toy_rlvr.task import write_benchmark

    train, heldout = _problems(demo)
    write_benchmark(demo.work / "data" / "train.jsonl", train)
    write_benchmark(demo.work / "data" / "heldout.jsonl", heldout)


def _bar(label: str) -> Any:
    from leash_tui.commands.shared.counted_progress import ELAPSED, REMAINING, counted_progress

    return counted_progress(
        f"[bold]{label}[/]", "{task.fields[info]}", ELAPSED, REMAINING, transient=False
    )


def _sft(demo: TrainDemo, clock: Any) -> None:
    import shutil

    from sampler.toy_rlvr.model import parameter_count
    from sampler.toy_rlvr.sft import SftSettings, train_base

    train, _ = _problems(demo)
    settings = SftSettings(steps=demo.sft_steps, seed=demo.seed)
    out = demo.models / "base"
    shutil.rmtree(out, ignore_errors=True)
    with _bar("sft") as progress:
        task = progress.add_task("sft", total=settings.steps, info="")

        def report(step: int, steps: int, loss: float) -> None:
            progress.update(task, completed=step, info=f"loss {loss:.3f}")

        train_base(out, train, demo.size, settings, demo.device, report)
    from transformers import AutoModelForCausalLM

    clock.extra["parameters"] = parameter_count(AutoModelForCausalLM.from_pretrained(out))
    clock.extra["sft"] = asdict(settings)


def _grpo(demo: TrainDemo, clock: Any) -> None:
    import shutil

    from sampler.toy_rlvr.grpo import GrpoSettings, train_rlvr
    from sampler.toy_rlvr.model import default_threads

    train, _ = _problems(demo)
    settings = GrpoSettings(steps=demo.steps, seed=demo.seed)
    for old in demo.models.glob("step-*"):
        shutil.rmtree(old, ignore_errors=True)
    with _bar("grpo") as progress:
        task = progress.add_task("grpo", total=settings.steps, info="")

        def report(step: int, steps: int, reward: float | None) -> None:
            info = "" if reward is None else f"reward {reward:.2f}"
            progress.update(task, completed=step, info=info)

        train_rlvr(
            demo.models / "base",
            demo.models,
            train,
            settings,
            demo.save_steps(),
            demo.device,
            report,
            default_threads(demo.size),
        )
    clock.extra["grpo"] = asdict(settings)


def model_names(demo: TrainDemo) -> dict[str, Path]:
    """Results-folder model name -> model folder: the base, then ``rl@STEP`` per checkpoint."""
    from sampler.toy_rlvr.grpo import checkpoint_dir

    names = {"base": demo.models / "base"}
    for step in demo.save_steps():
        names[f"{SERIES}@{step}"] = checkpoint_dir(demo.models, step)
    return names


def write_run_config(demo: TrainDemo) -> Path:
    """The ``leash sample --config`` file of the measurement."""
    from sampler.toy_rlvr.task import BENCHMARK

    lines = [
        f"output = {json.dumps(str(demo.results))}",
        f"samples = {demo.k}",
        f"temperature = {TEMPERATURE}",
        "top_p = 1.0",
        f"seed = {demo.seed}",
        f"max_tokens = {MAX_TOKENS}",
        'engine = "hf"',
        'dtype = "float32"',
        'template = "plain"',
        "chat_template = false",
        f"hf_batch_size = {min(demo.k, 256)}",
        'base = "base"',
    ]
    for name, path in model_names(demo).items():
        lines += ["", f'[models."{name}"]', f"path = {json.dumps(str(path))}"]
    heldout = demo.work / "data" / "heldout.jsonl"
    lines += ["", f'[benchmarks."{BENCHMARK}"]', f"path = {json.dumps(str(heldout))}"]
    path = demo.work / "run.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _sample(demo: TrainDemo) -> None:
    from leash_tui.commands.sample import sample
    from sampler.toy_rlvr.model import default_threads

    config = write_run_config(demo)
    # the sampling worker is a fresh process: its torch reads its thread count from here
    with _environment("OMP_NUM_THREADS", str(default_threads(demo.size))):
        sample.main(["--config", str(config)], standalone_mode=False)


@contextlib.contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


def _report(demo: TrainDemo) -> None:
    from leash_tui.commands.report import report

    out = demo.work / "report.json"
    args = [str(demo.results), "--format", "json", "--bootstrap", "0", "-o", str(out)]
    report.main(args, standalone_mode=False)
    summary = summarise(json.loads(out.read_text(encoding="utf-8")))
    (demo.work / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def summarise(document: dict[str, Any]) -> dict[str, Any]:
    """Per target of the report's overall rows: k, N, P/E/S/O, pass@1 and pass@k of both."""
    rows = [r for r in document["rows"] if r["scope"] == "overall"]
    if not rows:
        raise LeashError("leash report gave no overall row for the demo folder")
    out = {"base_pass@1": rows[0]["pass@1"]["base"], "targets": {}}
    for r in rows:
        out["targets"][r["target"]] = {
            "k": r["k"],
            "N": r["N"],
            **{c: r[c] for c in CATEGORIES},
            "pass@1": r["pass@1"]["target"],
            "pass@k": r["pass@k"]["target"],
            "base_pass@k": r["pass@k"]["base"],
        }
    return out


def print_summary(console: Any, demo: TrainDemo, summary: dict[str, Any]) -> None:
    """The measurement and the time of every stage, as two tables."""
    from rich.table import Table

    table = Table(title=f"support dynamics of {demo.results}", title_justify="left")
    for col in ("model", "k", "N", *CATEGORIES, "pass@1", "pass@k"):
        table.add_column(col, justify="left" if col == "model" else "right")
    targets = summary["targets"]
    first = next(iter(targets.values()))
    table.add_row(
        "base",
        str(first["k"]),
        str(first["N"]),
        "",
        "",
        "",
        "",
        f"{summary['base_pass@1']:.3f}",
        f"{first['base_pass@k']:.3f}",
    )
    for name, t in sorted(targets.items(), key=lambda item: _step(item[0])):
        table.add_row(
            name,
            str(t["k"]),
            str(t["N"]),
            *(_count(t[c]) for c in CATEGORIES),
            f"{t['pass@1']:.3f}",
            f"{t['pass@k']:.3f}",
        )
    console.print(table)
    times = Table(title="time per stage", title_justify="left")
    for col in ("stage", "wall s", "cpu s"):
        times.add_column(col, justify="left" if col == "stage" else "right")
    for name, t in summary["times"].items():
        times.add_row(name, f"{t['wall']:.1f}", f"{t['cpu']:.1f}")
    total_wall = sum(t["wall"] for t in summary["times"].values())
    total_cpu = sum(t["cpu"] for t in summary["times"].values())
    times.add_row("total", f"{total_wall:.1f}", f"{total_cpu:.1f}")
    console.print(times)


def _step(name: str) -> int:
    return int(name.rpartition("@")[2]) if "@" in name else 0


def _count(value: Any) -> str:
    return str(value) if isinstance(value, int) else f"{value:.1f}"
