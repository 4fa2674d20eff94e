"""The transformers engine: ``generate`` with sampling, for small models and CPU machines.

Samples of a question are drawn in batches of ``hf_batch_size`` on a fixed grid: batch b
holds samples b*B .. (b+1)*B - 1, is always drawn whole and its torch generator is seeded
with the seed of its first sample, so sample i is the same whichever samples a run asks
for (a resumed, extended or adaptive run draws the very samples of one full run; rows of
a batch that were not asked for are dropped). The raw logits of every step
(``output_logits``) give the exact full-vocabulary entropy of each generated token, so a
sample's top-k part and both bounds are the same number. A sample ends at an
end-of-sequence or stop token (counted in ``n_tokens``, as vLLM does) or at a stop string
(cut from the text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from sampler.sample.config import ModelSettings
from sampler.sample.engines.base import OnDone, SampleRecord, SamplingOptions, WorkItem
from sampler.sample.token_entropy import SampleEntropy


class HfEngine:
    """Sampling with transformers' ``generate`` (runs inside the model's worker process)."""

    def __init__(
        self, path: str, settings: ModelSettings, options: SamplingOptions, vocab_size: int
    ):
        self.path = path
        self.settings = settings
        self.options = options
        self.vocab_size = vocab_size
        self.model: Any = None
        self.tokenizer: Any = None
        self.device = "cpu"
        self.stop_ids: set[int] = set()

    def start(self) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        s = self.settings
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype: Any = "auto" if s.dtype == "auto" else getattr(torch, s.dtype)
        self.model = AutoModelForCausalLM.from_pretrained(
            self.path, dtype=dtype, trust_remote_code=s.trust_remote_code
        ).to(self.device)
        self.model.eval()
        self.tokenizer = AutoTokenizer.from_pretrained(
            s.tokenizer or self.path, trust_remote_code=s.trust_remote_code
        )
        self.vocab_size = int(self.model.get_output_embeddings().weight.shape[0])
        eos = self.model.generation_config.eos_token_id
        if eos is None:
            eos = self.tokenizer.eos_token_id
        eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
        self.stop_ids = {int(i) for i in eos_ids} | set(self.options.stop_token_ids)

    def run(self, items: Iterable[WorkItem], on_done: OnDone) -> None:
        batch = self.settings.hf_batch_size
        for item in items:
            records: list[SampleRecord] = []
            end = item.first_sample + item.n
            for first in range(item.first_sample - item.first_sample % batch, end, batch):
                drawn = self._generate(item, first, batch)
                records.extend(r for r in drawn if item.first_sample <= r.sample < end)
            on_done(item, records)

    def _generate(self, item: WorkItem, first: int, size: int) -> list[SampleRecord]:
        import torch
        from transformers import GenerationConfig

        o = self.options
        torch.manual_seed(item.seed + first)
        prompt = torch.tensor([list(item.prompt_token_ids)] * size, device=self.device)
        sampling = o.temperature > 0
        pad = self.tokenizer.pad_token_id
        if pad is None:
            pad = next(iter(self.stop_ids), 0)
        config = GenerationConfig(
            do_sample=sampling,
            temperature=o.temperature if sampling else None,
            top_p=o.top_p if sampling else None,
            top_k=o.top_k if sampling and o.top_k > 0 else None,
            max_new_tokens=item.max_tokens,
            eos_token_id=sorted(self.stop_ids) or None,
            pad_token_id=pad,
            output_logits=True,
            return_dict_in_generate=True,
            stop_strings=list(o.stop) or None,
        )
        with torch.no_grad():
            out = self.model.generate(
                prompt,
                attention_mask=torch.ones_like(prompt),
                generation_config=config,
                tokenizer=self.tokenizer if o.stop else None,
            )
            generated = out.sequences[:, prompt.shape[1] :]
            logits = torch.stack(out.logits, dim=1).float()  # (size, steps, V), raw
            logp = torch.log_softmax(logits, dim=-1)
            entropy = torch.special.entr(logp.exp()).sum(-1)  # exact, full vocabulary
            chosen = logp.gather(-1, generated.unsqueeze(-1)).squeeze(-1)
        tokens = generated.cpu().numpy()
        entropy_np = entropy.cpu().numpy().astype(np.float64)
        chosen_np = chosen.cpu().numpy().astype(np.float64)
        records = []
        for row in range(size):
            length, reason = self._end(tokens[row])
            text = self.tokenizer.decode(tokens[row, :length].tolist(), skip_special_tokens=True)
            if o.stop:
                text, cut = _cut_at_stop(text, o.stop)
                if cut:
                    reason = "stop"
            h = entropy_np[row, :length]
            detail = h.astype(np.float32) if first + row < o.token_detail else None
            mean = float(h.mean()) if length else None
            records.append(
                SampleRecord(
                    sample=first + row,
                    text=text,
                    n_tokens=length,
                    finish_reason=reason,
                    cumulative_logprob=float(chosen_np[row, :length].sum()),
                    entropy=SampleEntropy(mean, mean, mean),
                    token_entropies=detail,
                )
            )
        return records

    def _end(self, tokens: np.ndarray) -> tuple[int, str]:
        """Generated length (stop token included) and finish reason of one row."""
        if self.stop_ids:
            hits = np.flatnonzero(np.isin(tokens, list(self.stop_ids)))
            if hits.size:
                return int(hits[0]) + 1, "stop"
        if self.options.stop:
            # generation ended by a stop string: the rest of the row is padding
            for length in range(1, tokens.shape[0] + 1):
                text = self.tokenizer.decode(tokens[:length].tolist(), skip_special_tokens=True)
                if any(s in text for s in self.options.stop):
                    return length, "stop"
        return int(tokens.shape[0]), "length"

    def close(self) -> None:
        self.model = None


def _cut_at_stop(text: str, stops: tuple[str, ...]) -> tuple[str, bool]:
    """Text before the first stop string (vLLM leaves stop strings out too)."""
    cuts = [text.find(s) for s in stops if s and s in text]
    if not cuts:
        return text, False
    return text[: min(cuts)], True
