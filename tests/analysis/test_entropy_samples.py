"""Answer entropy as the paper measures it (issue 12, item 6): the first N samples of a
question by sample index, answers in classes by verifier equivalence, wrong ones
included, no answer or truncated in one class "NA"."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

from leash_tui.analysis.answer_stats import question_answer_stats
from leash_tui.cli import cli
from leash_tui.commands import report as report_command
from leash_tui.report.data import load_report_data
from sampler.store.side_tables import entropy_samples
from sampler.store.side_tables.answer_classes import answer_class_key
from tests.support.folder_builders import write_folder
from tests.support.reference_entropy import answer_entropy


def H(*counts: int) -> float:
    total = sum(counts)
    return -sum(c / total * math.log(c / total) for c in counts)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2.5", r"\frac52"),
        ("2.5", r"\frac{5}{2}"),
        ("2.5", r"\dfrac{5}{2}"),
        ("2.5", "5/2"),
        ("5", "5.0"),
        ("5", "{5}"),
        ("-0.5", r"-\frac12"),
        ("-0.5", r"\frac{-1}{2}"),
        ("0.001", "1e-3"),
        (r"\left( 1, 2 \right)", "(1,2)"),
        (r"x^2\!+1", "x^2 + 1"),
    ],
)
def test_equal_answers_share_a_class(a, b):
    assert answer_class_key(a) == answer_class_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("5", "-5"),
        ("2", r"\sqrt{2}"),
        ("0.5", "0.51"),
        ("(1,2)", "(2,1)"),
        ("1/0", "0"),
        ("5", "=5"),  # an answer written like a key is not that number
        (r"\frac{a}{b}", "a/b"),
    ],
)
def test_different_answers_stay_apart(a, b):
    assert answer_class_key(a) != answer_class_key(b)


def test_a_huge_number_keeps_its_writing():
    assert answer_class_key("1e999999999") == "=1e999999999"  # returns at once


def test_per_question_entropy_merges_notations_and_counts_na():
    answers = ["2.5", r"\frac52", "5", "5.0", None, "7", "42"]
    correct = [False, False, False, False, False, False, True]
    truncated = [False, False, False, False, False, True, False]
    # classes: {2.5: 2, 5: 2, NA: 2 (no answer, truncated), correct: 1}
    assert answer_entropy(answers, correct, truncated=truncated) == pytest.approx(H(2, 2, 2, 1))
    # the old rule split 2.5/\frac52 and 5/5.0 and kept the truncated answer
    assert answer_entropy(answers, correct, truncated=truncated) < H(1, 1, 1, 1, 1, 1, 1)


def test_first_n_by_sample_index():
    answers = ["1", "2", "3", "4"]
    correct = [False] * 4
    assert answer_entropy(answers, correct, samples=[3, 0, 1, 2], n=2) == pytest.approx(H(1, 1))
    assert answer_entropy(["2", "1", "1"], correct[:3], samples=[5, 0, 1], n=2) == 0.0
    assert answer_entropy([], []) is None


def sample_table(answers, statuses, finish=None, samples=None):
    n = len(answers)
    return pa.table(
        {
            "benchmark": ["b"] * n,
            "question_id": ["1"] * n,
            "model": ["m"] * n,
            "sample": pa.array(samples if samples is not None else range(n), pa.int32()),
            "status": statuses,
            "answer": answers,
            "finish_reason": finish or ["stop"] * n,
            "token_entropy": [None] * n,
        }
    )


def test_vectorised_equals_per_question():
    rng = np.random.default_rng(3)
    # the store keys answers vectorised: plain words, short decimals, LaTeX and long
    # numbers take different paths there, an empty answer is no answer
    pool = ["2.5", r"\frac52", "5", "5.0", "-0.5", r"-\frac12", "7", None, "42", ""]
    pool += ["x+1", "x + 1", "0.50", "1e-3", "12345678901234567890", r"\text{10 inches}"]
    for _ in range(40):
        n = int(rng.integers(1, 80))
        answers = [pool[i] for i in rng.integers(0, len(pool), n)]
        statuses = [
            "correct" if a == "42" else "no_answer" if not a else "incorrect" for a in answers
        ]
        finish = ["length" if x < 0.1 else "stop" for x in rng.random(n)]
        order = [int(x) for x in rng.permutation(n)]
        table = sample_table(answers, statuses, finish, samples=order)
        got = question_answer_stats(table).to_pylist()[0]["answer_entropy"]
        want = answer_entropy(
            answers,
            [s == "correct" for s in statuses],
            samples=order,
            truncated=[f == "length" for f in finish],
        )
        assert got == pytest.approx(want, abs=1e-12)


def build(root, per_question: dict[str, list[str | None]], gold: str = "42"):
    """A folder: model ``base`` (and an identical ``rl``) with these answers per question."""
    questions = [{"benchmark": "b", "question_id": q, "gold": gold} for q in per_question]
    rows = []
    for model in ("base", "rl"):
        for q, answers in per_question.items():
            for s, a in enumerate(answers):
                status = "correct" if a == gold else "no_answer" if a is None else "incorrect"
                rows.append(
                    {
                        "benchmark": "b",
                        "question_id": q,
                        "model": model,
                        "sample": s,
                        "text": "",
                        "answer": a,
                        "status": status,
                        "correct": status == "correct",
                    }
                )
    return write_folder(root, questions, [rows], models=["base", "rl"], benchmarks=["b"])


def draws(rng, k: int) -> list[str | None]:
    """k answers from one fixed distribution: the gold half the time, else one of 300
    wrong answers with geometric weights (many rare ones), written in two notations."""
    weights = 0.97 ** np.arange(300)
    weights /= weights.sum()
    out: list[str | None] = []
    for _ in range(k):
        if rng.random() < 0.5:
            out.append("42")
        else:
            j = int(rng.choice(300, p=weights))
            out.append(f"{j}.0" if rng.random() < 0.5 else str(j))
    return out


def mean_entropy(root) -> float:
    stats = load_report_data(root).answer_stats
    values = [v for v in stats.column("answer_entropy").to_pylist() if v is not None]
    return sum(values) / len(values)


def plug_in(per_question: dict[str, list[str | None]]) -> float:
    """The old value: all samples, answers split by their string."""
    values = []
    for answers in per_question.values():
        counts = Counter(answers)
        values.append(H(*counts.values()))
    return sum(values) / len(values)


def test_entropy_does_not_grow_with_the_number_of_samples(tmp_path):
    rng = np.random.default_rng(12)
    few = {str(q): draws(rng, 64) for q in range(40)}
    many = {str(q): draws(rng, 1024) for q in range(40)}
    at_64 = mean_entropy(build(tmp_path / "few", few))
    at_1024 = mean_entropy(build(tmp_path / "many", many))
    # the same distribution, 32 samples each time: equal up to sampling noise (the mean
    # over 40 questions has a standard error of about 0.03 nats here)
    assert abs(at_64 - at_1024) < 0.15
    # the old plug-in value grew with k by far more than that
    assert plug_in(many) - plug_in(few) > 0.5


def test_report_entropy_samples_option_and_scan_beyond_the_footer(tmp_path):
    # 64 samples: the first 32 all "1"; the next 32 all "2"
    root = build(tmp_path / "r", {"1": ["1"] * 32 + ["2.0"] * 32})
    runner = CliRunner()

    def entropy(*extra):
        result = runner.invoke(cli, ["report", str(root), "--format", "json", *extra])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["rows"][-1]["answer_entropy"]["base"]

    assert entropy() == 0.0  # the first 32 only
    assert entropy("--entropy-samples", "64") == pytest.approx(math.log(2))  # scans the shards
    assert entropy("--entropy-samples", "64", "--no-cache") == pytest.approx(math.log(2))
    assert entropy("--entropy-samples", "1000") == pytest.approx(math.log(2))  # all there are
    assert entropy("--entropy-samples", "40") == pytest.approx(H(32, 8))
    assert entropy() == 0.0  # the cache keeps N apart


def test_cli_default_is_the_store_default():
    assert report_command.DEFAULT_ENTROPY_SAMPLES == entropy_samples.DEFAULT_ENTROPY_SAMPLES


def test_majority_vote_over_answer_classes_with_ties():
    from leash_tui.analysis.answer_stats import question_answer_stats
    from tests.support.folder_builders import sample_rows, samples_table

    specs = {
        "1": "C C I3 I3",
        "2": "C I3 I3 N",
        "3": "C C I3 N N N",
        "4": "I3 I4",
        "5": "C I2.5 I5/2",
    }
    rows = [r for q, spec in specs.items() for r in sample_rows("a", q, "m", spec)]
    stats = question_answer_stats(samples_table(rows))
    ids, shares = stats.column("question_id").to_pylist(), stats.column("majority").to_pylist()
    got = dict(zip(ids, shares, strict=True))
    # a tie with one other class halves; no answer does not vote; 2.5 and 5/2 are one class
    assert got == {"1": 0.5, "2": 0.0, "3": 1.0, "4": 0.0, "5": 0.0}
    distinct = stats.column("distinct_answers").to_pylist()
    assert dict(zip(ids, distinct, strict=True)) == {"1": 2, "2": 2, "3": 2, "4": 2, "5": 2}
