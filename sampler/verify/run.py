"""Verify a results folder: fill ``answer``, ``correct`` and ``status``, shard by shard.

``verify_results`` reads the shards that hold samples without a verdict (a shard
whose Parquet statistics say it has none is skipped unread), extracts each
answer, verifies the distinct (gold, answer) pairs through ``verify_pool`` and
writes every shard back whole with ``replace_shard`` (atomic rename). A run that
is killed loses at most the shards it had not yet written: the rerun finds them
still unverified and carries on, and never touches a finished shard again.

``force=True`` re-verifies every sample. Its progress is recorded in the manifest
(``verification.pending``) after each shard, so a killed ``--force`` run is
continued by a plain rerun instead of leaving old and new verdicts mixed. The
extraction config in use is stored in the manifest too; changing it on a folder
that already has verdicts requires ``force``.

A trusted source verdict (``leash import --trust-verdicts``) of a question without a
gold is never overwritten, not even by ``force``, and is not counted (verify.trusted).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.errors import LeashError
from sampler.store import (
    STATUS_CORRECT,
    STATUS_ERROR,
    STATUS_NO_ANSWER,
    STATUS_NO_GOLD,
    STATUS_TIMEOUT,
    STATUSES,
    ResultsFolder,
    as_folder,
    coverage_notes,
    footer_null_count,
    now_iso,
)
from sampler.verify.answers.extraction import (
    AnswerSpan,
    ExtractionConfig,
    extract_answer,
    statement_for_gold,
)
from sampler.verify.answers.golds import Gold, gold_from_question
from sampler.verify.answers.verdict import MAX_ANSWER_CHARS, Verdict
from sampler.verify.identity import record_grader, verifier_identity
from sampler.verify.trusted import Question, shard_trusted_rows, trusted_rows
from sampler.verify.verifiers import DEFAULT_VERIFIER, get_verifier
from sampler.verify.verifiers.grading import OtherVerifiers, check_available, question_golds
from sampler.verify.workers.answer_verifier import AnswerVerifier
from sampler.verify.workers.pool import DEFAULT_DEADLINE_S
from sampler.verify.workers.pools import Pool, make_pool

#: Shards are verified together until they hold this many samples to verify.
DEFAULT_BATCH_SAMPLES = 20_000
#: Samples whose answers are extracted before their new pairs go to the pool (a few
#: milliseconds of extraction: workers get their first pairs at once, and new ones often).
PART_SAMPLES = 64

Progress = Callable[[int, int], None]
#: the columns a verdict writes, with their Arrow types
VERDICT_COLUMNS = {
    "answer": pa.string(),
    "correct": pa.bool_(),
    "status": pa.string(),
    "score": pa.float64(),
    "verdict_detail": pa.large_string(),
    "verdict_source": pa.string(),
    "answer_written": pa.large_string(),
    "answer_rule": pa.string(),
}


@dataclass
class VerifySummary:
    """What one ``verify_results`` run did."""

    samples: int = 0
    verified: int = 0
    already_verified: int = 0
    shards: int = 0
    shards_written: int = 0
    distinct_answers: int = 0
    verifier_calls: int = 0
    calls_saved: int = 0
    no_gold: int = 0
    by_status: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    seconds: float = 0.0
    workers: int = 0
    deadline_s: float = DEFAULT_DEADLINE_S
    #: store.coverage notes on the folder (questions without samples of a model, ...)
    notes: list[str] = field(default_factory=list)

    @property
    def correct(self) -> int:
        return self.by_status[STATUS_CORRECT]

    @property
    def timeouts(self) -> int:
        return self.by_status[STATUS_TIMEOUT]

    @property
    def no_answer(self) -> int:
        return self.by_status[STATUS_NO_ANSWER]

    @property
    def errors(self) -> int:
        return self.by_status[STATUS_ERROR]

    def to_json(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "verified": self.verified,
            "already_verified": self.already_verified,
            "shards": self.shards,
            "shards_written": self.shards_written,
            "distinct_answers": self.distinct_answers,
            "verifier_calls": self.verifier_calls,
            "calls_saved": self.calls_saved,
            "no_gold": self.no_gold,
            "by_status": dict(self.by_status),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "deadline_s": self.deadline_s,
            "notes": list(self.notes),
        }


@dataclass
class _ShardPlan:
    path: Path
    rows: int
    to_verify: int
    redo_all: bool


def _unverified_rows(results: ResultsFolder, path: Path, retry: bool) -> tuple[int, int]:
    """(rows, rows to verify) of a shard; from the footer statistics when they suffice."""
    facts = results.footer_facts(path)
    rows = facts.rows
    if "status" not in facts.columns:
        return rows, rows
    if not retry:
        nulls = footer_null_count(results, path, "status")
        if nulls is not None:
            return rows, nulls
    status = results.read_shard(path, ["status"]).column("status")
    return rows, int(pc.sum(_needs_verdict(status, retry)).as_py() or 0)


def _shard_counts(
    results: ResultsFolder,
    path: Path,
    retry: bool,
    graded: set[Question],
    arrived: set[Question],
) -> tuple[int, int, int]:
    """(rows, rows to verify, trusted verdicts to keep) of a shard (verify.trusted);
    ``arrived``: questions with ``no_gold`` samples that now have a gold (graded again)."""
    rows, todo = _unverified_rows(results, path, retry)
    keep, regrade = shard_trusted_rows(results, path, graded)
    if not (keep.any() or regrade.any() or arrived):
        return rows, todo, 0
    table = results.read_shard(path, ["benchmark", "question_id", "status"])
    needs = np.asarray(_needs_verdict(table.column("status"), retry).to_numpy()) > 0
    needs |= _gold_arrived(table, arrived)
    return rows, int(((needs & ~keep) | regrade).sum()), int(keep.sum())


def _gold_arrived(table: pa.Table, graded: set[Question]) -> np.ndarray:
    """Rows with status ``no_gold`` whose question has a gold now (``graded``)."""
    status = table.column("status").cast(pa.string())
    marked = np.asarray(
        pc.fill_null(pc.equal(status, STATUS_NO_GOLD), False).to_numpy(zero_copy_only=False),
        dtype=bool,
    )
    if not marked.any() or not graded:
        return np.zeros(table.num_rows, dtype=bool)
    benchmark = table.column("benchmark").cast(pa.string()).to_pylist()
    question = table.column("question_id").cast(pa.string()).to_pylist()
    return marked & np.array(
        [(b, q) in graded for b, q in zip(benchmark, question, strict=True)], dtype=bool
    )


def _arrived(results: ResultsFolder, graded: set[Question]) -> set[Question]:
    """Questions with ``no_gold`` samples that have a gold now (from the footer counts)."""
    counts = results.verdict_counts()
    if not counts.num_rows or "n_no_gold" not in counts.column_names:
        return set()
    rows = counts.filter(pc.greater(counts.column("n_no_gold"), 0))
    keys = zip(
        rows.column("benchmark").cast(pa.string()).to_pylist(),
        rows.column("question_id").cast(pa.string()).to_pylist(),
        strict=True,
    )
    return {k for k in keys if k in graded}


def _graded(results: ResultsFolder) -> set[Question]:
    """The questions that have a gold (only their samples can be graded)."""
    table = results.questions
    return {
        (b, q)
        for b, q, g in zip(
            table.column("benchmark").to_pylist(),
            table.column("question_id").to_pylist(),
            table.column("gold").to_pylist(),
            strict=True,
        )
        if g is not None and str(g).strip()
    }


def _needs_verdict(status: pa.ChunkedArray | pa.Array, retry: bool) -> pa.ChunkedArray:
    """True where a row has no verdict yet (or, with ``retry``, a timeout or error)."""
    status = status.cast(pa.string())
    missing = pc.is_null(status)
    if retry:
        missing = pc.or_(
            missing, pc.fill_null(pc.is_in(status, pa.array([STATUS_TIMEOUT, STATUS_ERROR])), False)
        )
    return pc.cast(missing, pa.int64())


def _golds(results: ResultsFolder) -> dict[tuple[str, str], Gold | None]:
    table = results.questions
    return {
        (b, q): gold_from_question(g, m, problem=p)
        for b, q, g, m, p in zip(
            table.column("benchmark").to_pylist(),
            table.column("question_id").to_pylist(),
            table.column("gold").to_pylist(),
            table.column("metadata").to_pylist(),
            table.column("problem").to_pylist(),
            strict=True,
        )
    }


def resolve_extraction(
    stored: dict[str, Any], requested: ExtractionConfig | None, where: str
) -> ExtractionConfig:
    """The config to use: the one asked for, else the one stored in the manifest, else default."""
    if requested is not None:
        return requested
    if "extraction" in stored:
        return ExtractionConfig.from_json(stored["extraction"], f"{where}: verification.extraction")
    return ExtractionConfig()


def _math_verify_version() -> str:
    try:
        return metadata.version("math-verify")
    except metadata.PackageNotFoundError:
        return "unknown"


def _record(results: ResultsFolder, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``change`` to the manifest's ``verification`` object (under the folder lock)."""

    def apply(manifest: Any) -> None:
        change(manifest.verification)

    results.update_manifest(apply)


