"""What every teacher-forcing scorer returns and shares: per-position scores and tokenizer use.

``TokenScores`` holds a continuation's per-token negative log-likelihoods and entropies
(natural logs); ``TokenizedScorer`` is the tokenizer half that the transformers
(``teacher_forcing``) and vLLM (``vllm_scorer``) scorers share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TokenScores:
    """Per-position scores of one continuation, natural logs.

    ``nll`` has one entry per continuation token; ``entropy`` one per scored
    position (one more than ``nll`` when the position after the last token was asked).
    """

    nll: np.ndarray
    entropy: np.ndarray

    @property
    def mean_nll(self) -> float | None:
        return float(self.nll.mean()) if self.nll.size else None

    @property
    def mean_entropy(self) -> float | None:
        return float(self.entropy.mean()) if self.entropy.size else None


class TokenizedScorer:
    """What every teacher-forcing engine does with its tokenizer (``self.tokenizer``)."""

    tokenizer: Any

    def encode(self, text: str) -> list[int]:
        """Token ids of a continuation (no special tokens added)."""
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def end_token(self) -> int | None:
        """The end-of-sequence token id, when the tokenizer has one."""
        eos = self.tokenizer.eos_token_id
        return None if eos is None else int(eos)
