"""The explorer's state, without any widget: pair comparison, filters, sorting, search, triage.

``ExplorerModel`` opens a results folder the cheap way (verdict counts and the
questions table; never completion text), compares the base with the selected
target through ``analysis.support.compare_questions``, and keeps the list of
questions on view as a numpy index array into that comparison. Filtering,
sorting and searching are vectorised (numpy / pyarrow.compute), so they stay
fast with hundreds of thousands of questions; widgets read only the rows they
show. Loading one question's samples (``load_question``) is the only read of
completion text, and the app runs it in a worker thread. The grading-disagreement
filter uses a table the app computes in a worker (``find_disagreements``: five
narrow columns, no text) and hands over with ``set_disagreements``.
"""

from __future__ import annotations

import contextlib
import ctypes
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.answer_stats import model_stats
from leash_tui.analysis.budget_curves import budget_curve
from leash_tui.analysis.grading_agreement import disagreements_by_question
from leash_tui.analysis.series import (
    Series,
    find_series,
    first_loss_step,
    flip_counts,
    support_strip,
)
from leash_tui.analysis.support import compare_questions, summary_rows
from leash_tui.analysis.support_names import CATEGORIES, SERIES_RATES
from leash_tui.analysis.witness_claims import fragile_mask
from leash_tui.explorer.model.list_view import column_mask, parse_column_filters
from leash_tui.explorer.model.pair_view import (
    SUPPORT_ORDER,
    PairView,
    QuestionRow,
    column_array,
    pair_keys,
)
from leash_tui.explorer.model.question_detail import QuestionDetail, load_question_detail
from leash_tui.report.folder_reads import agreement_samples
from sampler.errors import LeashError
from sampler.store import TAGS, ResultsFolder, TriageEntry, TriageJournal, answer_stats_table

#: Sort orders the sort key cycles through: (key, label).
SORTS = (
    ("support", "support change"),
    ("p", "p-value"),
    ("drop", "pass@1 drop"),
    ("id", "benchmark, id"),
    ("tag", "triage tag"),
    ("lost", "step the base's support was lost"),
    ("evidence", "evidence (losing side's upper bound)"),
    ("base", "base successes"),
    ("target", "target successes"),
    ("problem", "problem text"),
)
#: Tag filters the tag-filter key cycles through (None = no filter).
TAG_FILTERS: tuple[str | None, ...] = (None, "tagged", "untagged", *TAGS)


#: The rates the series plot draws against the training step.
SERIES_PLOT_RATES = SERIES_RATES


def open_counts(results: ResultsFolder) -> tuple[pa.Table, pa.Table | None]:
    """Verdict counts for the first paint; answer statistics None: the caller computes them
    after the first paint (``load_answer_stats``), as their cost grows with the variety of
    the answers (1,000 distinct per question: seconds) while the counts' does not."""
    counts = results.verdict_counts()
    give_back_memory()
    return counts, None


def load_answer_stats(results: ResultsFolder) -> pa.Table:
    """Per-question answer statistics of the folder: the shard index's when it is current,
    else from the key statistics, scanning the shards that need it (the store caches the
    result, so the next open has them at once)."""
    indexed = results.indexed_answer_stats()
    if indexed is not None:
        return indexed
    stats = results.key_stats()
    assert stats is not None  # scanning is allowed
    table = answer_stats_table(stats)
    del stats
    give_back_memory()
    return table


def give_back_memory() -> None:
    """Return freed memory to the system (Arrow's pool, then glibc's heap where there is
    one): the per-answer statistics of a folder of varied answers take hundreds of MB while
    they are summed, and the allocators would keep them, so that a long explorer session on
    a shared server holds only what it shows."""
    pa.default_memory_pool().release_unused()
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(None).malloc_trim(0)  # glibc only; elsewhere there is nothing to do