def _refuse_silent_config_change(
    root: Path, stored: dict[str, Any], requested: ExtractionConfig | None, has_verdicts: bool
) -> None:
    """Mixed verdicts from two extraction configs would be wrong: ask for --force."""
    if requested is None or "extraction" not in stored or not has_verdicts:
        return
    if requested.to_json() != stored["extraction"]:
        raise LeashError(
            f"{root}: verified before with extraction {json.dumps(stored['extraction'])};"
            " to re-verify every sample with the new one, add --force"
        )


def _plan(
    counts: dict[Path, tuple[int, int, int]], pending: dict[str, Any] | None
) -> list[_ShardPlan]:
    """What to verify in each shard: its unverified rows, or all of them in an unfinished
    --force run (``counts``: shard -> (rows, rows without a verdict, trusted kept))."""
    done = set(pending.get("done", [])) if pending else set()
    plans = []
    for path, (rows, todo, kept) in counts.items():
        redo = pending is not None and path.name not in done
        plans.append(_ShardPlan(path, rows, rows - kept if redo else todo, redo))
    return plans


def verify_results(
    folder: ResultsFolder | Path | str,
    *,
    force: bool = False,
    retry: bool = False,
    workers: int | None = None,
    deadline_s: float = DEFAULT_DEADLINE_S,
    extraction: ExtractionConfig | None = None,
    progress: Progress | None = None,
    batch_samples: int = DEFAULT_BATCH_SAMPLES,
    memory_limit_mb: int | None = None,
    pool: Pool | None = None,
) -> VerifySummary:
    """Verify the samples of results ``folder`` (a path is opened) that have no verdict yet.

    ``force`` re-verifies everything; ``retry`` also re-verifies timeouts and errors.
    ``extraction`` overrides the stored extraction config (a change on a folder with
    verdicts needs ``force``). ``progress(done, total)`` is called in samples.
    A caller that verifies often (several folders, or a sampler after each flush)
    may pass its own ``pool`` to keep warm workers; ``workers``, ``deadline_s`` and
    ``memory_limit_mb`` are then the pool's, and the caller closes it.
    """
    started = time.monotonic()
    results = as_folder(folder)
    root = results.root
    own_pool = pool is None
    if pool is None:
        limits = {"memory_limit_mb": memory_limit_mb} if memory_limit_mb is not None else {}
        pool = make_pool(workers=workers, deadline_s=deadline_s, **limits)
    with results.locks.verify(), pool if own_pool else contextlib.nullcontext():
        results.journal.clean_stale_files()
        stored = dict(results.manifest.verification)
        config = resolve_extraction(stored, extraction, str(root / "manifest.json"))
        pending = stored.get("pending") if isinstance(stored.get("pending"), dict) else None
        graded = _graded(results)
        arrived = _arrived(results, graded)
        counts = {
            p: _shard_counts(results, p, retry, graded, arrived) for p in results.shard_paths()
        }
        if force:
            pending = {"started": now_iso(), "done": []}
        else:
            has_verdicts = any(rows - kept > todo for rows, todo, kept in counts.values())
            _refuse_silent_config_change(root, stored, extraction, has_verdicts)
        plans = _plan(counts, pending)
        verifier_of = _verifiers(results, root)
        others_used = set(verifier_of.values()) - {DEFAULT_VERIFIER}
        check_available(others_used, str(root / "manifest.json"))

        def start(v: dict[str, Any]) -> None:
            v["extraction"] = config.to_json()
            v["deadline_s"] = pool.deadline_s
            v["math_verify"] = _math_verify_version()
            if others_used:
                v["verifiers"] = {b: n for b, n in sorted(verifier_of.items()) if n in others_used}
            else:
                v.pop("verifiers", None)
            if pending is not None:
                v["pending"] = pending
            else:
                v.pop("pending", None)

        _record(results, start)
        summary = VerifySummary(
            samples=sum(p.rows for p in plans),
            shards=len(plans),
            workers=pool.size,
            deadline_s=pool.deadline_s,
        )
        work = [p for p in plans if p.to_verify > 0]
        total = sum(p.to_verify for p in work)
        summary.already_verified = summary.samples - total
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(done, total)

        advance(0)
        verifier = AnswerVerifier(pool)
        others = OtherVerifiers(pool.size, pool.deadline_s, memory_limit_mb)
        distinct: set[tuple[str, str, str, bool]] = set()
        if work:
            pool.prestart()  # math-verify loads while the shards are read
            golds = _golds(results)
            pool.preparse([g.latex for g in golds.values() if isinstance(g, Gold)])
            golds.update(question_golds(results.questions, verifier_of))
            graders = _Graders(verifier, others, verifier_of)
            for batch in _batches(results, work, batch_samples):
                _verify_batch(batch, retry, golds, config, graders, summary, distinct, advance)
                for plan, table in batch:
                    results.replace_shard(plan.path, table)
                    summary.shards_written += 1
                    if pending is not None:
                        _record(results, _marker(plan.path.name))
        if pending is not None:
            _record(results, lambda v: v.pop("pending", None))
        if work:
            results.refresh_index()
        summary.distinct_answers = len(distinct)
        others.close()
        summary.verifier_calls = verifier.counts.verifier_calls + others.calls
        summary.calls_saved = verifier.counts.calls_saved + others.cache_hits
        summary.no_gold = verifier.counts.no_gold
        summary.seconds = time.monotonic() - started
        identity = verifier_identity(config.to_json(), pool.deadline_s)

        def finish(v: dict[str, Any]) -> None:
            v["last_run"] = {"finished": now_iso(), **summary.to_json()}
            if summary.verified:
                record_grader(v, identity, replace=pending is not None, when=now_iso())

        _record(results, finish)
    summary.notes = coverage_notes(ResultsFolder.open(results.root))
    return summary


