"""The questions of an import in progress: one problem and gold each, found by their text.

``QuestionBook`` is the ``ImportSession``'s record of questions. It

* keeps one problem and gold per question and refuses two different ones (golds that differ
  only in writing, 27 and 27.0, are the same), the folder's questions included;
* finds a folder question by its problem text (``match``), white space aside, or, for a
  templated prompt that embeds the problem, by the longest folder problem of at least
  ``MIN_CONTAINED_CHARS`` characters it contains; a text several questions share matches
  none;
* joins ``--gold-from`` golds to the questions without one by problem text at commit
  (``join_golds``), naming the questions left without.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from sampler.benchmarks.presets import Benchmark
from sampler.errors import LeashError

#: A problem text found inside a prompt identifies the question only from this length on.
MIN_CONTAINED_CHARS = 40
AMBIGUOUS = "\x00ambiguous"  # a problem text that several folder questions share


@dataclass
class QuestionInfo:
    problem: str | None
    gold: str | None
    metadata: dict[str, Any] | None
    where: str
    in_folder: bool = False  # already in the folder's questions table
    changed: bool = False  # problem or gold filled in by this import


def clip(text: str, limit: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def normal_text(text: str) -> str:
    """A problem text with runs of white space made one space, for matching questions."""
    return " ".join(text.split())


def same_gold(a: str, b: str) -> bool:
    """Whether two gold answers are the same up to writing: spaces, $...$, 27 vs 27.0."""
    x, y = (g.strip().strip("$").strip() for g in (a, b))
    if x == y:
        return True
    try:
        return float(x) == float(y)
    except ValueError:
        return False


class QuestionBook:
    """The questions of one import (see the module docstring)."""

    def __init__(self) -> None:
        self.questions: dict[tuple[str, str], QuestionInfo] = {}
        self._by_text: dict[str, dict[str, str]] = {}  # benchmark -> normal text -> id
        # --gold-from BENCH=SPEC: normal problem text -> gold, per benchmark
        self._golds_by_text: dict[str, dict[str, str]] = {}
        self._gold_sources: dict[str, str] = {}
        #: (benchmark, problem) texts that came with several golds: keyed by (problem, gold)
        self.keyed_by_gold: set[tuple[str, str]] = set()

    def load_folder(self, table: pa.Table, where: str) -> None:
        """Take the questions the results folder holds already."""
        for row in table.to_pylist():
            key = (row["benchmark"], row["question_id"])
            self.questions[key] = QuestionInfo(
                row["problem"], row["gold"], None, where, in_folder=True
            )
            if row["problem"]:
                texts = self._by_text.setdefault(row["benchmark"], {})
                text = normal_text(row["problem"])
                texts[text] = AMBIGUOUS if text in texts else row["question_id"]

    def match(
        self, benchmark: str, proposed: str, problem: str | None, templated: bool = False
    ) -> tuple[str, bool]:
        """(id, matched): the folder's question of this problem text, else ``proposed``.

        An imported question is the folder's question whose problem text is the same, white
        space aside, so that samples imported from an evaluation tool join the samples leash
        made of the same question whatever id the tool gave it. A ``templated`` problem (a
        prompt embedding the question, as lighteval stores it) matches the longest folder
        problem of at least MIN_CONTAINED_CHARS characters that it contains. A text that
        several folder questions share matches none of them.
        """
        texts = self._by_text.get(benchmark)
        if not problem or not texts:
            return proposed, False
        text = normal_text(problem)
        found = texts.get(text)
        if found is not None:
            return (proposed, False) if found == AMBIGUOUS else (found, True)
        if not templated:
            return proposed, False
        best: tuple[int, str] | None = None
        for known, question_id in texts.items():
            if len(known) >= MIN_CONTAINED_CHARS and known in text:
                if best is None or len(known) > best[0]:
                    best = (len(known), question_id)
        if best is None or best[1] == AMBIGUOUS:
            return proposed, False
        return best[1], True

    def note(
        self,
        benchmark: str,
        question_id: str,
        problem: str | None,
        gold: str | None,
        where: str,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Record a question's problem and gold; a different one for the same id is an error."""
        key = (benchmark, question_id)
        info = self.questions.get(key)
        if info is None:
            self.questions[key] = QuestionInfo(problem, gold, metadata or None, where)
            return
        for name, value in (("problem", problem), ("gold", gold)):
            old = getattr(info, name)
            if value is None or old is None or old == value:
                continue
            if not (name == "gold" and same_gold(old, value)):
                raise LeashError(
                    f"{where}: field {name!r} of question {benchmark}/{question_id} differs from"
                    f" the one at {info.where} ({clip(value)!r} here, {clip(old)!r} there)"
                )
        for name, value in (("problem", problem), ("gold", gold)):
            if value is not None and getattr(info, name) is None:
                setattr(info, name, value)
                info.changed = True
        if metadata and not info.in_folder:
            info.metadata = {**metadata, **(info.metadata or {})}

    def golds(self) -> list[tuple[tuple[str, str], str | None]]:
        """((benchmark, question id), gold) of every question known."""
        return [(key, info.gold) for key, info in self.questions.items()]

    def gold_of(self, benchmark: str, question_id: str) -> str | None:
        info = self.questions.get((benchmark, question_id))
        return info.gold if info is not None else None

    def use_golds(self, bench: Benchmark) -> None:
        """``--gold-from``: the golds of ``bench``'s questions, joined at commit by text."""
        texts: dict[str, str] = {}
        for question in bench.questions:
            if question.problem and question.gold and question.gold.strip():
                texts[normal_text(question.problem)] = question.gold
        self._golds_by_text[bench.name] = texts
        self._gold_sources[bench.name] = bench.source

    @property
    def gold_benchmarks(self) -> set[str]:
        """The benchmarks ``--gold-from`` gives golds for."""
        return set(self._golds_by_text)

    def join_golds(self, benchmarks: dict[str, int], warnings: list[str]) -> None:
        """``--gold-from``: give each question of the named benchmarks without a gold the gold
        of the benchmark question with the same problem text (white space aside), else of
        the longest one of at least MIN_CONTAINED_CHARS characters its text contains (a
        prompt that wraps the problem in an instruction); name the questions left without."""
        for bench, texts in self._golds_by_text.items():
            if bench not in benchmarks:
                raise LeashError(
                    f"--gold-from {bench}: this import has no benchmark {bench!r} (benchmarks:"
                    f" {', '.join(sorted(benchmarks))}); name the benchmark with"
                    " --bench, or --gold-from the benchmark named there"
                )
            left: list[str] = []
            long_texts = sorted((t for t in texts if len(t) >= MIN_CONTAINED_CHARS), key=len)
            for (b, question_id), info in self.questions.items():
                if b != bench or (info.gold and info.gold.strip()):
                    continue
                text = normal_text(info.problem or "")
                gold = texts.get(text) or next(
                    (texts[t] for t in reversed(long_texts) if t in text), None
                )
                if gold is None:
                    left.append(f"{question_id} ({clip(info.problem or '', 40)!r})")
                    continue
                info.gold = gold
                info.changed = True
                info.metadata = {**(info.metadata or {}), "gold_source": self._gold_sources[b]}
            if left:
                more = f" and {len(left) - 5} more" if len(left) > 5 else ""
                shown = ", ".join(left[:5]) + more
                warnings.append(
                    f"--gold-from {bench}: {len(left)} question(s) of {bench} have no question of"
                    f" the same text in {self._gold_sources[bench]} and stay without a gold:"
                    f" {shown}"
                )

    def graded(self) -> set[tuple[str, str]]:
        """The questions with a gold (leash can grade their samples)."""
        return {key for key, info in self.questions.items() if info.gold and info.gold.strip()}

    def rows_to_write(self) -> list[dict[str, Any]]:
        """The question rows this import adds or fills in."""
        return [
            {
                "benchmark": b,
                "question_id": q,
                "problem": info.problem,
                "gold": info.gold,
                "metadata": info.metadata,
            }
            for (b, q), info in self.questions.items()
            if not info.in_folder or info.changed
        ]
