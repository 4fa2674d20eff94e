"""The vLLM engine: offline ``LLM``, each sample its own seeded request.

vLLM runs ``SamplingParams(n=k, seed=s)`` as k child requests with seeds s .. s+k-1
that share the prompt through prefix caching. leash submits exactly those child
requests itself (n=1, seed s + i), which draws the very same samples, shares the
prompt the same way (prefix caching is on), and lets each sample come back alone,
in ``FINAL_ONLY`` mode with flat log-probabilities, as soon as it ends: its top-k
log-probabilities are reduced to entropy sums in one vectorised step and dropped,
so memory stays bounded by the samples in flight however large k is (one n=8192
request would hold every finished sample's log-probabilities until the last one
ends). Requests are fed a window at a time, and a question is handed back as soon
as its last sample ends. Text is decoded once per sample from its token ids; vLLM
detokenizes itself only when stop strings need it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sampler.sample.config import ModelSettings
from sampler.sample.engines.base import OnDone, SampleAccumulator, SamplingOptions, WorkItem
from sampler.sample.token_entropy import topk_entropies

#: Keep at least this many samples queued in the engine (and at least one question).
MIN_WINDOW_SAMPLES = 2048


@dataclass
class _Active:
    item: WorkItem
    samples: list[SampleAccumulator]
    n_finished: int = 0


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

    def sampling_params(self, seed: int, max_tokens: int) -> Any:
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind

        o = self.options
        params = SamplingParams(
            n=1,
            seed=seed,
            temperature=o.temperature,
            top_p=o.top_p,
            top_k=o.top_k if o.top_k > 0 else 0,
            max_tokens=max_tokens,
            logprobs=min(o.logprobs, self.vocab_size) if o.logprobs else None,
            stop=list(o.stop) or None,
            stop_token_ids=list(o.stop_token_ids) or None,
            flat_logprobs=True,
            detokenize=bool(o.stop),
            skip_special_tokens=True,
        )
        params.output_kind = RequestOutputKind.FINAL_ONLY
        return params

    def run(self, items: Iterable[WorkItem], on_done: OnDone) -> None:
        engine = self.llm.llm_engine
        pending = deque(items)
        active: dict[int, _Active] = {}
        in_flight = 0
        numbers = itertools.count()
        detail = self.options.token_detail
        width = 1 + min(self.options.logprobs, self.vocab_size) if self.options.logprobs else 0

        while pending or in_flight:
            while pending and (in_flight < self.window_samples or not active):
                item = pending.popleft()
                number = next(numbers)
                state = _Active(item, [])
                active[number] = state
                for i in range(item.n):
                    sample = item.first_sample + i
                    state.samples.append(SampleAccumulator(sample, keep_detail=sample < detail))
                    # what vLLM's n-fan-out does: child i of seed s is seeded s + i
                    params = self.sampling_params(item.seed + sample, item.max_tokens)
                    prompt = {"prompt_token_ids": list(item.prompt_token_ids)}
                    engine.add_request(f"{number}:{i}", prompt, params)
                in_flight += item.n
            if not engine.has_unfinished_requests():
                raise RuntimeError("vLLM has no unfinished request but samples are missing")
            ended: list[tuple[SampleAccumulator, Any]] = []
            touched: set[int] = set()
            for out in engine.step():
                if not out.finished:
                    continue
                head, _, index = out.request_id.partition(":")
                number = int(head)
                touched.add(number)
                state = active[number]
                c = out.outputs[0]
                acc = state.samples[int(index)]
                acc.token_ids = list(c.token_ids)
                if self.options.stop:
                    acc.text_parts.append(c.text)
                acc.finish_reason = str(c.finish_reason)
                acc.cumulative_logprob = c.cumulative_logprob
                ended.append((acc, c.logprobs))
                state.n_finished += 1
                in_flight -= 1
            if width and ended:
                self._add_entropies(
                    [lp.logprobs if lp else [] for _, lp in ended], [acc for acc, _ in ended], width
                )
            for number in sorted(touched):
                if active[number].n_finished < len(active[number].samples):
                    continue
                state = active.pop(number)
                on_done(state.item, [self._record(acc) for acc in state.samples])

    def _add_entropies(
        self, flat: list[list[float]], owners: list[SampleAccumulator], width: int
    ) -> None:
        """Per-position entropies of the samples that ended in one step, all at once."""
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