def _marker(name: str) -> Callable[[dict[str, Any]], None]:
    """A manifest change noting that shard ``name`` is done in the pending --force run."""

    def mark(v: dict[str, Any]) -> None:
        if isinstance(v.get("pending"), dict):
            v["pending"].setdefault("done", []).append(name)

    return mark


def _batches(
    results: ResultsFolder, work: list[_ShardPlan], batch_samples: int
) -> Iterator[list[tuple[_ShardPlan, pa.Table]]]:
    """Read shards and group them until a group holds ``batch_samples`` samples to verify."""
    batch: list[tuple[_ShardPlan, pa.Table]] = []
    size = rows = 0
    for plan in work:
        table = results.read_shard(plan.path, conform=True)
        batch.append((plan, table))
        size += plan.to_verify
        rows += plan.rows
        if size >= batch_samples or rows >= 4 * batch_samples:  # bound memory too
            yield batch
            batch, size, rows = [], 0, 0
    if batch:
        yield batch


@dataclass
class _Graders:
    """Math's deduplicating verifier, the other verifiers' front, and each benchmark's verifier."""

    math: AnswerVerifier
    others: OtherVerifiers
    verifier_of: dict[str, str]


def _verifiers(results: ResultsFolder, root: Path) -> dict[str, str]:
    """Each benchmark's verifier, from the manifest (checked to be one this leash knows)."""
    out = {}
    for entry in results.manifest.benchmarks:
        get_verifier(entry.verifier, f"{root / 'manifest.json'}: benchmark {entry.name!r}")
        out[entry.name] = entry.verifier
    return out


