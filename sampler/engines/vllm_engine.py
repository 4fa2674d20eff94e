"""The vLLM engine: offline ``LLM`` with one request of n samples per question.

Each question is one request with ``SamplingParams(n=..., seed=...)`` (vLLM computes
the prompt once and gives sample i the seed ``seed + i``); prefix caching is on.
Requests are fed to the engine a window at a time and read back step by step in
``DELTA`` mode with flat log-probabilities, so each sample's top-k log-probabilities
are reduced to entropy sums as they arrive and a question is handed back as soon as
its last sample ends. Nothing per token is kept but the token ids (and, for the
first ``token_detail`` samples, the per-token entropies). Text is decoded once per
sample from its token ids; vLLM detokenizes itself only when stop strings need it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sampler.engines.base import OnDone, SampleAccumulator, SamplingOptions, WorkItem
from sampler.run_config import ModelSettings
from sampler.token_entropy import topk_entropies

#: Keep at least this many samples queued in the engine (and at least one question).
MIN_WINDOW_SAMPLES = 2048


@dataclass
class _Active:
    item: WorkItem
    samples: list[SampleAccumulator]
    n_finished: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _on_cpu() -> bool:
    try:
        from vllm.platforms import current_platform
    except ImportError:
        return False
    return bool(current_platform.is_cpu())


class VllmEngine:
    """Offline vLLM sampling of one model (runs inside that model's worker process)."""

    def __init__(
        self,
        path: str,
        settings: ModelSettings,
        options: SamplingOptions,
        max_model_len: int,
        seed: int = 0,
    ):
        self.path = path
        self.settings = settings
        self.options = options
        self.max_model_len = max_model_len
        self.seed = seed
        self.llm: Any = None
        self.tokenizer: Any = None
        self.vocab_size = 0
        self.window_samples = MIN_WINDOW_SAMPLES

    def engine_kwargs(self) -> dict[str, Any]:
        s = self.settings
        kwargs: dict[str, Any] = {
            "model": self.path,
            "tokenizer": s.tokenizer or self.path,
            "dtype": s.dtype,
            "tensor_parallel_size": s.tensor_parallel_size,
            "gpu_memory_utilization": s.gpu_memory_utilization,
            "max_model_len": self.max_model_len,
            "enable_prefix_caching": True,
            "enforce_eager": s.enforce_eager,
            "trust_remote_code": s.trust_remote_code,
            "seed": self.seed,
        }
        if s.max_num_seqs:
            kwargs["max_num_seqs"] = s.max_num_seqs
        if _on_cpu():
            # vLLM's CPU sampler cannot rewind a seeded generator after a partial prefill
            # ("CPU Generator does not use offset"): never split a prompt on CPU.
            kwargs["enable_chunked_prefill"] = False
        if self.options.logprobs > 20:
            kwargs["max_logprobs"] = self.options.logprobs
        return kwargs

    def start(self) -> None:
        from vllm import LLM

        self.llm = LLM(**self.engine_kwargs())
        engine = self.llm.llm_engine
        self.vocab_size = int(engine.model_config.get_vocab_size())
        self.tokenizer = self.llm.get_tokenizer()
        max_num_seqs = getattr(engine.vllm_config.scheduler_config, "max_num_seqs", 256) or 256
        self.window_samples = max(MIN_WINDOW_SAMPLES, 4 * int(max_num_seqs))

    def sampling_params(self, item: WorkItem) -> Any:
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind

        o = self.options
        params = SamplingParams(
            n=item.n,
            seed=item.seed + item.first_sample,
            temperature=o.temperature,
            top_p=o.top_p,
            top_k=o.top_k if o.top_k > 0 else 0,
            max_tokens=item.max_tokens,
            logprobs=min(o.logprobs, self.vocab_size) if o.logprobs else None,
            stop=list(o.stop) or None,
            stop_token_ids=list(o.stop_token_ids) or None,
            flat_logprobs=True,
            detokenize=bool(o.stop),
            skip_special_tokens=True,
        )
        params.output_kind = RequestOutputKind.DELTA
        return params

    def run(self, items: Iterable[WorkItem], on_done: OnDone) -> None:
        engine = self.llm.llm_engine
        pending = deque(items)
        active: dict[str, _Active] = {}
        in_flight = 0
        counter = itertools.count()
        detail = self.options.token_detail
        width = 1 + min(self.options.logprobs, self.vocab_size) if self.options.logprobs else 0

        while pending or active:
            while pending and (in_flight < self.window_samples or not active):
                item = pending.popleft()
                request_id = f"leash-{next(counter)}"
                accs = [
                    SampleAccumulator(
                        item.first_sample + i, keep_detail=item.first_sample + i < detail
                    )
                    for i in range(item.n)
                ]
                active[request_id] = _Active(item, accs)
                engine.add_request(
                    request_id,
                    {"prompt_token_ids": list(item.prompt_token_ids)},
                    self.sampling_params(item),
                )
                in_flight += item.n
            if not engine.has_unfinished_requests():
                raise RuntimeError("vLLM has no unfinished request but samples are missing")
            outputs = engine.step()
            flat: list[list[float]] = []
            owners: list[SampleAccumulator] = []
            finished: list[str] = []
            for out in outputs:
                state = active.get(out.request_id)
                if state is None:
                    continue
                for c in out.outputs:
                    acc = state.samples[c.index]
                    if acc.finished:
                        continue
                    acc.token_ids.extend(c.token_ids)
                    if self.options.stop:
                        acc.text_parts.append(c.text)
                    if width and c.logprobs is not None and len(c.logprobs) > 0:
                        flat.append(c.logprobs.logprobs)
                        owners.append(acc)
                    if c.finish_reason is not None:
                        acc.finish_reason = str(c.finish_reason)
                        acc.cumulative_logprob = c.cumulative_logprob
                        state.n_finished += 1
                        in_flight -= 1
                if state.n_finished == len(state.samples):
                    finished.append(out.request_id)
            if flat:
                self._add_entropies(flat, owners, width)
            for request_id in finished:
                state = active.pop(request_id)
                on_done(state.item, [self._record(acc) for acc in state.samples])

    def _add_entropies(
        self, flat: list[list[float]], owners: list[SampleAccumulator], width: int
    ) -> None:
        """Per-position entropies of one engine step, for all samples at once."""
        lengths = np.fromiter((len(f) for f in flat), dtype=np.int64, count=len(flat))
        values = np.fromiter(
            itertools.chain.from_iterable(flat), dtype=np.float64, count=int(lengths.sum())
        )
        if values.size % width:
            raise RuntimeError(
                f"vLLM returned {values.size} log-probabilities, not rows of {width}"
            )
        rows = values.reshape(-1, width)[:, 1:]  # column 0 is the sampled token
        ent = topk_entropies(rows, self.vocab_size)
        positions = lengths // width
        ends = np.cumsum(positions)
        for acc, stop, n in zip(owners, ends.tolist(), positions.tolist(), strict=True):
            acc.add_entropies(ent, stop - n, stop)

    def _record(self, acc: SampleAccumulator):
        if self.options.stop:
            text = "".join(acc.text_parts)
        else:
            text = self.tokenizer.decode(acc.token_ids, skip_special_tokens=True)
        return acc.record(text, len(acc.token_ids))

    def close(self) -> None:
        """Stop vLLM's engine-core process and workers now, not at interpreter exit."""
        if self.llm is not None:
            with contextlib.suppress(Exception):
                self.llm.llm_engine.engine_core.shutdown()
        self.llm = None
