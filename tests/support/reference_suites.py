"""Other graders' test cases run through ``leash verify``: math-verify's suite, Qwen's grader.

Each case (gold, prediction, expected) is written the way a model writes an answer:
a prediction that is one formula is boxed at the end of a short completion; one that
already has a box is the completion; one in prose (math-verify's free-text tests) is
the text after ``</think>``, read with the ``after_think`` strategy (free text for
math-verify to search). A case whose "gold" holds the boxes and whose prediction is
plain (math-verify's tests sometimes pass the model output as gold) is run with the
two swapped. Every case becomes one question and one sample of a results folder, and
``verify_results`` grades them all, as ``leash verify`` does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from sampler.latex_boxed import last_boxed
from sampler.store.folder import ResultsFolder
from sampler.verify.answers.extraction import ExtractionConfig
from sampler.verify.answers.golds import strip_math_delimiters
from sampler.verify.run import verify_results
from tests.support.folder_builders import write_folder
from tests.support.paths import TESTS_DATA

DATA = TESTS_DATA
_MATH_ENV_RE = re.compile(r"\s*(?:\$\$(.+)\$\$|\$(.+)\$|\\\[(.+)\\\]|\\\((.+)\\\))\s*", re.DOTALL)
_MATH_SPANS_RE = re.compile(
    r"\$\$.*?\$\$|\$.*?\$|\\\[.*?\\\]|\\\(.*?\\\)|\\(?:begin|end)\{\w+\}|\\[A-Za-z]+", re.DOTALL
)
_WORD_RE = re.compile(r"[A-Za-z]{2,}|[^\x00-\x7f]")
#: A prediction longer than this, or with words outside math, is prose, not one formula.
_FORMULA_CHARS = 200


@dataclass(frozen=True)
class Case:
    id: str
    gold: str
    pred: str
    expected: int
    options: dict


def load_cases(name: str) -> list[Case]:
    path = DATA / name / "cases.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [Case(r["id"], r["gold"], r["pred"], r["expected"], r.get("options", {})) for r in rows]


def as_model_writes(case: Case) -> tuple[str, str, str]:
    """(gold, completion, how): the case as a question's gold and a model's completion.

    A gold holding a box is a reference solution, and its last box is the gold (the
    Minerva preset's rule), unless the prediction is one short formula: then the
    test passed a model's output as the gold, and the two are swapped.
    """
    gold, pred = case.gold, case.pred
    if "\\boxed" in gold:
        if len(pred) <= _FORMULA_CHARS and not _is_prose(pred):
            gold, pred = strip_math_delimiters(pred), gold
        else:
            gold = last_boxed(gold) or gold
    if "\\boxed" in pred:
        return gold, pred, "boxed"
    if _is_prose(pred):
        return gold, "</think>" + pred, "prose"
    env = _MATH_ENV_RE.fullmatch(pred)
    body = next((g for g in env.groups() if g), pred) if env else pred
    completion = f"We work it out.\nThe final answer is $\\boxed{{{body.strip()}}}$."
    return gold, completion, "formula"


def _is_prose(pred: str) -> bool:
    """Long, or words outside math: a sentence, not one formula."""
    if len(pred) > _FORMULA_CHARS:
        return True
    outside = "" if _MATH_ENV_RE.fullmatch(pred) else _MATH_SPANS_RE.sub(" ", pred)
    return bool(_WORD_RE.search(outside))


def math_verify_default(case: Case) -> int:
    """math-verify's verdict with its default options (``parse`` and ``verify`` as shipped)."""
    from math_verify import parse, verify

    gold = parse(case.gold, parsing_timeout=None)
    pred = parse(case.pred, parsing_timeout=None)
    return int(verify(gold, pred, timeout_seconds=None))


def leash_verdicts(root: Path, cases: list[Case], workers: int = 2) -> dict[str, str]:
    """Each case's status from ``verify_results`` on a folder built for them."""
    questions, samples = [], []
    for i, case in enumerate(cases):
        gold, completion, how = as_model_writes(case)
        bench = "prose" if how == "prose" else "suite"
        questions.append(
            {"benchmark": bench, "question_id": str(i), "problem": case.id, "gold": gold}
        )
        samples.append(
            {
                "benchmark": bench,
                "question_id": str(i),
                "model": "base",
                "sample": 0,
                "text": completion,
            }
        )
    write_folder(root, questions, [samples], models=["base"])
    config = ExtractionConfig(benchmarks={"prose": ("after_think",)})
    verify_results(root, workers=workers, extraction=config)
    table = ResultsFolder.open(root).samples(columns=["question_id", "status"])
    by_index = dict(
        zip(
            table.column("question_id").to_pylist(), table.column("status").to_pylist(), strict=True
        )
    )
    return {case.id: by_index[str(i)] for i, case in enumerate(cases)}


def agreement(name: str, root: Path) -> dict:
    """The figures for one suite: cases, how many math-verify's defaults and leash get as
    expected, how often they agree, and the cases leash gets otherwise."""
    cases = load_cases(name)
    statuses = leash_verdicts(root, cases)
    rows = []
    for case in cases:
        mv = math_verify_default(case)
        leash = int(statuses[case.id] == "correct")
        rows.append((case, mv, leash))
    return {
        "cases": len(cases),
        "math_verify_as_expected": sum(mv == c.expected for c, mv, _ in rows),
        "leash_as_expected": sum(lv == c.expected for c, _, lv in rows),
        "leash_agrees_with_math_verify": sum(mv == lv for _, mv, lv in rows),
        "leash_otherwise": {
            c.id: {"leash": statuses[c.id], "expected": c.expected, "math_verify": mv}
            for c, mv, lv in rows
            if lv != c.expected
        },
    }


if __name__ == "__main__":  # python -m tests.support.reference_suites: print the agreement figures
    import logging
    import tempfile

    logging.getLogger("math_verify").setLevel(logging.ERROR)
    for suite in ("math_verify", "qwen_grader"):
        with tempfile.TemporaryDirectory() as tmp:
            print(suite, json.dumps(agreement(suite, Path(tmp) / "results"), indent=1))
