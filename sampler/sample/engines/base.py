"""The engine interface: what a sampling engine is given and what it hands back.

The parent process prepares ``WorkItem``s (one per model and question: prompt token
ids, how many samples from which index, the seed of sample 0, the token budget).
An engine draws the samples of each item and calls ``on_done(item, records)`` once
per item with all its ``SampleRecord``s, in any order of items; the caller writes
them. Engines never write files and never see more than the items they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from sampler.sample.token_entropy import PositionEntropies, SampleEntropy, sample_entropy


@dataclass(frozen=True)
class WorkItem:
    """Samples first_sample .. first_sample + n - 1 of one (model, question)."""

    benchmark: str
    question_id: str
    prompt_token_ids: tuple[int, ...]
    first_sample: int
    n: int
    seed: int
    max_tokens: int

    @property
    def key(self) -> tuple[str, str]:
        return (self.benchmark, self.question_id)


@dataclass
class SampleRecord:
    """One generated sample, ready to become a row of the samples table."""

    sample: int
    text: str
    n_tokens: int
    finish_reason: str | None
    cumulative_logprob: float | None
    entropy: SampleEntropy
    token_entropies: np.ndarray | None = None


@dataclass(frozen=True)
class SamplingOptions:
    """Run-wide parameters every engine applies the same way."""

    temperature: float
    top_p: float
    top_k: int
    logprobs: int
    stop: tuple[str, ...] = ()
    stop_token_ids: tuple[int, ...] = ()
    token_detail: int = 0


OnDone = Callable[[WorkItem, list[SampleRecord]], None]


class Engine(Protocol):
    """A loaded model that can draw samples. ``start`` loads it, ``close`` frees it."""

    vocab_size: int

    def start(self) -> None: ...

    def run(self, items: Iterable[WorkItem], on_done: OnDone) -> None: ...

    def close(self) -> None: ...


@dataclass
class SampleAccumulator:
    """Running state of one sample while its tokens arrive (vllm and openai engines)."""

    sample: int
    keep_detail: bool = False
    token_ids: list[int] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)
    sum_topk: float = 0.0
    sum_lower: float = 0.0
    sum_upper: float = 0.0
    n_scored: int = 0
    detail: list[np.ndarray] = field(default_factory=list)
    finish_reason: str | None = None
    cumulative_logprob: float | None = None

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    def add_entropies(self, ent: PositionEntropies, start: int, stop: int) -> None:
        if stop <= start:
            return
        self.sum_topk += float(ent.topk[start:stop].sum())
        self.sum_lower += float(ent.lower[start:stop].sum())
        self.sum_upper += float(ent.upper[start:stop].sum())
        self.n_scored += stop - start
        if self.keep_detail:
            self.detail.append(ent.topk[start:stop].astype(np.float32))

    def record(self, text: str, n_tokens: int) -> SampleRecord:
        detail = None
        if self.keep_detail:
            detail = np.concatenate(self.detail) if self.detail else np.zeros(0, np.float32)
        return SampleRecord(
            sample=self.sample,
            text=text,
            n_tokens=n_tokens,
            finish_reason=self.finish_reason,
            cumulative_logprob=self.cumulative_logprob,
            entropy=sample_entropy(self.sum_topk, self.sum_lower, self.sum_upper, self.n_scored),
            token_entropies=detail,
        )


def describe_exception(exc: BaseException) -> str:
    """One line naming an engine failure, for the parent's error message."""
    text = str(exc).strip().splitlines()
    first = text[-1] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def engine_kwargs_summary(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(kwargs.items()))
