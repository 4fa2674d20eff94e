"""The RLVR reward: leash's own math verifier on a completion and the question's gold.

``VerifierReward`` is a TRL reward function (``reward(prompts, completions, answer=...)``):
1.0 for a completion whose extracted final answer the ``math`` verifier accepts, else 0.0.
It calls the very verifier ``leash verify`` grades the samples with (extraction, gold
parsing and judging), and caches verdicts by (gold, answer), since a toy model repeats
its answers often. The completions are short texts over the toy vocabulary.
"""

from __future__ import annotations

from typing import Any

from sampler.store import STATUS_CORRECT
from sampler.verify.verifiers import get_verifier


class VerifierReward:
    """A reward function for TRL's GRPOTrainer backed by the ``math`` verifier."""

    __name__ = "leash_verifier"

    def __init__(self) -> None:
        self.verifier = get_verifier("math")
        self._golds: dict[str, Any] = {}
        self._verdicts: dict[tuple[str, str, bool], bool] = {}

    def correct(self, text: str, gold: str) -> bool:
        span = self.verifier.extract(text)
        if span is None:
            return False
        key = (gold, span.text, span.free_text)
        if key not in self._verdicts:
            if gold not in self._golds:
                self._golds[gold] = self.verifier.gold(gold, {})
            verdict = self.verifier.judge(self._golds[gold], span)
            self._verdicts[key] = verdict.status == STATUS_CORRECT
        return self._verdicts[key]

    def __call__(self, prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float]:
        golds = kwargs["answer"]
        return [
            1.0 if self.correct(_text(c), str(g)) else 0.0
            for c, g in zip(completions, golds, strict=True)
        ]


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    return "".join(m.get("content", "") for m in completion)  # conversational format
