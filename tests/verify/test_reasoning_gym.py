"""Reasoning Gym: offline deterministic generation, and verdicts equal to the task's score_answer.

Each task's entries are generated through leash's spec, their metadata JSON-encoded
as in the questions table, then graded by the verifier; the package's own
``score_answer`` on the live entry is the reference. graph_color has no single gold:
the entry's ``possible_answer`` colouring is the right answer and a one-colour
colouring the wrong one. boxnet has no gold plan and building a complete plan needs a
planner, so it is checked with constructed partial plans (the moves that lift a box
already beside its target) and malformed ones; the full-score case is left out.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("reasoning_gym")

import reasoning_gym

from sampler.benchmarks.loading import load_benchmark
from sampler.errors import LeashError
from sampler.verify.verifiers import get_verifier, verifiers

SIZE, SEED = 12, 5
VERIFIER = get_verifier("reasoning-gym")


def stored(question):
    """The gold the verifier builds from the questions table's JSON metadata."""
    return VERIFIER.gold(question.gold, json.loads(json.dumps(question.metadata)))


def perturbed(answer: str) -> list[str]:
    return [answer + "1", answer[::-1] if len(answer) > 1 else answer + "x", "", "nonsense"]


def check(task: str, answers_of) -> int:
    bench = load_benchmark(task, f"reasoning-gym:{task}:{SIZE}:{SEED}", verifiers())
    dataset = reasoning_gym.create_dataset(task, size=SIZE, seed=SEED)
    checked = 0
    for index, question in enumerate(bench.questions):
        entry = dataset[index]
        assert question.question_id == str(index)
        assert question.problem == entry["question"]
        for answer in answers_of(entry):
            expected = dataset.score_answer(answer, entry)
            span = VERIFIER.extract(f"<think>hmm</think><answer>{answer}</answer>")
            if span is None:  # an empty answer: nothing to extract, so no score
                continue
            verdict = VERIFIER.judge(stored(question), span)
            assert verdict.score == pytest.approx(expected), (task, index, answer)
            assert verdict.status == ("correct" if expected >= 1.0 else "incorrect")
            checked += 1
    return checked


@pytest.mark.parametrize(
    "task", ["dice", "arc_1d", "leg_counting", "family_relationships", "power_function"]
)
def test_verdicts_equal_score_answer_with_gold_and_perturbed_answers(task):
    def answers(entry):
        gold = entry["answer"]
        return [gold, *perturbed(gold)]

    assert check(task, answers) >= SIZE * 4


def test_graph_color_with_constructed_colourings():
    def answers(entry):
        right = entry["metadata"]["possible_answer"]
        wrong = dict.fromkeys(right, 1)
        return [json.dumps(right), json.dumps(wrong), "not json"]

    assert check("graph_color", answers) == SIZE * 3


def test_boxnet_with_constructed_partial_plans():
    def answers(entry):
        state = entry["metadata"]["initial_state"]
        moves = {}
        for square, items in state.items():
            row, col = square.split("_")
            for item in items:
                if item.startswith("box_") and "target_" + item[4:] in items:
                    moves[f"Agent[{row}, {col}]"] = f"move({item}, target_{item[4:]})"
        return [json.dumps([moves]), "[]", "not json"]

    assert check("boxnet", answers) == SIZE * 3


def test_generation_is_deterministic_and_offline():
    a = load_benchmark("d", "reasoning-gym:leg_counting:5:3", verifiers())
    b = load_benchmark("d", "reasoning-gym:leg_counting:5:3", verifiers())
    c = load_benchmark("d", "reasoning-gym:leg_counting:5:4", verifiers())
    assert [q.problem for q in a.questions] == [q.problem for q in b.questions]
    assert [q.problem for q in a.questions] != [q.problem for q in c.questions]
    assert a.verifier == "reasoning-gym" and a.source == "reasoning-gym:leg_counting:5:3"


def test_extraction_order_answer_tags_then_boxed_then_after_think():
    assert VERIFIER.extract("\\boxed{1} <answer> 2 </answer>").text == "2"
    assert VERIFIER.extract("<think>\\boxed{9}</think> so \\boxed{3}").text == "3"
    assert VERIFIER.extract("<think>x</think>  4 ").text == "4"
    assert VERIFIER.extract("just 5") is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("reasoning-gym:nosuchtask:5:0", "no task 'nosuchtask'"),
        ("reasoning-gym:dice:five:0", "SIZE and SEED must be integers"),
        ("reasoning-gym:dice:5", "expected reasoning-gym:TASK:SIZE:SEED"),
        ("reasoning-gym:dice:0:0", "SIZE must be between"),
    ],
)
def test_bad_specs_are_one_line_errors(spec, message):
    with pytest.raises(LeashError, match=message):
        load_benchmark("x", spec, verifiers())


def test_partial_score_reaches_the_score_column(tmp_path):
    import pyarrow.parquet as pq

    from sampler.importers.run_import import import_samples, parse_source
    from sampler.verify.run import verify_results
    from tests.support.records import write_jsonl

    dataset = reasoning_gym.create_dataset("boxnet", size=2, seed=1)
    plan = json.dumps([{"Agent[1.5, 3.5]": "move(box_blue, target_blue)"}])
    samples = write_jsonl(
        tmp_path / "s.jsonl",
        [
            {"benchmark": "bx", "question_id": "0", "model": m, "sample": 0, "text": t}
            for m, t in (("base", f"<answer>{plan}</answer>"), ("rl", "<answer>[]</answer>"))
        ],
    )
    root = tmp_path / "res"
    import_samples(
        "jsonl", [parse_source(str(samples))], root, "base", specs=["bx=reasoning-gym:boxnet:2:1"]
    )
    verify_results(root, workers=1)
    rows = pq.read_table(next((root / "samples").glob("part-*.parquet"))).to_pylist()
    scores = {r["model"]: r["score"] for r in rows}
    entry = dataset[0]
    assert scores == {
        "base": pytest.approx(dataset.score_answer(plan, entry)),
        "rl": pytest.approx(dataset.score_answer("[]", entry)),
    }
    assert {r["status"] for r in rows} == {"incorrect"}
