"""One question on view: both models' samples, their answer histograms, and reference traces.

``load_question_detail`` runs in a worker thread: it reads the question's samples
without their texts (answers, statuses and other narrow columns of the row groups
that can hold it, ``read_question_rows``) and the question's rows of the perplexity
table (``ResultsFolder.perplexity``). A completion's text is read by row when its
sample is shown (``SideSamples.sample``), so a question of 8,192 samples of 40 KB per
model costs what its narrow columns cost. ``answer_span`` locates the final answer to highlight.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.answer_stats import answer_distribution, gold_share_and_rank
from sampler.errors import LeashError
from sampler.latex_boxed import boxed_spans
from sampler.store import (
    LOCATION_COLUMNS,
    WIDE_COLUMNS,
    ResultsFolder,
    RowCursor,
    read_question_rows,
)

if TYPE_CHECKING:
    from leash_tui.explorer.model.pair_view import QuestionRow

#: Columns read for every sample of the question on view (the texts are read by row).
SAMPLE_COLUMNS = (
    "model",
    "sample",
    "answer",
    "correct",
    "status",
    "finish_reason",
    "n_tokens",
    "token_entropy",
    "score",
    "answer_written",
    "answer_rule",
)
HISTOGRAM_ANSWERS = 5
#: Samples whose texts a side keeps after showing them (stepping back is instant).
TEXT_CACHE = 8
#: Where each side opens (``SideSamples.default_position``): the base on a correct sample
#: (what was lost), the target on its most common answer.
OPEN_BASE_ON, OPEN_TARGET_ON = "correct", "common"


@dataclass
class SideSamples:
    """One model's samples of the question on view, and its answer histogram."""

    model: str
    samples: pa.Table  # SAMPLE_COLUMNS and LOCATION_COLUMNS, sorted by sample
    histogram: list[tuple[str, int, bool]]  # most frequent answers first
    distinct_answers: int
    gold_share: float | None
    gold_rank: int | None
    shards: tuple[Path, ...] = ()  # where the rows' ``_shard`` locations point
    #: answer (normal form) -> how the model wrote it most often, where that differs
    written: dict[str, str] = field(default_factory=dict)
    _texts: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)
    _cursor: RowCursor | None = field(default=None, repr=False)
    #: the question screen reads texts in worker threads: one read at a time (the cursor),
    #: and the cache of texts held only for a lookup, so a cached text never waits on a read
    _read_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _cache_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __len__(self) -> int:
        return self.samples.num_rows

    def cached(self, position: int) -> dict[str, Any] | None:
        """Sample ``position`` as ``sample`` gives it when its text is at hand, else None
        (never reads a file)."""
        with self._cache_lock:
            wide = self._texts.pop(position, None)
            if wide is None:
                return None
            self._texts[position] = wide  # most recent last
        return self._with_row(position, wide)

    def sample(self, position: int) -> dict[str, Any]:
        """Sample ``position`` with its text and verdict detail (read now, by row, unless
        at hand; safe to call from several threads)."""
        at_hand = self.cached(position)
        if at_hand is not None:
            return at_hand
        with self._read_lock:
            wide = self._read_wide(position)
        with self._cache_lock:
            self._texts[position] = wide
            while len(self._texts) > TEXT_CACHE:
                self._texts.pop(next(iter(self._texts)))
        return self._with_row(position, wide)

    def _read_wide(self, position: int) -> dict[str, Any]:
        where = self.samples.select(list(LOCATION_COLUMNS)).slice(position, 1).to_pylist()[0]
        location = [where[c] for c in LOCATION_COLUMNS]
        if not self.shards or None in location:
            return dict.fromkeys(WIDE_COLUMNS)
        path, group = self.shards[location[0]], location[1]
        cursor = self._cursor
        if cursor is None or (cursor.path, cursor.group) != (path, group):
            cursor = self._cursor = RowCursor(path, group)  # stepping on continues
        return cursor.read(location[2])

    def _with_row(self, position: int, wide: dict[str, Any]) -> dict[str, Any]:
        row = self.samples.slice(position, 1).to_pylist()[0]
        for name in LOCATION_COLUMNS:
            row.pop(name, None)
        return {**row, **wide}

    def correct_flags(self) -> np.ndarray:
        return pc.fill_null(self.samples.column("correct"), False).to_numpy(zero_copy_only=False)

    def default_position(self, prefer: str) -> int:
        """Where a side opens: a correct sample (``"correct"``) or the most common answer."""
        if len(self) == 0:
            return 0
        if prefer == "correct":
            hits = np.flatnonzero(self.correct_flags())
            return int(hits[0]) if hits.size else 0
        if self.histogram and self.histogram[0][2]:
            return self.default_position("correct")  # the correct class is the most common
        if self.histogram:
            top = self.histogram[0][0]
            answers = self.samples.column("answer")
            match = pc.is_null(answers) if top == "NA" else pc.equal(answers, top)
            hits = np.flatnonzero(pc.fill_null(match, False).to_numpy(zero_copy_only=False))
            if hits.size:
                return int(hits[0])
        return 0


