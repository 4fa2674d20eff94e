"""The verdict corpus (tests/data/verdict_corpus): well-formed, and leash at its measured level.

The corpus is real completions from nineteen public sources, judged by hand, split by
source into a tuning half and a held-out half (README there). The floors below are what
``bench/verdict_agreement.py`` measured on the held-out half; a change that loses held-out
cases fails here.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import resource
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from sampler.verify.answers.math_verifier import clear_caches
from sampler.verify.answers.one_sample import grade_completion
from tests.support.paths import TESTS_DATA

CORPUS = TESTS_DATA / "verdict_corpus"
FIELDS = {
    "id": str,
    "source": str,
    "split": str,
    "repo": str,
    "path": str,
    "commit": str,
    "category": str,
    "gold": str,
    "completion": str,
    "truncated": bool,
    "expected": str,
    "reason": str,
    "judged_by": str,
    "states_answer": bool,
}
#: held-out agreement leash reached when the floor was set: 319 of 333 (95.8%, after issue
#: 32's bare answers, closing statements and afterwords; 94.3% when a floor of 93% was first
#: set, 73.6% before the final locator), measured by
#: ``bench/verdict_agreement.py --half held_out``; a floor, not the exact figure
HELD_OUT_FLOOR = 0.95
#: held-out false accepts at most (measured: 0; the issue allows 1%)
HELD_OUT_FALSE_ACCEPTS = 1


def _cases() -> list[dict]:
    rows = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            row["_where"] = f"{path.name}:{n}"
            rows.append(row)
    return rows


CASES = _cases()


def test_corpus_is_well_formed() -> None:
    assert len(CASES) >= 600
    ids = Counter(c["id"] for c in CASES)
    assert [i for i, k in ids.items() if k > 1] == []
    for case in CASES:
        where = case["_where"]
        for name, kind in FIELDS.items():
            assert isinstance(case.get(name), kind), f"{where}: field {name}"
        assert case["split"] in ("tuning", "held_out"), where
        assert case["expected"] in ("correct", "incorrect"), where
        assert case["reason"].strip() and case["gold"].strip(), where
        assert re.fullmatch(r"[0-9a-f]{40}", case["commit"]), where
        assert len(case["completion"]) <= 3000, where
        assert case["id"].startswith(case["source"] + "/"), where
    halves = {c["source"]: set() for c in CASES}
    for case in CASES:
        halves[case["source"]].add(case["split"])
    assert all(len(h) == 1 for h in halves.values()), "a source is in both halves"
    per_half = Counter(next(iter(h)) for h in halves.values())
    assert len(halves) >= 10 and per_half["tuning"] >= 5 and per_half["held_out"] >= 5


def test_corpus_has_both_verdicts_in_each_half() -> None:
    for half in ("tuning", "held_out"):
        seen = Counter(c["expected"] for c in CASES if c["split"] == half)
        assert seen["correct"] >= 100 and seen["incorrect"] >= 100, half


#: what one grading process may allocate: an answer whose parse explodes fails there
#: (MemoryError, graded ``error``) instead of taking the test run's memory, as the
#: verification workers of ``leash verify`` are bounded too
GRADER_MEMORY = 3 << 30


def _bounded_grader() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GRADER_MEMORY, GRADER_MEMORY))
    clear_caches()


def _status(case: dict) -> str:
    try:
        return grade_completion(
            case["gold"], case["completion"], problem=case.get("problem")
        ).status
    except MemoryError:
        return "error"


def test_leash_holds_its_measured_level_on_the_held_out_half() -> None:
    held_out = [c for c in CASES if c["split"] == "held_out"]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=_bounded_grader) as pool:
        verdicts = list(pool.map(_status, held_out, chunksize=16))
    pairs = list(zip(held_out, verdicts, strict=True))
    agree = sum((v == "correct") == (c["expected"] == "correct") for c, v in pairs)
    false_accepts = [c["id"] for c, v in pairs if v == "correct" and c["expected"] != "correct"]
    assert agree / len(held_out) >= HELD_OUT_FLOOR
    assert len(false_accepts) <= HELD_OUT_FALSE_ACCEPTS, false_accepts
