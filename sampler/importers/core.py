"""The shared core of every importer: check sample rows, stage them, commit all at once.

An importer (``sampler.importers.formats.jsonl`` and the modules of ``sampler.importers``)
reads its files in one streaming pass and hands each sample row to an
``ImportSession`` together with where it came from (file and line or row). The
session

* buffers rows column by column and writes them as hidden, sorted Parquet shards
  whenever the buffer holds ``STAGE_ROWS`` rows or ``STAGE_TEXT_CHARS`` characters
  of completion text, so memory does not grow with the input;
* finds a duplicate sample as soon as it is read, with one bit per sample index
  and question, and keeps one 64-bit key and one 64-bit location per sample (not
  the sample itself), from which it finds, once the pass is over, samples that
  the results folder already holds (reading only its key columns);
* keeps one problem and gold per question and refuses two different ones (golds
  that differ only in writing, 27 and 27.0, are the same), checking against the
  folder's questions too, and lets importers find a folder question by its text
  (``match_question``).

Imported verdicts are the source tool's and are kept as ``source_correct``; with
``trust_verdicts`` (``leash import --trust-verdicts``) ``commit`` also makes them the
verdicts of samples whose question has no gold, marked ``verdict_source`` = "source".

Only when everything is valid does ``commit`` publish the samples, the questions
and the manifest together. Into an existing folder, it checks that the folder does
not hold the samples already and commits under the folder lock, as one journaled
set of renames (store.commit_journal), so that of imports run at once each sample
is added once and an import killed at any instant is either absent or complete. A
new folder is built whole in a hidden directory of its own beside it and renamed
into place; of two imports creating one folder, the second is refused. Any error
raises LeashError naming the file and line, and the results folder is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sampler.benchmarks.presets import Benchmark, Question
from sampler.errors import LeashError
from sampler.importers.bad_records import BadRecords
from sampler.importers.import_keys import LINE_BITS, SampleKeys
from sampler.importers.question_book import QuestionBook
from sampler.importers.same_texts import SameTexts
from sampler.importers.staging import StagedShards
from sampler.importers.trusted import trust_staged
from sampler.store import (
    DEFAULT_DOMAIN,
    DEFAULT_VERIFIER,
    MANIFEST_FILE,
    QUESTIONS_FILE,
    ROLE_BASE,
    ROLE_TARGET,
    SAMPLES_DIR,
    STAGING_PREFIX,
    STATUS_ERROR,
    BenchmarkEntry,
    Manifest,
    ModelEntry,
    ResultsFolder,
    fsync_directory,
    new_manifest,
    new_work_dir,
    own,
    questions_table,
    remove_stale_work_dirs,
)


@dataclass
class ImportSummary:
    """What an import added."""

    samples: int = 0
    questions_added: int = 0
    models: dict[str, int] = field(default_factory=dict)
    benchmarks: dict[str, int] = field(default_factory=dict)
    with_verdict: int = 0
    with_source_verdict: int = 0
    #: source verdicts made the samples' verdicts (--trust-verdicts: questions without gold)
    trusted_verdicts: int = 0
    files: int = 0
    created: bool = False
    #: Things the input holds that the import ignored (unknown fields), one line each.
    warnings: list[str] = field(default_factory=list)
    #: --skip-bad-records: one line per file and reason of the records skipped
    skipped: list[str] = field(default_factory=list)
    #: Facts about the imported samples worth reading first (no gold, greedy dump), a line each
    notes: list[str] = field(default_factory=list)


class ImportSession:
    """One import into one results folder. Use as a context manager, then ``commit()``.

    ``add_sample`` takes rows with the SAMPLES_SCHEMA columns (benchmark, question_id,
    model, sample, text required; names already checked). ``file`` registers an
    input file and returns its index for the locations of its rows.
    """

    def __init__(
        self,
        folder: ResultsFolder | Path | str,
        base: str | None,
        model_source: str = "import",
        trust_verdicts: bool = False,
        base_later: bool = False,
        skip_bad_records: bool = False,
    ):
        self.folder = folder if isinstance(folder, ResultsFolder) else ResultsFolder(folder)
        self.root = self.folder.root
        self.base = base
        self.model_source = model_source
        self.trust_verdicts = trust_verdicts
        self.skip_bad_records = skip_bad_records
        self.bad_records = BadRecords()
        self.is_new = not self.folder.exists()
        self.manifest: Manifest | None = None
        if self.is_new:
            if self.root.exists() and (not self.root.is_dir() or any(self.root.iterdir())):
                raise LeashError(f"{self.root}: exists and is not a leash results folder")
            if base is None and not base_later:  # base_later: the importer sets self.base
                raise LeashError("--base is required when creating a new results folder")
        else:
            self.folder.journal.settle()
            self.manifest = self.folder.journal.manifest_now()
            current = self.manifest.base
            if current and base and current.name != base:
                raise LeashError(
                    f"--base {base}: {self.root} already has base model {current.name!r}"
                )
        self.summary = ImportSummary(created=self.is_new)
        self.paths: list[str] = []
        self._units: list[str] = []
        self._model_sources: dict[str, list[str]] = {}
        self._sample_keys = SampleKeys()
        self._same_texts = SameTexts()
        self.questions = QuestionBook()
        #: the folder's question of a problem text (``QuestionBook.match``), and a question's
        #: problem and gold recorded, two different ones refused (``QuestionBook.note``)
        self.match_question = self.questions.match
        self.note_question = self.questions.note
        if not self.is_new:
            self.questions.load_folder(self.folder.questions, str(self.root / QUESTIONS_FILE))
        self._domains: dict[str, tuple[str, str]] = {}
        # benchmarks given as specs (--bench NAME=SPEC): their questions, source, verifier
        self._spec_questions: dict[str, dict[str, Question]] = {}
        self._spec_sources: dict[str, str] = {}
        #: benchmark -> the input files its samples came from (its own, for the manifest)
        self._bench_files: dict[str, set[int]] = {}
        self._verifiers: dict[str, str] = {}
        self._spec_noted: set[tuple[str, str]] = set()
        # the folder (run) each (benchmark, question, model) of an evaluation output came from
        self._group_runs: dict[tuple[str, str, str], int] = {}
        # a work directory of this import's own: inside the folder, or beside a new one
        parent, prefix = (
            (self.root.parent, f".{self.root.name}.import-")
            if self.is_new
            else (self.root, STAGING_PREFIX)
        )
        try:
            remove_stale_work_dirs(parent, prefix)
            self._work = new_work_dir(parent, prefix)
        except OSError as exc:
            raise LeashError(f"{parent}: cannot write here ({exc.strerror or exc})") from exc
        self._owner = contextlib.ExitStack()
        self._owner.enter_context(own(self._work))
        self._staging = StagedShards(self._work / "stage")

    # -- context -------------------------------------------------------------------
    def __enter__(self) -> ImportSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self._owner.close()
        shutil.rmtree(self._work, ignore_errors=True)

    # -- inputs --------------------------------------------------------------------
    def file(self, path: Path | str, unit: str = "line", model: str | None = None) -> int:
        """Register an input file; ``unit`` names its records in errors ("line", "row")."""
        self.paths.append(str(path))
        self._units.append(unit)
        self.summary.files += 1
        if model is not None:
            self._model_sources.setdefault(model, []).append(str(path))
        return len(self.paths) - 1

    def where(self, file_index: int, number: int) -> str:
        """``PATH line N`` for a record of a registered file."""
        return f"{self.paths[file_index]} {self._units[file_index]} {number}"

    def next_sample_index(self, benchmark: str, question_id: str, model: str) -> int:
        """The next free sample index of a question and model in this import (0, 1, ...)."""
        return self._sample_keys.next_sample((benchmark, question_id, model))

    def use_benchmark(self, bench: Benchmark) -> None:
        """Take the questions, domain and verifier of ``bench`` (``--bench NAME=SPEC``); every
        sample of ``bench.name`` must then name one of its questions."""
        self._spec_questions[bench.name] = {q.question_id: q for q in bench.questions}
        self._spec_sources[bench.name] = bench.source
        self._verifiers[bench.name] = bench.verifier
        self._domains[bench.name] = (bench.domain, f"--bench {bench.name}")

    def use_golds(self, bench: Benchmark) -> None:
        """``--gold-from``: the golds of ``bench``'s questions join the imported questions of
        benchmark ``bench.name`` without a gold by problem text, at commit."""
        self.questions.use_golds(bench)

    def _note_spec_question(self, row: dict[str, Any], file_index: int, number: int) -> None:
        benchmark, question_id = row["benchmark"], row["question_id"]
        question = self._spec_questions[benchmark].get(question_id)
        if question is None:
            ids = list(self._spec_questions[benchmark])
            raise LeashError(
                f"{self.where(file_index, number)}: question_id {question_id!r} is not a question"
                f" of benchmark {benchmark!r} ({self._spec_sources[benchmark]}: ids"
                f" {ids[0]!r} … {ids[-1]!r})"
            )
        if (benchmark, question_id) not in self._spec_noted:
            self._spec_noted.add((benchmark, question_id))
            self.note_question(
                benchmark,
                question_id,
                question.problem,
                question.gold,
                f"--bench {benchmark}",
                question.metadata,
            )

    def add_sample(self, row: dict[str, Any], file_index: int, number: int) -> None:
        """Stage one checked sample row from record ``number`` of file ``file_index``."""
        if row["benchmark"] in self._spec_questions:
            self._note_spec_question(row, file_index, number)
        group = (row["benchmark"], row["question_id"], row["model"])
        if self.model_source not in ("import", "jsonl"):
            self._check_one_run(group, file_index, number)
        first = self._sample_keys.add(group, row["sample"], file_index, number)
        if first is not None:
            raise LeashError(
                f"{self.where(file_index, number)}: duplicate sample"
                f" (benchmark={group[0]}, question_id={group[1]}, model={group[2]},"
                f" sample={row['sample']}); first at {self._where_packed(first)}"
            )
        self._staging.add(row)
        if row.get("status") != STATUS_ERROR:
            self._same_texts.add(group, row["text"])
        summary = self.summary
        summary.samples += 1
        summary.models[row["model"]] = summary.models.get(row["model"], 0) + 1
        summary.benchmarks[row["benchmark"]] = summary.benchmarks.get(row["benchmark"], 0) + 1
        self._bench_files.setdefault(row["benchmark"], set()).add(file_index)
        summary.with_verdict += row.get("status") is not None
        summary.with_source_verdict += row.get("source_correct") is not None

    def _check_one_run(self, group: tuple[str, str, str], file_index: int, number: int) -> None:
        """An evaluation output numbers its samples itself: the samples of one question and
        model come from one folder (one run; its seed files side by side). The same question
        of the same model from two folders is two runs mixed into one model: refused."""
        first = self._group_runs.setdefault(group, file_index)
        if first == file_index:
            return
        here, there = Path(self.paths[file_index]).parent, Path(self.paths[first]).parent
        if here != there:
            raise LeashError(
                f"{self.where(file_index, number)}: question {group[0]}/{group[1]} of model"
                f" {group[2]!r} was read from {there} already: {here} and {there} look like"
                " two runs (or two models); import each as its own MODEL=DIR"
            )

    def note_domain(self, benchmark: str, domain: str, where: str) -> None:
        old = self._domains.get(benchmark)
        if old is None:
            self._domains[benchmark] = (domain, where)
        elif old[0] != domain:
            raise LeashError(
                f"{where}: benchmark {benchmark!r} has domain {domain!r} here but {old[0]!r}"
                f" at {old[1]}"
            )

    # -- checks --------------------------------------------------------------------
    def _where_packed(self, location: int) -> str:
        return self.where(location >> LINE_BITS, location & ((1 << LINE_BITS) - 1))

    def _check_not_in_folder(self) -> None:
        """Refuse samples the folder already holds (scans only the key columns)."""
        folder = self.folder
        columns = ["benchmark", "question_id", "model", "sample"]
        clash = self._sample_keys.clashes_with(folder.iter_shard_batches(columns))
        if clash is None:
            return
        key, location = clash
        raise LeashError(
            f"{self._where_packed(location)}: sample"
            f" {self._sample_keys.describe(key)} is already in {self.root};"
            " import never overwrites a sample"
            + (
                "; evaluation outputs are numbered from sample 0 for each model, so import"
                " all the files of a model in one run (or under another model name)"
                if self.model_source != "import" and self.model_source != "jsonl"
                else f"; importing the same file again? The folder already has it: import into"
                f" a new folder (another -o), or remove {self.root} first"
            )
        )

    # -- commit --------------------------------------------------------------------
    def commit(self, sources: Iterable[str] = ()) -> ImportSummary:
        """Check keys and base, then publish manifest, questions and shards together."""
        self._staging.flush()
        summary = self.summary
        summary.skipped = self.bad_records.lines()
        summary.warnings += self._same_texts.warnings()
        if summary.samples == 0:
            raise LeashError("no samples in the input: " + ", ".join(self.paths or sources))
        self.questions.join_golds(summary.benchmarks, summary.warnings)
        if self.trust_verdicts:
            trusted = trust_staged(self.folder, self._staging.files, self.questions.graded())
            summary.trusted_verdicts += trusted
            summary.with_verdict += trusted
        if self.is_new:
            if self.base is None:
                raise LeashError(
                    "--base is required when creating a new results folder (no step 0 read:"
                    f" models {', '.join(sorted(summary.models))})"
                )
            self._create()
        else:
            with self.folder.locks.metadata():
                manifest = self.folder.journal.manifest_now()  # as it is now, not at the start
                base = self._check_base(manifest)
                self._check_not_in_folder()
                self._check_domains(manifest)
                self._add_entries(manifest, base)
                moves = self._prepare(manifest, self.root)
                self.folder.journal.commit_moves(moves, self._work)
        self.folder.refresh_index()
        return summary

    def _check_base(self, manifest: Manifest | None) -> str:
        summary = self.summary
        known = {m.name for m in manifest.models} if manifest else set()
        all_models = set(summary.models) | known
        if manifest is not None and self.base is None and manifest.base is None:
            raise LeashError(f"{self.root} has no base model yet: give --base")
        base = self.base or (manifest.base.name if manifest and manifest.base else None)
        if base not in all_models:
            raise LeashError(
                f"--base {base}: no sample has model {base!r}"
                f" (models: {', '.join(sorted(all_models)) or 'none'})"
            )
        return str(base)

    def _check_domains(self, manifest: Manifest) -> None:
        for bench, (domain, where) in self._domains.items():
            entry = manifest.benchmark(bench)
            if entry is not None and entry.domain != domain:
                raise LeashError(
                    f"{where}: benchmark {bench!r} already has domain {entry.domain!r}"
                )
        for bench, verifier in self._verifiers.items():
            entry = manifest.benchmark(bench)
            if entry is not None and entry.verifier != verifier:
                raise LeashError(
                    f"--bench {bench}: benchmark {bench!r} is graded by {entry.verifier!r} in"
                    f" {self.root}, not {verifier!r}"
                )

    def _add_entries(self, manifest: Manifest, base: str) -> None:
        """Add this import's models and benchmarks to ``manifest`` (in memory), and the
        records it skipped to the manifest's notes."""
        summary = self.summary
        if summary.skipped:
            manifest.notes = "\n".join([*filter(None, [manifest.notes]), *summary.skipped])
        source_text = ", ".join(self.paths)
        for name in summary.models:
            if manifest.model(name) is None:
                role = ROLE_BASE if name == base else ROLE_TARGET
                files = self._model_sources.get(name)
                source = f"{self.model_source}: {', '.join(files)}" if files else "import"
                manifest.models.append(ModelEntry(name=name, role=role, source=source))
        for bench in summary.benchmarks:
            if manifest.benchmark(bench) is None:
                domain = self._domains.get(bench, (DEFAULT_DOMAIN, ""))[0]
                manifest.benchmarks.append(
                    BenchmarkEntry(
                        name=bench,
                        domain=domain,
                        source=self._spec_sources.get(bench)
                        or ", ".join(
                            self.paths[i] for i in sorted(self._bench_files.get(bench, ()))
                        )
                        or source_text,
                        verifier=self._verifiers.get(bench, DEFAULT_VERIFIER),
                    )
                )

    def _prepare(self, manifest: Manifest, folder: Path) -> list[tuple[Path, Path]]:
        """Write the new manifest and questions into the work directory; return every
        rename (work file -> its place in ``folder``) that publishes the import."""
        rows = self.questions.rows_to_write()
        into = ResultsFolder(folder)
        table, self.summary.questions_added = into.journal.merged_questions(questions_table(rows))
        work = self._work
        moves = [(staged, into.journal.new_shard_path()) for staged in self._staging.files]
        if table is not None:
            into.journal.stage_questions(work / QUESTIONS_FILE, table)
            moves.append((work / QUESTIONS_FILE, folder / QUESTIONS_FILE))
        moves.append((into.journal.stage_manifest(work, manifest), folder / MANIFEST_FILE))
        return moves

    def _create(self) -> None:
        """Build the new folder whole in the work directory, then rename it into place."""
        root, work = self.root, self._work
        base = self._check_base(None)
        manifest = new_manifest()
        self._check_domains(manifest)
        self._add_entries(manifest, base)
        (work / SAMPLES_DIR).mkdir(exist_ok=True)
        for source, target in self._prepare(manifest, work):
            os.replace(source, target)
        shutil.rmtree(work / "stage", ignore_errors=True)
        for directory in (work / SAMPLES_DIR, work):
            fsync_directory(directory)
        for leftover in work.glob(".*"):  # the owner lock: it must not move into the folder
            with contextlib.suppress(OSError):
                leftover.unlink()
        try:
            root.parent.mkdir(parents=True, exist_ok=True)
            os.rename(work, root)  # replaces a missing or empty folder, nothing else
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                raise LeashError(
                    f"{root}: created by another import while this one ran; nothing was"
                    " written; run this import again to add to it"
                ) from None
            raise LeashError(f"{root}: cannot be created ({exc.strerror or exc})") from exc
        fsync_directory(root.parent)