@dataclass(frozen=True)
class TraceScore:
    """A reference trace of the question scored under both models (``leash perplexity``)."""

    source: str
    n_tokens: int | None
    perplexity_base: float | None  # exp(mean NLL per token); None when not scored
    perplexity_target: float | None


@dataclass
class QuestionDetail:
    """Everything the question screen shows about one question."""

    row: QuestionRow
    base: SideSamples
    target: SideSamples
    metadata: str | None = None
    traces: list[TraceScore] = field(default_factory=list)
    sides: dict[str, SideSamples] = field(init=False)

    def __post_init__(self) -> None:
        self.sides = {"base": self.base, "target": self.target}


def answer_span(text: str, answer: str | None) -> tuple[int, int] | None:
    """Where the final answer sits in ``text``: the last \\boxed{...}, else the answer's last
    occurrence; None when neither is found."""
    spans = boxed_spans(text)
    if spans:
        start, end, _, _ = spans[-1]
        return start, end
    if answer:
        at = text.rfind(answer)
        if at >= 0:
            return at, at + len(answer)
    return None


def load_question_detail(
    results: ResultsFolder, row: QuestionRow, base: str, target: str
) -> QuestionDetail:
    """One question's samples without their texts (only its row groups are read, only the
    narrow columns) and its reference traces."""
    rows = read_question_rows(results, row.benchmark, row.question_id, SAMPLE_COLUMNS)
    detail = QuestionDetail(
        row=row,
        base=side_samples(rows.table, base, rows.shards),
        target=side_samples(rows.table, target, rows.shards),
        traces=question_traces(results, row, base, target),
    )
    # the texts each side opens on, read here in the worker: the screen paints at once
    for side, prefer in ((detail.base, OPEN_BASE_ON), (detail.target, OPEN_TARGET_ON)):
        if len(side):
            side.sample(side.default_position(prefer))
    return detail


def question_traces(
    results: ResultsFolder, row: QuestionRow, base: str, target: str
) -> list[TraceScore]:
    """The question's reference traces with each model's perplexity (none: [])."""
    try:
        table = results.perplexity(
            (row.benchmark, row.question_id),
            columns=["source", "trace", "model", "n_tokens", "mean_nll"],
        )
    except LeashError:
        return []  # a report names an unreadable table; the screen shows the samples
    scores: dict[tuple[str, str], dict[str, tuple[int | None, float | None]]] = {}
    for r in table.to_pylist():
        nll = r["mean_nll"]
        ppl = None if nll is None else math.exp(nll)
        scores.setdefault((r["source"], r["trace"]), {})[r["model"]] = (r["n_tokens"], ppl)
    out = []
    for (source, _), by_model in sorted(scores.items()):
        on_base, on_target = by_model.get(base), by_model.get(target)
        if on_base is None and on_target is None:
            continue
        n_tokens = (on_base or on_target or (None, None))[0]
        out.append(
            TraceScore(
                source,
                n_tokens,
                on_base[1] if on_base else None,
                on_target[1] if on_target else None,
            )
        )
    return out


def side_samples(table: pa.Table, model: str, shards: tuple[Path, ...] = ()) -> SideSamples:
    """One model's samples of the question, with its answer histogram, share and rank."""
    mine = table.filter(pc.equal(table.column("model"), model))
    answers, correct = mine.column("answer"), pc.fill_null(mine.column("correct"), False)
    # only verified samples are right or wrong; unverified ones are left out of the histogram
    verified = pc.is_valid(mine.column("status"))
    histogram = answer_distribution(answers.filter(verified), correct.filter(verified))
    share, rank = gold_share_and_rank(answers.filter(verified), correct.filter(verified))
    shown = list(histogram)[:HISTOGRAM_ANSWERS]
    return SideSamples(
        model=model,
        samples=mine,
        histogram=shown,
        distinct_answers=len(histogram),
        gold_share=None if share is None else float(share),
        gold_rank=rank,
        shards=shards,
        written=written_forms(mine, {answer for answer, _, _ in shown}),
    )


def written_forms(samples: pa.Table, answers: set[str]) -> dict[str, str]:
    """For each of ``answers`` (normal forms), the spelling its samples wrote most often
    (``answer_written``), where that differs from the normal form (``10^{100}`` for
    ``10**100``)."""
    if not answers or "answer_written" not in samples.column_names:
        return {}
    pairs = samples.select(["answer", "answer_written"]).filter(
        pc.and_(
            pc.is_in(samples.column("answer"), pa.array(sorted(answers), pa.string())),
            pc.is_valid(samples.column("answer_written")),
        )
    )
    if pairs.num_rows == 0:
        return {}
    counted = pairs.group_by(["answer", "answer_written"]).aggregate([([], "count_all")])
    out: dict[str, tuple[int, str]] = {}
    for answer, written, count in zip(
        counted.column("answer").to_pylist(),
        counted.column("answer_written").to_pylist(),
        counted.column("count_all").to_pylist(),
        strict=True,
    ):
        best = out.get(answer)
        if best is None or (count, written) > best:  # ties: the same choice every run
            out[answer] = (count, written)
    return {a: w for a, (_, w) in out.items() if w != a}
