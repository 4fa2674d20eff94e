"""The OpenAI-compatible engine: ``/v1/completions`` of a server (vLLM, SGLang) by URL.

Prompts are sent as token ids (rendered by leash, so every engine sees the same
prompt). A question's samples are requested in chunks of at most ``CHUNK_SAMPLES``
(``n`` per request) with the seed of the chunk's first sample; vLLM gives choice i
the seed ``seed + i``, so chunks reproduce exactly what one big request would draw.

At most ``concurrency`` requests are in flight. A failed request (connection error,
timeout, HTTP 408/429/5xx, a malformed answer, a wrong set of choices) is retried
with backoff up to ``retries`` times. A chunk is accepted once, only when complete,
and a question is handed back only when all its chunks are in, so retries never
duplicate a sample and a question that still fails is left out (a rerun fills it),
never half-written. Only the standard library is used (urllib).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sampler.errors import LeashError
from sampler.sample.config import ModelSettings
from sampler.sample.engines.base import (
    OnDone,
    SampleAccumulator,
    SampleRecord,
    SamplingOptions,
    WorkItem,
)
from sampler.sample.token_entropy import topk_entropies

CHUNK_SAMPLES = 64
RETRYABLE_HTTP = {408, 409, 425, 429, 500, 502, 503, 504}
MAX_BACKOFF_S = 30.0


class RetryableError(Exception):
    """A failure worth another try (network, overload, malformed answer)."""


@dataclass
class _Question:
    item: WorkItem
    chunks_left: int
    records: dict[int, SampleRecord] = field(default_factory=dict)


def _opener(url: str) -> urllib.request.OpenerDirector:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host in ("127.0.0.1", "localhost", "::1"):
        return urllib.request.build_opener(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener()


def server_models(url: str, timeout_s: float = 30.0) -> list[dict[str, Any]]:
    """``GET {url}/models``: the served models (with ``max_model_len`` on vLLM)."""
    endpoint = url.rstrip("/") + "/models"
    try:
        with _opener(url).open(endpoint, timeout=timeout_s) as response:
            payload = json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise LeashError(f"{endpoint}: the server did not answer ({exc})") from exc
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        raise LeashError(f"{endpoint}: not an OpenAI-compatible model list")
    return [m for m in data if isinstance(m, dict)]


class OpenAIEngine:
    """Sampling through an OpenAI-compatible completions endpoint."""

    def __init__(
        self, path: str, settings: ModelSettings, options: SamplingOptions, vocab_size: int
    ):
        if not settings.url:
            raise LeashError("the openai engine needs a server URL")
        self.url = settings.url.rstrip("/")
        self.served = settings.served_name or path
        self.settings = settings
        self.options = options
        self.vocab_size = vocab_size
        self.opener = _opener(self.url)
        self.path = path
        self.tokenizer: Any = None
        self.attempts = 0
        self.retried = 0

    def start(self) -> None:
        names = [str(m.get("id")) for m in server_models(self.url)]
        if self.served not in names:
            raise LeashError(
                f"{self.url}: serves {', '.join(names) or 'no model'}, not {self.served!r};"
                " set served_name"
            )
        if self.options.logprobs and not self.options.stop:
            from transformers import AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(
                self.settings.tokenizer or self.path,
                trust_remote_code=self.settings.trust_remote_code,
            )

    def decode(self, tokens: list[Any], text: str) -> str:
        """The sample's text decoded from its token ids, as the vllm engine does; the
        server's text when ids are not available (or stop strings cut the text)."""
        if self.tokenizer is None or not tokens:
            return text
        ids = []
        for token in tokens:
            name, _, number = str(token).partition(":")
            if name != "token_id" or not number.lstrip("-").isdigit():
                return text
            ids.append(int(number))
        return str(self.tokenizer.decode(ids, skip_special_tokens=True))

    def request_body(self, item: WorkItem, first: int, n: int) -> dict[str, Any]:
        o = self.options
        body: dict[str, Any] = {
            "model": self.served,
            "prompt": list(item.prompt_token_ids),
            "n": n,
            "seed": item.seed + first,
            "max_tokens": item.max_tokens,
            "temperature": o.temperature,
            "top_p": o.top_p,
            "skip_special_tokens": True,
        }
        if o.logprobs:
            body["logprobs"] = o.logprobs
            body["return_tokens_as_token_ids"] = True  # unique keys for the top-k entries
        if o.top_k > 0:
            body["top_k"] = o.top_k
        if o.stop:
            body["stop"] = list(o.stop)
        if o.stop_token_ids:
            body["stop_token_ids"] = list(o.stop_token_ids)
        return body

    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """One completions request; RetryableError for failures worth retrying."""
        data = json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + "/completions", data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with self.opener.open(request, timeout=self.settings.request_timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:500].decode("utf-8", "replace")
            if exc.code in RETRYABLE_HTTP:
                raise RetryableError(f"HTTP {exc.code}: {detail}") from exc
            raise LeashError(f"{self.url}/completions: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            raise RetryableError(f"no answer ({exc})") from exc
        try:
            payload = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise RetryableError(f"answer is not JSON ({exc})") from exc
        if not isinstance(payload, dict):
            raise RetryableError("answer is not a JSON object")
        return payload

    def fetch_chunk(self, item: WorkItem, first: int, n: int) -> list[SampleRecord]:
        """Request samples first .. first + n - 1, retrying until complete or out of tries."""
        body = self.request_body(item, first, n)
        delay = 1.0
        last = ""
        for attempt in range(self.settings.retries + 1):
            self.attempts += 1
            try:
                return self.parse_choices(self.post(body), item, first, n)
            except RetryableError as exc:
                last = str(exc)
                if attempt < self.settings.retries:
                    self.retried += 1
                    time.sleep(delay)
                    delay = min(delay * 2, MAX_BACKOFF_S)
        raise LeashError(
            f"{self.url}/completions: {item.benchmark}/{item.question_id} samples"
            f" {first}..{first + n - 1} failed after {self.settings.retries + 1} tries ({last})"
        )

    def parse_choices(
        self, payload: dict[str, Any], item: WorkItem, first: int, n: int
    ) -> list[SampleRecord]:
        choices = payload.get("choices")
        if not isinstance(choices, list):
            raise RetryableError("answer has no 'choices' list")
        by_index: dict[int, dict[str, Any]] = {}
        for choice in choices:
            index = choice.get("index") if isinstance(choice, dict) else None
            if not isinstance(index, int) or not 0 <= index < n or index in by_index:
                raise RetryableError(f"answer has a bad or repeated choice index {index!r}")
            by_index[index] = choice
        if len(by_index) != n:
            raise RetryableError(f"answer has {len(by_index)} choices, expected {n}")
        return [self._record(by_index[i], first + i) for i in range(n)]

    def _record(self, choice: dict[str, Any], sample: int) -> SampleRecord:
        acc = SampleAccumulator(sample, keep_detail=sample < self.options.token_detail)
        acc.finish_reason = choice.get("finish_reason") or None
        text = choice.get("text")
        if not isinstance(text, str):
            raise RetryableError("a choice has no text")
        logprobs = choice.get("logprobs") or {}
        tokens = logprobs.get("tokens") if isinstance(logprobs, dict) else None
        n_tokens = len(tokens) if isinstance(tokens, list) else 0
        token_lps = logprobs.get("token_logprobs") if isinstance(logprobs, dict) else None
        if isinstance(token_lps, list) and token_lps:
            acc.cumulative_logprob = float(sum(lp for lp in token_lps if lp is not None))
        top = logprobs.get("top_logprobs") if isinstance(logprobs, dict) else None
        k = self.options.logprobs
        if k and isinstance(top, list) and top:
            rows = np.full((len(top), k), np.nan)
            for pos, entry in enumerate(top):
                if isinstance(entry, dict) and entry:
                    values = sorted((float(v) for v in entry.values()), reverse=True)[:k]
                    rows[pos, : len(values)] = values
            acc.add_entropies(topk_entropies(rows, self.vocab_size), 0, len(top))
        return acc.record(self.decode(tokens or [], text), n_tokens)

    def run(self, items: Iterable[WorkItem], on_done: OnDone) -> None:
        questions: dict[int, _Question] = {}

        def chunks() -> Iterator[tuple[int, WorkItem, int, int]]:
            for number, item in enumerate(items):
                spans = [
                    (s, min(CHUNK_SAMPLES, item.n - s)) for s in range(0, item.n, CHUNK_SAMPLES)
                ]
                questions[number] = _Question(item, len(spans))
                for start, size in spans:
                    yield number, item, item.first_sample + start, size

        failures: list[str] = []
        limit = max(1, self.settings.concurrency)
        work = chunks()
        with ThreadPoolExecutor(max_workers=limit) as pool:
            running: dict[Future, int] = {}

            def submit_more() -> None:
                while len(running) < 2 * limit:
                    task = next(work, None)
                    if task is None:
                        return
                    number, item, first, size = task
                    running[pool.submit(self.fetch_chunk, item, first, size)] = number

            submit_more()
            while running:
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    number = running.pop(future)
                    question = questions.get(number)
                    try:
                        records = future.result()
                    except LeashError as exc:
                        failures.append(str(exc))
                        questions.pop(number, None)  # never written: a rerun redraws it
                        continue
                    if question is None:
                        continue  # an earlier chunk of this question failed
                    for r in records:
                        question.records.setdefault(r.sample, r)
                    question.chunks_left -= 1
                    if question.chunks_left == 0:
                        del questions[number]
                        on_done(
                            question.item, [question.records[s] for s in sorted(question.records)]
                        )
                submit_more()
        if failures:
            raise LeashError(
                f"{len(failures)} request(s) failed; the questions they belong to were not"
                f" written (run the same command again to complete them). First: {failures[0]}"
            )

    def close(self) -> None:
        pass
