"""The deduplicating front of the verification pool: one verdict per distinct (gold, answer).

``AnswerVerifier`` turns a batch of (gold, answer span) per sample into one verdict per
sample, preparing each distinct span once per gold (``verdict.prepare_span``) and asking
the pool only for pairs it has not seen: samples of a question without a gold (status
``no_gold``) or without an answer are settled at once, integer answers against integer
golds by the shortcut, and every other distinct pair once, its verdict cached for the
rest of the run.
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

if TYPE_CHECKING:
    from sampler.verify.workers.pools import Pool


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
        if len(golds) != len(spans):
            raise ValueError("golds and spans must have the same length")
        verdicts: list[Verdict | None] = [None] * len(spans)
        pending: dict[tuple, list[int]] = {}
        tasks: list[VerifyTask] = []
        # a question's samples repeat a few answers: each is prepared once per gold (every
        # field ``prepare_span`` reads is in the key; the golds list keeps each id alive)
        prepared: dict[tuple, AnswerSpan] = {}
        instant = 0
        for i, (gold, span) in enumerate(zip(golds, spans, strict=True)):
            self.counts.samples += 1
            if gold is None:
                answer = span.text[:MAX_ANSWER_CHARS] if span is not None else None
                verdicts[i] = Verdict(STATUS_NO_GOLD, answer, NO_GOLD_DETAIL)
                self.counts.no_gold += 1
                instant += 1
                continue
            if span is None:
                verdicts[i] = Verdict(STATUS_NO_ANSWER)
                self.counts.no_answer += 1
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
            span = ready
            key = (gold.key(), span.text, span.free_text)
            cached = self._cache.get(key)
            if cached is not None:
                verdicts[i] = cached
                self.counts.cache_hits += 1
                instant += 1
                continue
            if key in pending:
                pending[key].append(i)
                self.counts.cache_hits += 1
                continue
            quick = integer_verdict(gold, span)
            if quick is not None:
                self._cache[key] = verdicts[i] = quick
                self.counts.integer_shortcuts += 1
                instant += 1
                continue
            pending[key] = [i]
            tasks.append(VerifyTask(gold, span))
        if instant and on_samples_done is not None:
            on_samples_done(instant)
        keys = list(pending)
        self.counts.verifier_calls += len(tasks)

        def done(task_index: int, verdict: Verdict) -> None:
            key = keys[task_index]
            if verdict.answer is None and verdict.status != STATUS_NO_ANSWER:
                # timeout or crash before normalising: keep the answer as written, so that
                # answer statistics still see it
                text = tasks[task_index].span.text[:MAX_ANSWER_CHARS]
                verdict = Verdict(verdict.status, text, verdict.detail)
            self._cache[key] = verdict
            for i in pending[key]:
                verdicts[i] = verdict
            if on_samples_done is not None:
                on_samples_done(len(pending[key]))

        self.pool.run(tasks, on_result=done)
        return [v if v is not None else Verdict(STATUS_ERROR) for v in verdicts]
