"""Teacher forcing with vLLM: the log-probability of each given token, for perplexity only.

vLLM's offline ``LLM`` scores a prompt when asked for prompt log-probabilities
(``SamplingParams(prompt_logprobs=0, max_tokens=1)``): for every prompt position past
the first it returns the log-probability of the token that stands there. Given the
sampling prompt followed by a trace, the trace's positions give NLL_i = -ln p_i(t_i),
exactly as the hf engine computes them, with vLLM's batching and paged attention.
vLLM never returns the full next-token distribution, so no entropy comes from here
(``score`` with ``after_last`` is refused; exact entropy needs ``--engine hf``).

The engine runs in this process (``VLLM_ENABLE_V1_MULTIPROCESSING=0``), so the command
needs no ``__main__`` guard and leaves no engine process behind.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from sampler.errors import LeashError
from sampler.scoring.scores import TokenizedScorer, TokenScores


class VllmTeacherForcing(TokenizedScorer):
    """Prompt log-probabilities from an offline vLLM engine (perplexity, not entropy)."""

    def __init__(
        self,
        path: str,
        dtype: str = "auto",
        gpu_memory_utilization: float = 0.9,
        enforce_eager: bool = False,
    ):
        self.path = path
        self.dtype = dtype
        self.gpu_memory_utilization = gpu_memory_utilization
        self.enforce_eager = enforce_eager
        self.llm: Any = None
        self.tokenizer: Any = None

    def start(self) -> None:
        os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        try:
            from vllm import LLM
        except ImportError as exc:
            raise LeashError("--engine vllm needs vLLM (pip install -e '.[vllm]')") from exc
        try:
            self.llm = LLM(
                model=self.path,
                dtype=self.dtype,
                gpu_memory_utilization=self.gpu_memory_utilization,
                enforce_eager=self.enforce_eager,
                enable_prefix_caching=False,  # cached prefixes get no prompt log-probabilities
            )
        except (OSError, ValueError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise LeashError(f"{self.path}: cannot load the model with vLLM ({first})") from exc
        self.tokenizer = self.llm.get_tokenizer()

    def score(
        self, prompt: Sequence[int], continuation: Sequence[int], after_last: bool = False
    ) -> TokenScores:
        """NLL of each continuation token (``entropy`` is empty: vLLM has no full distribution)."""
        from vllm import SamplingParams

        if after_last:
            raise LeashError("--engine vllm gives no next-token distribution; use --engine hf")
        if not prompt:
            raise LeashError("teacher forcing needs at least one prompt token")
        ids = [*prompt, *continuation]
        params = SamplingParams(max_tokens=1, prompt_logprobs=0, temperature=0.0)
        output = self.llm.generate({"prompt_token_ids": ids}, params, use_tqdm=False)[0]
        scored = output.prompt_logprobs  # one entry per prompt position, None for the first
        nll = np.array(
            [-_logprob(scored[i], ids[i]) for i in range(len(prompt), len(ids))], dtype=np.float64
        )
        return TokenScores(nll=nll, entropy=np.zeros(0))

    def close(self) -> None:
        self.llm = None


def _logprob(position: Any, token: int) -> float:
    """The log-probability vLLM reports for ``token`` at one prompt position."""
    entry = position[token]
    return float(getattr(entry, "logprob", entry))
