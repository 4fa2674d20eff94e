"""The deduplicating front of the verification pool: one verdict per distinct (gold, answer).

``AnswerVerifier`` turns a batch of (gold, answer span) per sample into one verdict per
sample, preparing each distinct span once per gold (``verdict.prepare_span``) and asking
the pool only for pairs it has not seen: samples of a question without a gold (status
``no_gold``) or without an answer are settled at once, integer answers against integer
golds by the shortcut, and every other distinct pair once, its verdict cached for the
rest of the run. Samples may come in parts (``begin``, ``SampleBatch.add``): each part's new
pairs go to the pool at once, so that workers verify while the caller extracts the next.
``VerifyCounts`` says how much work that saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sampler.store import STATUS_ERROR, STATUS_NO_ANSWER, STATUS_NO_GOLD
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.golds import Gold
from sampler.verify.answers.verdict import (
    MAX_ANSWER_CHARS,
    NO_GOLD_DETAIL,
    Verdict,
    VerifyTask,
    integer_verdict,
    prepare_span,
)
from sampler.verify.workers.streams import open_stream

if TYPE_CHECKING:
    from sampler.verify.workers.pools import Pool, Stream


@dataclass
class VerifyCounts:
    """What ``AnswerVerifier`` did: samples seen, distinct pairs, calls made and saved."""

    samples: int = 0
    no_answer: int = 0
    no_gold: int = 0
    verifier_calls: int = 0
    integer_shortcuts: int = 0
    cache_hits: int = 0

    @property
    def calls_saved(self) -> int:
        """Samples with an answer that needed no math-verify call of their own."""
        return self.cache_hits + self.integer_shortcuts


class AnswerVerifier:
    """Deduplicating front of a verification ``Pool``: one verdict per distinct (gold, answer)."""

    def __init__(self, pool: Pool):
        self.pool = pool
        self.counts = VerifyCounts()
        self._cache: dict[tuple, Verdict] = {}

    def verify(
        self,
        golds: Sequence[Gold | None],
        spans: Sequence[AnswerSpan | None],
        on_samples_done: Callable[[int], None] | None = None,
    ) -> list[Verdict]:
        """One verdict per sample; ``on_samples_done(n)`` reports progress in samples."""
        batch = self.begin(on_samples_done)
        batch.add(golds, spans)
        return batch.finish()

    def begin(self, on_samples_done: Callable[[int], None] | None = None) -> SampleBatch:
        """A batch whose samples come in parts (``SampleBatch``): the pool verifies the
        pairs of the first parts while the caller extracts the answers of the next."""
        return SampleBatch(self, on_samples_done)


class SampleBatch:
    """Samples given to an ``AnswerVerifier`` in parts: ``add(golds, spans)`` settles what it
    can at once and sends the new distinct pairs to the pool without waiting; ``finish()``
    returns one verdict per sample, in the order they were added."""

    def __init__(self, verifier: AnswerVerifier, on_samples_done: Callable[[int], None] | None):
        self.verifier = verifier
        self.counts = verifier.counts
        self.stream: Stream = open_stream(verifier.pool, self._done)
        self.on_samples_done = on_samples_done
        self.verdicts: list[Verdict | None] = []
        self.pending: dict[tuple, list[int]] = {}
        self.keys: list[tuple] = []
        self.tasks: list[VerifyTask] = []
        # a question's samples repeat a few answers: each is prepared once per gold (every
        # field ``prepare_span`` reads is in the key; ``golds`` keeps each id alive)
        self.prepared: dict[tuple, AnswerSpan] = {}
        self.golds: list[Gold] = []

    def add(self, golds: Sequence[Gold | None], spans: Sequence[AnswerSpan | None]) -> None:
        if len(golds) != len(spans):
            raise ValueError("golds and spans must have the same length")
        counts, cache = self.counts, self.verifier._cache
        verdicts, pending, prepared = self.verdicts, self.pending, self.prepared
        first_task = len(self.tasks)
        instant = 0
        for gold, span in zip(golds, spans, strict=True):
            i = len(verdicts)
            verdicts.append(None)
            counts.samples += 1
            if gold is None:
                answer = span.text[:MAX_ANSWER_CHARS] if span is not None else None
                verdicts[i] = Verdict(STATUS_NO_GOLD, answer, NO_GOLD_DETAIL)
                counts.no_gold += 1
                instant += 1
                continue
            if span is None:
                verdicts[i] = Verdict(STATUS_NO_ANSWER)
                counts.no_answer += 1
                instant += 1
                continue
            seen = (
                id(gold),
                span.text,
                span.free_text,
                span.prose,
                span.rule,
                span.sentence,
                span.last_statement,
            )
            ready = prepared.get(seen)
            if ready is None:
                ready = prepared[seen] = prepare_span(span, gold)
                self.golds.append(gold)
            span = ready
            key = (gold.key(), span.text, span.free_text)
            cached = cache.get(key)
            if cached is not None:
                verdicts[i] = cached
                counts.cache_hits += 1
                instant += 1
                continue
            if key in pending:
                pending[key].append(i)
                counts.cache_hits += 1
                continue
            quick = integer_verdict(gold, span)
            if quick is not None:
                cache[key] = verdicts[i] = quick
                counts.integer_shortcuts += 1
                instant += 1
                continue
            pending[key] = [i]
            self.keys.append(key)
            self.tasks.append(VerifyTask(gold, span))
        if instant and self.on_samples_done is not None:
            self.on_samples_done(instant)
        counts.verifier_calls += len(self.tasks) - first_task
        self.stream.add(self.tasks[first_task:])

    def _done(self, task_index: int, verdict: Verdict) -> None:
        key = self.keys[task_index]
        if verdict.answer is None and verdict.status != STATUS_NO_ANSWER:
            # timeout or crash before normalising: keep the answer as written, so that
            # answer statistics still see it
            text = self.tasks[task_index].span.text[:MAX_ANSWER_CHARS]
            verdict = Verdict(verdict.status, text, verdict.detail)
        self.verifier._cache[key] = verdict
        for i in self.pending[key]:
            self.verdicts[i] = verdict
        if self.on_samples_done is not None:
            self.on_samples_done(len(self.pending[key]))

    def finish(self) -> list[Verdict]:
        """One verdict per sample added, once the pool has answered every pair."""
        self.stream.finish()
        return [v if v is not None else Verdict(STATUS_ERROR) for v in self.verdicts]