def _verify_batch(
    batch: list[tuple[_ShardPlan, pa.Table]],
    retry: bool,
    golds: dict[tuple[str, str], Any],
    config: ExtractionConfig,
    graders: _Graders,
    summary: VerifySummary,
    distinct: set[tuple[str, str, str, bool]],
    advance: Callable[[int], None],
) -> None:
    """Verify the rows that need it in every table of ``batch``; replace tables in place."""
    row_sets: list[list[int]] = []
    part_golds: list[Gold | None] = []
    part_spans: list[AnswerSpan | None] = []
    math_rows: list[int] = []  # positions among this batch's rows to verify
    other_items: list[tuple[str, Any, str | None]] = []
    other_rows: list[int] = []
    other_keys: list[tuple[str, str]] = []
    written: dict[int, tuple[str, str | None]] = {}  # position -> (answer as written, rule)
    position = 0
    graded = {key for key, gold in golds.items() if gold is not None}
    # the pool verifies each part's distinct pairs while the next part's answers are extracted
    math = graders.math.begin(on_samples_done=advance)
    for plan, table in batch:
        keep, regrade = trusted_rows(table, graded)
        if plan.redo_all:
            rows = np.flatnonzero(~keep).tolist()
        else:
            needs = np.asarray(_needs_verdict(table.column("status"), retry).to_numpy()) > 0
            needs |= _gold_arrived(table, graded)
            rows = np.flatnonzero((needs & ~keep) | regrade).tolist()
        row_sets.append(rows)
        if not rows:
            continue
        picked = table.select(["benchmark", "question_id", "model", "text"]).take(rows)
        strategies_by: dict[tuple[str, str], tuple[str, ...]] = {}
        for b, q, m, text in zip(
            picked.column("benchmark").to_pylist(),
            picked.column("question_id").to_pylist(),
            picked.column("model").to_pylist(),
            picked.column("text").to_pylist(),
            strict=True,
        ):
            position += 1
            name = graders.verifier_of.get(b, DEFAULT_VERIFIER)
            if name != DEFAULT_VERIFIER:
                other_rows.append(position - 1)
                other_items.append((name, golds.get((b, q)), text))
                other_keys.append((b, q))
                continue
            math_rows.append(position - 1)
            strategies = strategies_by.get((b, m))
            if strategies is None:
                strategies = strategies_by[(b, m)] = config.strategies_for(b, m)
            span = statement_for_gold(extract_answer(text, strategies), golds.get((b, q)), text)
            part_golds.append(golds.get((b, q)))
            part_spans.append(span)
            if span is not None:
                distinct.add((b, q, span.text, span.free_text))
                written[position - 1] = (span.text[:MAX_ANSWER_CHARS], span.rule)
            if len(part_spans) >= PART_SAMPLES:
                math.add(part_golds, part_spans)
                part_golds, part_spans = [], []
    math.add(part_golds, part_spans)
    verdicts: list[Verdict] = [Verdict(STATUS_ERROR)] * position
    for row, verdict in zip(math_rows, math.finish(), strict=True):
        verdicts[row] = verdict
    if other_items:
        other = graders.others.verify(other_items, on_samples_done=advance)
        for row, key, verdict in zip(other_rows, other_keys, other, strict=True):
            verdicts[row] = verdict
            if verdict.answer is not None:
                distinct.add((*key, verdict.answer, False))
    cursor = 0
    for position, ((plan, table), rows) in enumerate(zip(batch, row_sets, strict=True)):
        if not rows:
            continue
        mine = verdicts[cursor : cursor + len(rows)]
        found = [written.get(cursor + i, (None, None)) for i in range(len(rows))]
        cursor += len(rows)
        values = {name: table.column(name).to_pylist() for name in VERDICT_COLUMNS}
        for row, verdict, (text, how) in zip(rows, mine, found, strict=True):
            values["answer_written"][row], values["answer_rule"][row] = text, how
            values["answer"][row] = verdict.answer
            values["correct"][row] = verdict.status == STATUS_CORRECT
            values["status"][row] = verdict.status
            values["score"][row] = verdict.score
            values["verdict_detail"][row] = verdict.detail
            values["verdict_source"][row] = None  # leash's own verdict now
            summary.by_status[verdict.status] += 1
        summary.verified += len(rows)
        for name, kind in VERDICT_COLUMNS.items():
            index = table.schema.get_field_index(name)
            table = table.set_column(index, name, pa.array(values[name], kind))
        batch[position] = (plan, table)
