"""Teacher forcing with transformers: one forward pass over a prompt and a given continuation.

For a prompt x and a continuation t_1..t_n the model's next-token distributions
p_i = p(. | x, t_<i) give, per continuation token,

    NLL_i = -ln p_i(t_i)                    (for perplexity: exp(mean_i NLL_i))
    H_i   = -sum_v p_i(v) ln p_i(v)         (exact token entropy, full vocabulary)

and, with ``after_last``, the distribution after t_n as well (H only): the position at
which a sample that ended with an end-of-sequence token drew that token, so a stored
sample's positions are the ones sampling scored. The logits are computed from the
decoder's last hidden states in slices of ``chunk`` positions, so a long sequence
never holds a (length x vocabulary) float32 block at once.

vLLM: its public API returns prompt log-probabilities only as the top-k per position
(plus the scored token), never the full distribution, so the exact entropy needs this
engine; vLLM's prompt log-probabilities suffice for perplexity (``vllm_scorer``).

torch and transformers are imported when an engine starts, never at import time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sampler.errors import LeashError
from sampler.scoring.scores import TokenizedScorer, TokenScores

#: teacher-forcing engines leash has (``--engine``)
ENGINES = ("hf", "vllm")


class HfTeacherForcing(TokenizedScorer):
    """Teacher forcing with a transformers causal LM (GPU when there is one)."""

    def __init__(self, path: str, dtype: str = "auto", device: str | None = None, chunk: int = 512):
        self.path = path
        self.dtype = dtype
        self.device = device
        self.chunk = chunk
        self.model: Any = None
        self.tokenizer: Any = None

    def start(self) -> None:
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise LeashError(
                "the hf engine needs torch and transformers (pip install -e '.[hf]')"
            ) from exc
        if self.device is None:
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype: Any = "auto" if self.dtype == "auto" else getattr(torch, self.dtype, None)
        if dtype is None:
            raise LeashError(f"--dtype {self.dtype}: not a torch dtype (float32, bfloat16, …)")
        try:
            self.model = AutoModelForCausalLM.from_pretrained(self.path, dtype=dtype)
            self.tokenizer = AutoTokenizer.from_pretrained(self.path)
        except (OSError, ValueError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise LeashError(f"{self.path}: cannot load the model ({first})") from exc
        self.model.to(self.device).eval()

    def score(
        self, prompt: Sequence[int], continuation: Sequence[int], after_last: bool = False
    ) -> TokenScores:
        """NLL of each continuation token and entropy at each scored position."""
        import torch

        if not prompt:
            raise LeashError("teacher forcing needs at least one prompt token")
        ids = torch.tensor([list(prompt) + list(continuation)], device=self.device)
        first = len(prompt) - 1  # the position whose output predicts t_1
        last = ids.shape[1] - (0 if after_last else 1)  # exclusive
        with torch.no_grad():
            hidden = self._hidden(ids)[0, first:last]
            head = self.model.get_output_embeddings()
            nll, entropy = [], []
            targets = ids[0, first + 1 :]
            for start in range(0, hidden.shape[0], self.chunk):
                logits = head(hidden[start : start + self.chunk]).float()
                logp = torch.log_softmax(logits, dim=-1)
                entropy.append(torch.special.entr(logp.exp()).sum(-1))
                wanted = targets[start : start + self.chunk]
                nll.append(-logp[: wanted.shape[0]].gather(-1, wanted.unsqueeze(-1)).squeeze(-1))
        h = torch.cat(entropy).double().cpu().numpy() if entropy else np.zeros(0)
        n = torch.cat(nll).double().cpu().numpy() if nll else np.zeros(0)
        return TokenScores(nll=n[: len(continuation)], entropy=h)

    def _hidden(self, ids: Any) -> Any:
        """The decoder's last hidden states (final norm applied), without the LM head."""
        decoder = getattr(self.model, self.model.base_model_prefix, None)
        if decoder is None:
            raise LeashError(f"{self.path}: cannot find the decoder of this model class")
        return decoder(input_ids=ids).last_hidden_state

    def close(self) -> None:
        self.model = None


def teacher_forcing_engine(
    engine: str,
    path: str,
    dtype: str = "auto",
    device: str | None = None,
    need_entropy: bool = True,
    gpu_memory_utilization: float = 0.9,
    enforce_eager: bool = False,
) -> Any:
    """The teacher-forcing engine named ``engine`` for the model at ``path`` (not started).

    vLLM gives token log-probabilities (perplexity) but never the full distribution, so it
    is refused where the exact entropy is needed (``need_entropy``)."""
    if engine == "hf":
        return HfTeacherForcing(path, dtype=dtype, device=device)
    if engine == "vllm":
        if need_entropy:
            raise LeashError(
                "--engine vllm: vLLM returns only top-k log-probabilities per position, not"
                " the full distribution that exact entropy needs; use --engine hf"
            )
        from sampler.scoring.vllm_scorer import VllmTeacherForcing

        return VllmTeacherForcing(
            path,
            dtype=dtype,
            gpu_memory_utilization=gpu_memory_utilization,
            enforce_eager=enforce_eager,
        )
    raise LeashError(f"--engine {engine}: unknown (engines: {', '.join(ENGINES)})")