class ExplorerModel:
    """State of one explorer session over one results folder."""

    def __init__(
        self,
        results: ResultsFolder,
        journal: TriageJournal | None = None,
        counts: pa.Table | None = None,
        answer_stats: pa.Table | None = None,
        base: str | None = None,
        tau: float = 0.0,
    ):
        self.results = results
        #: support threshold (``leash explore --support-threshold``; 0: one success)
        self.tau = tau
        manifest = results.manifest
        self.counts = counts if counts is not None else results.verdict_counts()
        self.answer_stats = answer_stats
        present = set(pc.unique(self.counts.column("model")).to_pylist())
        #: a --base other than the manifest's: every other model is a target, and no series
        #: (a training series runs from the manifest's base)
        self.other_base = base is not None and (manifest.base is None or base != manifest.base.name)
        if base is not None:
            names = [m.name for m in manifest.models]
            if base not in names:
                raise LeashError(
                    f"--base {base}: no such model in {results.root} ({', '.join(names)})"
                )
            self.base = base
            self.targets = [n for n in names if n != base and n in present]
        elif manifest.base is None:
            raise LeashError(f"{results.root}: the manifest names no base model")
        else:
            self.base = manifest.base.name
            self.targets = [t.name for t in manifest.targets if t.name in present]
        if self.base not in present:
            raise LeashError(f"{results.root}: the base model {self.base!r} has no samples")
        if not self.targets:
            raise LeashError(f"{results.root}: no target model has samples to compare with")
        self.domains = {b.name: b.domain for b in manifest.benchmarks}
        self.journal = journal if journal is not None else results.triage_journal()
        self.questions = results.questions
        self._pairs: dict[str, PairView] = {}
        self.categories: set[str] = set()
        self.benchmark_filter: tuple[str, frozenset[str]] | None = None  # (label, names)
        self.tag_filter: str | None = None
        #: grading_agreement.disagreements_by_question of the folder, once computed;
        #: None before, or when no sample carries a source verdict
        self.disagreements: pa.Table | None = None
        self.disagreements_known = False
        self.disagreement_filter = False
        self._disagreement_masks: dict[str, np.ndarray] = {}
        #: per target of a training series: (states, flips, first loss step) per pair row
        self._series_cache: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.flip_filter = False
        #: show only questions whose support, for base or target, rests on few accepted samples
        self.fragile_filter = False
        self.search = ""
        self.sort = SORTS[0][0]
        self.target = self.targets[0]
        self.view = np.arange(0)
        self._tag_codes: np.ndarray | None = None
        self.refresh_view()

    # -- pair ------------------------------------------------------------------------
    @property
    def pair(self) -> PairView:
        return self.pair_with(self.target)

    def set_target(self, target: str) -> None:
        if target not in self.targets:
            raise LeashError(f"no target model named {target!r}")
        self.target = target
        self._tag_codes = None
        self.flip_filter = self.flip_filter and self.series() is not None
        self.refresh_view()

    @property
    def pair_title(self) -> str:
        """``base vs target``, with the support threshold when one was asked
        (``--support-threshold``: every category on screen depends on it)."""
        title = f"{self.base} vs {self.target}"
        return f"{title} · support τ = {self.tau:g}" if self.tau > 0 else title

    def next_target(self) -> str:
        self.set_target(self.targets[(self.targets.index(self.target) + 1) % len(self.targets)])
        return self.target

    @property
    def sample_count(self) -> int:
        return int(pc.sum(self.counts.column("n")).as_py() or 0)

    @property
    def unverified(self) -> int:
        """Samples of the base and the current target without a verdict yet."""
        counts = self.counts
        mine = pc.is_in(counts.column("model"), pa.array([self.base, self.target]))
        pending = pc.subtract(counts.column("n"), counts.column("n_verified"))
        if "n_no_gold" in counts.column_names:  # graded against nothing, not pending
            pending = pc.subtract(pending, counts.column("n_no_gold"))
        return int(pc.sum(pc.filter(pending, mine)).as_py() or 0)

    @property
    def total(self) -> int:
        return self.pair.table.num_rows

    # -- triage ------------------------------------------------------------------------
    def triage(self, row: QuestionRow) -> TriageEntry | None:
        return self.journal.get(row.benchmark, row.question_id, self.base, self.target)

    def tag_label(self, row: QuestionRow) -> str:
        entry = self.triage(row)
        if entry is None:
            return ""
        label = TAGS[entry.tag][0] if entry.tag in TAGS else ""
        return label + ("*" if entry.note else "")

    def set_tag(self, row: QuestionRow, tag: str | None) -> TriageEntry:
        entry = self.journal.record(row.benchmark, row.question_id, self.base, self.target, tag=tag)
        self._tag_codes = None
        return entry

    def set_note(self, row: QuestionRow, note: str | None) -> TriageEntry:
        entry = self.journal.record(
            row.benchmark, row.question_id, self.base, self.target, note=note or None
        )
        self._tag_codes = None
        return entry

    def reload_journal(self) -> bool:
        """Pick up tags other explorers wrote; True when anything changed."""
        changed = self.journal.refresh()
        if changed:
            self._tag_codes = None
        return changed

    @property
    def has_notes(self) -> bool:
        """Whether a question of this pair carries a note (``*`` in the tag column)."""
        return any(e.note for e in self.journal.tags_for_pair(self.base, self.target).values())

    def _tags(self) -> np.ndarray:
        """Per pair row: -1 untagged, else the tag's position in TAGS (len(TAGS) = note only)."""
        if self._tag_codes is None:
            codes = np.full(self.total, -1, dtype=np.int16)
            entries = self.journal.tags_for_pair(self.base, self.target)
            if entries:
                names = list(TAGS)
                keys = pa.array([f"{b}\x1f{q}" for b, q in entries], pa.string())
                where = pc.index_in(keys, value_set=self.pair.keys).to_pylist()
                for position, entry in zip(where, entries.values(), strict=True):
                    if position is not None:
                        codes[position] = (
                            names.index(entry.tag) if entry.tag in TAGS else len(names)
                        )
            self._tag_codes = codes
        return self._tag_codes

    # -- filters and sorting ------------------------------------------------------------
    def toggle_category(self, category: str) -> None:
        self.categories ^= {category}
        if self.categories == set(CATEGORIES):
            self.categories = set()
        self.refresh_view()

    def clear_filters(self) -> None:
        self.categories = set()
        self.benchmark_filter = None
        self.tag_filter = None
        self.disagreement_filter = False
        self.flip_filter = False
        self.fragile_filter = False
        self.search = ""
        self.refresh_view()

    def filter_benchmarks(self, label: str | None, names: set[str] | None) -> None:
        self.benchmark_filter = None if names is None else (label or "", frozenset(names))
        self.refresh_view()

    def cycle_tag_filter(self) -> str | None:
        self.tag_filter = TAG_FILTERS[(TAG_FILTERS.index(self.tag_filter) + 1) % len(TAG_FILTERS)]
        self.refresh_view()
        return self.tag_filter

    def find_disagreements(self) -> pa.Table | None:
        """The folder's grading disagreements per (question, model), or None when no sample
        carries a source verdict. Reads five narrow columns: run it in a worker."""
        samples = agreement_samples(self.results)
        if samples is None:
            return None
        if not pc.any(pc.is_valid(samples.column("source_correct"))).as_py():
            return None
        return disagreements_by_question(samples)

    def set_disagreements(self, table: pa.Table | None) -> None:
        self.disagreements = table
        self.disagreements_known = True
        self._disagreement_masks = {}

    def set_disagreement_filter(self, on: bool) -> None:
        self.disagreement_filter = on and self.disagreements is not None
        self.refresh_view()

    def _disagreement_mask(self) -> np.ndarray:
        """Per pair row: True where the base or the target has a grading disagreement."""
        if self.target not in self._disagreement_masks:
            table = self.disagreements
            assert table is not None
            mine = table.filter(pc.is_in(table.column("model"), pa.array([self.base, self.target])))
            keys = pair_keys(mine.column("benchmark"), mine.column("question_id"))
            hit = pc.is_in(self.pair.keys, value_set=keys.combine_chunks())
            self._disagreement_masks[self.target] = hit.to_numpy(zero_copy_only=False)
        return self._disagreement_masks[self.target]

    # -- training series (targets NAME@STEP) -------------------------------------------------
    def series(self) -> Series | None:
        """The training series the selected target belongs to, or None."""
        if self.other_base:
            return None
        try:
            runs = find_series(self.targets)
        except ValueError:
            return None
        return next((r for r in runs if self.target in dict(r.checkpoints).values()), None)

    def _series_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(states, flips, first loss step) per pair row, for the selected target's series.

        states[i, j] is 1 when question i is in the support of step j's model (the base is
        step 0) at that model's comparison budget, 0 when not, -1 when not compared.
        """
        run = self.series()
        if run is None:
            return None
        if self.target not in self._series_cache:
            keys = self.pair.keys
            states = np.full((self.total, len(run.steps)), -1, dtype=np.int8)
            for j, (_, model) in enumerate(run.models(self.base)):
                table = compare_questions(self.counts, self.base, model, tau=self.tau)
                passk = column_array(table, "passk_target")
                where = pc.index_in(
                    keys,
                    value_set=pair_keys(table.column("benchmark"), table.column("question_id")),
                )
                where_np = pc.fill_null(where, -1).to_numpy(zero_copy_only=False)
                found = where_np >= 0
                values = passk[where_np[found]]
                states[found, j] = np.where(np.isnan(values), -1, values >= 0.5)
            self._series_cache[self.target] = (
                states,
                flip_counts(states),
                first_loss_step(states, run.steps),
            )
        return self._series_cache[self.target]

    def series_rates(self, benchmarks: frozenset[str] | None = None) -> list[dict[str, Any]]:
        """Per step of the selected target's series (the base is step 0): NSCR, SRR and NDR
        of the questions of ``benchmarks`` (all: None), as ``leash report``'s series table."""
        run = self.series()
        if run is None:
            return []
        out = []
        for step, model in run.models(self.base):
            table = compare_questions(self.counts, self.base, model, tau=self.tau)
            if benchmarks:
                names = pa.array(sorted(benchmarks), pa.string())
                table = table.filter(pc.is_in(table.column("benchmark"), names))
            rows = summary_rows(table, self.domains, self.base, model, tau=self.tau)
            overall = next((r for r in rows if r["scope"] == "overall"), {})
            out.append({"step": step, **{k: overall.get(k) for k in SERIES_PLOT_RATES}})
        return out

    def strip(self, row: QuestionRow) -> str:
        """The question's support along the series' steps (``●●○``), or "" without a series."""
        arrays = self._series_arrays()
        if arrays is None:
            return ""
        states = arrays[0][row.index]
        return support_strip([None if s < 0 else bool(s) for s in states])

    def set_flip_filter(self, on: bool) -> bool:
        """Show only questions whose support flips back and forth (2+ changes along the
        steps); refused (False) when the target is not a checkpoint of a series."""
        self.flip_filter = on and self.series() is not None
        self.refresh_view()
        return self.flip_filter

    def toggle_fragile_filter(self) -> bool:
        """Show only fragile support claims: base or target correct on 1 to
        ``DEFAULT_MAX_SAMPLES`` samples (``leash witnesses`` lists their evidence)."""
        self.fragile_filter = not self.fragile_filter
        self.refresh_view()
        return self.fragile_filter

    def sorts(self) -> list[tuple[str, str]]:
        """The sorts on offer (key, label): the loss-step sort only when the target is part
        of a series."""
        return [(k, label) for k, label in SORTS if k != "lost" or self.series() is not None]

    def cycle_sort(self) -> str:
        """The next sort of ``sorts``."""
        keys = [k for k, _ in self.sorts()]
        at = keys.index(self.sort) if self.sort in keys else -1
        self.sort = keys[(at + 1) % len(keys)]
        self.refresh_view()
        return self.sort

    def set_sort(self, key: str) -> bool:
        """Sort by ``key`` (one of ``sorts``); False, and nothing changed, for another."""
        if key not in dict(self.sorts()):
            return False
        self.sort = key
        self.refresh_view()
        return True

    def set_search(self, text: str) -> None:
        self.search = text
        self.refresh_view()

    @property
    def sort_label(self) -> str:
        return dict(SORTS)[self.sort]

    def filter_description(self) -> str:
        parts = []
        if self.categories:
            parts.append("+".join(c for c in CATEGORIES if c in self.categories))
        if self.benchmark_filter:
            parts.append(self.benchmark_filter[0])
        if self.tag_filter:
            parts.append(
                f"tag:{TAGS[self.tag_filter][0] if self.tag_filter in TAGS else self.tag_filter}"
            )
        if self.flip_filter:
            parts.append("flips")
        if self.fragile_filter:
            parts.append("fragile")
        if self.search:
            parts.append(f"/{self.search}")
        return " ".join(parts)

    def refresh_view(self) -> None:
        pair = self.pair
        mask = np.ones(self.total, dtype=bool)
        if self.categories:
            mask &= np.isin(pair.category, [SUPPORT_ORDER[c] for c in self.categories])
        if self.benchmark_filter is not None:
            codes = [i for i, n in enumerate(pair.benchmark_names) if n in self.benchmark_filter[1]]
            mask &= np.isin(pair.benchmark_code, codes)
        if self.tag_filter is not None:
            tags = self._tags()
            if self.tag_filter == "tagged":
                mask &= tags >= 0
            elif self.tag_filter == "untagged":
                mask &= tags < 0
            else:
                mask &= tags == list(TAGS).index(self.tag_filter)
        if self.disagreement_filter and self.disagreements is not None:
            mask &= self._disagreement_mask()
        series = self._series_arrays() if self.flip_filter else None
        if series is not None:
            mask &= series[1] >= 2
        if self.fragile_filter:
            mask &= fragile_mask(pair.c_base) | fragile_mask(pair.c_target)
        columns = parse_column_filters(self.search) if self.search else None
        if columns is not None:
            for term in columns:
                mask &= column_mask(pair, self._tags(), term)
        elif self.search:
            needle = self.search
            ids = pair.table.column("question_id")
            hit = pc.or_(
                pc.fill_null(pc.match_substring(pair.problem, needle, ignore_case=True), False),
                pc.match_substring(ids, needle, ignore_case=True),
            )
            if "/" in needle:  # benchmark/id, the form warnings and witnesses print
                named = pc.binary_join_element_wise(
                    pair.table.column("benchmark").cast(pa.string()), ids.cast(pa.string()), "/"
                )
                hit = pc.or_(hit, pc.match_substring(named, needle, ignore_case=True))
            mask &= hit.to_numpy(zero_copy_only=False)
        rows = np.flatnonzero(mask)
        self.view = rows[self._order(rows)]

    # -- the remembered view ----------------------------------------------------------
    def view_state(self) -> dict[str, Any]:
        """The sort and filters the folder's next explorer opens with."""
        return {
            "sort": self.sort,
            "categories": sorted(self.categories),
            "tag_filter": self.tag_filter,
            "search": self.search,
        }

    def restore_view(self, saved: dict[str, Any]) -> None:
        """Apply a saved ``view_state`` (values no longer valid are left at the defaults)."""
        if saved.get("sort") in dict(SORTS):
            self.sort = saved["sort"]
        categories = saved.get("categories")
        if isinstance(categories, list):
            self.categories = {c for c in categories if c in CATEGORIES}
        if saved.get("tag_filter") in TAG_FILTERS:
            self.tag_filter = saved.get("tag_filter")
        if isinstance(saved.get("search"), str):
            self.search = saved["search"]
        self.refresh_view()

    def _order(self, rows: np.ndarray) -> np.ndarray:
        pair = self.pair
        p = np.nan_to_num(pair.fisher_p[rows], nan=2.0)
        support = (pair.natural[rows], -pair.c_base[rows], p, pair.category[rows])
        if self.sort in ("base", "target"):  # most successes first, then benchmark and id
            counts = pair.c_base if self.sort == "base" else pair.c_target
            return np.lexsort((pair.natural[rows], -counts[rows]))
        if self.sort == "problem":
            ranks = np.empty(self.total, dtype=np.int64)
            ranks[pc.sort_indices(pc.fill_null(pair.problem, "")).to_numpy()] = np.arange(
                self.total
            )
            return np.lexsort((pair.natural[rows], ranks[rows]))
        if self.sort == "support":
            keys = support
        elif self.sort == "p":
            keys = (*support, p)
        elif self.sort == "drop":
            keys = (*support, -pair.drop[rows])
        elif self.sort == "id":
            keys = (pair.natural[rows],)
        elif self.sort == "evidence":  # S and E with the smallest bound on the loser first
            keys = (*support, np.nan_to_num(pair.losing_upper[rows], nan=2.0))
        elif self.sort == "lost":  # earliest loss first; questions never lost after
            series = self._series_arrays()
            lost = np.full(rows.size, -1) if series is None else series[2][rows]
            keys = (*support, np.where(lost < 0, np.iinfo(np.int64).max, lost))
        else:  # tag: tagged first, in TAGS order
            tags = self._tags()[rows].astype(np.int32)
            keys = (*support, np.where(tags < 0, 10_000, tags))
        return np.lexsort(keys)

    # -- rows --------------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.view.size)

    def row(self, position: int) -> QuestionRow:
        return self.pair.row(int(self.view[position]))

    def _pair_index(self, benchmark: str, question_id: str) -> int | None:
        key = pa.array([f"{benchmark}\x1f{question_id}"], pa.string())
        return pc.index_in(key, value_set=self.pair.keys)[0].as_py()

    def position_of(self, benchmark: str, question_id: str) -> int | None:
        """Where a question sits in the current view, or None."""
        index = self._pair_index(benchmark, question_id)
        if index is None:
            return None
        hits = np.flatnonzero(self.view == index)
        return int(hits[0]) if hits.size else None

    def row_of(self, benchmark: str, question_id: str) -> QuestionRow | None:
        """A question's row of the current pair, in the view or not (None: not compared)."""
        index = self._pair_index(benchmark, question_id)
        return None if index is None else self.pair.row(int(index))

    # -- summaries ---------------------------------------------------------------------
    def pair_with(self, target: str) -> PairView:
        """The comparison of the base with ``target`` (computed once per target)."""
        if target not in self._pairs:
            table = compare_questions(self.counts, self.base, target, tau=self.tau)
            self._pairs[target] = PairView(table, self.questions)
        return self._pairs[target]

    def summary(self, target: str | None = None) -> list[dict]:
        """Summary rows of the base and ``target`` (default: the selected one), with
        entropies once the answer statistics are known. Safe to call from a worker."""
        target = target or self.target
        stats = self.answer_stats
        entropies = None
        if stats is not None:
            entropies = {m: model_stats(stats, m) for m in (self.base, target)}
        return summary_rows(
            self.pair_with(target).table,
            self.domains,
            self.base,
            target,
            entropies=entropies,
            tau=self.tau,
        )

    def budget(self, benchmarks: frozenset[str] | None = None) -> pa.Table:
        table = self.pair.table
        if benchmarks:
            table = table.filter(
                pc.is_in(table.column("benchmark"), pa.array(sorted(benchmarks), pa.string()))
            )
        return budget_curve(table, tau=self.tau)

    # -- one question (runs in a worker thread) ---------------------------------------------
    def load_question(self, row: QuestionRow) -> QuestionDetail:
        """The question's samples of base and target, and its reference traces."""
        return load_question_detail(self.results, row, self.base, self.target)
