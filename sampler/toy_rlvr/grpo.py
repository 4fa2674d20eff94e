"""RLVR on the base model: TRL's ``GRPOTrainer`` with leash's verifier as the reward.

The prompts are the training problems in the very text ``leash sample --template plain``
gives the model; the reward is ``reward.VerifierReward`` (leash's ``math`` verifier). No KL
term (``beta = 0``, as in most RLVR recipes, so no reference model). At each step of
``save_at`` the policy is saved with its tokenizer as an ordinary transformers folder
``<out>/step-<N>`` (written under a temporary name, then renamed, so a folder that exists is
whole). Seeded through TRL's ``seed``: the same arguments give the same checkpoints on the
same machine.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sampler.benchmarks.prompts import PLAIN
from sampler.toy_rlvr.model import seed_everything
from sampler.toy_rlvr.reward import VerifierReward
from sampler.toy_rlvr.task import Problem

#: progress(step, steps, mean reward of the step's completions or None)
StepProgress = Callable[[int, int, float | None], None]


@dataclass(frozen=True)
class GrpoSettings:
    steps: int = 40
    prompts_per_step: int = 8
    generations: int = 8  # completions per prompt (the group)
    learning_rate: float = 4e-4
    temperature: float = 1.0
    max_completion_tokens: int = 16
    seed: int = 0


def checkpoint_dir(out: Path, step: int) -> Path:
    return out / f"step-{step}"


def train_rlvr(
    base: Path,
    out: Path,
    problems: list[Problem],
    settings: GrpoSettings,
    save_at: list[int],
    device: str = "cpu",
    progress: StepProgress | None = None,
    threads: int = 1,
) -> list[Path]:
    """Run GRPO from the model folder ``base``; return the checkpoint folders of ``save_at``
    (``threads``: torch CPU threads, ``model.default_threads``)."""
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from transformers.trainer_callback import PrinterCallback
    from trl import GRPOConfig, GRPOTrainer

    seed_everything(settings.seed, threads)
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base, dtype="float32")
    dataset = Dataset.from_list(
        [{"prompt": PLAIN.render(p.problem), "answer": str(p.gold)} for p in problems]
    )
    work = out / ".trl"
    config = GRPOConfig(
        output_dir=str(work),
        max_steps=settings.steps,
        per_device_train_batch_size=settings.prompts_per_step * settings.generations,
        num_generations=settings.generations,
        max_completion_length=settings.max_completion_tokens,
        learning_rate=settings.learning_rate,
        lr_scheduler_type="constant",
        warmup_steps=0,
        temperature=settings.temperature,
        beta=0.0,
        seed=settings.seed,
        data_seed=settings.seed,
        use_cpu=device == "cpu",
        bf16=False,
        fp16=False,
        save_strategy="no",
        report_to="none",
        logging_steps=1,
        disable_tqdm=True,
        dataloader_num_workers=0,
    )
    saved: list[Path] = []
    targets = sorted(set(save_at))

    class Checkpoints(TrainerCallback):
        reward: float | None = None

        def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kw: Any) -> None:
            if logs and "reward" in logs:
                self.reward = float(logs["reward"])

        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            step = int(state.global_step)
            if step in targets:
                saved.append(_save(kw["model"], tokenizer, checkpoint_dir(out, step)))
            if progress is not None:
                progress(step, settings.steps, self.reward)

    trainer = GRPOTrainer(
        model=model,
        reward_funcs=VerifierReward(),
        args=config,
        train_dataset=dataset,
        processing_class=tokenizer,
        callbacks=[Checkpoints()],
    )
    trainer.remove_callback(PrinterCallback)  # progress goes to ``progress``, not stdout
    trainer.train()
    shutil.rmtree(work, ignore_errors=True)
    return saved


def _save(model: Any, tokenizer: Any, final: Path) -> Path:
    """Save ``model`` and ``tokenizer`` to ``final`` whole or not at all."""
    tmp = final.with_name(f".{final.name}.partial")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    return final
