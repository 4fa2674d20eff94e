"""Supervised training of the base model on noisy solutions (a plain torch loop).

Each step draws a batch of training problems and a fresh noisy solution for each
(``task.Problem.solution`` with ``task.Noise``), and minimises the cross-entropy of the
solution tokens and ``</s>`` after the very prompt ``leash sample`` builds (the ``plain``
template). The model and tokenizer are saved as an ordinary transformers folder. Seeded:
the same arguments give the same weights on the same machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sampler.benchmarks.prompts import PLAIN, prompt_token_ids
from sampler.toy_rlvr.model import default_threads, new_model, seed_everything
from sampler.toy_rlvr.task import Noise, Problem
from sampler.toy_rlvr.tokenizer import build_tokenizer

#: progress(step, steps, loss)
StepProgress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class SftSettings:
    steps: int = 300
    batch_size: int = 32
    learning_rate: float = 3e-3
    warmup: int = 20
    noise: Noise = field(default_factory=Noise)  # how the training solutions are wrong (task.Noise)
    seed: int = 0


def prompt_ids(tokenizer: Any, problem: Problem) -> list[int]:
    """The prompt token ids ``leash sample --template plain --chat-template off`` uses."""
    return prompt_token_ids(PLAIN, problem.problem, tokenizer, chat=False)


def _batch(
    tokenizer: Any, problems: list[Problem], rng: random.Random, noise: Noise, device: str
) -> tuple[Any, Any, Any]:
    import torch

    rows, labels = [], []
    for p in problems:
        prompt = prompt_ids(tokenizer, p)
        answer = tokenizer(p.solution(rng, noise), add_special_tokens=False)["input_ids"]
        answer = [*answer, tokenizer.eos_token_id]
        rows.append(prompt + answer)
        labels.append([-100] * len(prompt) + answer)
    width = max(len(r) for r in rows)
    pad = tokenizer.pad_token_id
    ids = torch.tensor([r + [pad] * (width - len(r)) for r in rows], device=device)
    mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows], device=device)
    target = torch.tensor([lab + [-100] * (width - len(lab)) for lab in labels], device=device)
    return ids, mask, target


def train_base(
    out: Path,
    problems: list[Problem],
    size: str,
    settings: SftSettings,
    device: str = "cpu",
    progress: StepProgress | None = None,
) -> Path:
    """Train the base model on ``problems`` and save it with its tokenizer to ``out``."""
    import torch

    seed_everything(settings.seed, default_threads(size))
    tokenizer = build_tokenizer()
    model = new_model(size, settings.seed).to(device)
    model.train()
    optim = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate, weight_decay=0.01)

    def schedule(step: int) -> float:
        if step < settings.warmup:
            return (step + 1) / settings.warmup
        left = max(1, settings.steps - settings.warmup)
        return max(0.05, 1.0 - (step - settings.warmup) / left)

    lr = torch.optim.lr_scheduler.LambdaLR(optim, schedule)
    rng = random.Random(f"sft-{settings.seed}")
    for step in range(settings.steps):
        batch = [problems[rng.randrange(len(problems))] for _ in range(settings.batch_size)]
        ids, mask, target = _batch(tokenizer, batch, rng, settings.noise, device)
        loss = model(input_ids=ids, attention_mask=mask, labels=target).loss
        optim.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optim.step()
        lr.step()
        if progress is not None:
            progress(step + 1, settings.steps, float(loss.detach()))
    model.eval()
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
