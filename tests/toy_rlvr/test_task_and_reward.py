"""The toy task, tokenizer, reward and stage markers of ``leash demo --train`` (no training)."""

from __future__ import annotations

import json
import random

import pytest

from sampler.errors import LeashError
from sampler.toy_rlvr.stages import Stages
from sampler.toy_rlvr.task import Noise, Problem, make_problems, write_benchmark
from tests.support.sampling_checks import NEEDS_TORCH


def test_problems_are_seeded_disjoint_and_their_golds_are_right():
    train, heldout = make_problems(300, 40, seed=3)
    again = make_problems(300, 40, seed=3)
    assert (train, heldout) == again
    assert make_problems(300, 40, seed=4)[1] != heldout
    assert len(train) == 300 and len(heldout) == 40
    assert not {p.problem for p in train} & {p.problem for p in heldout}
    for p in train + heldout:
        assert p.gold == eval(p.problem.rstrip("="))
        assert p.solution().endswith(f"\\boxed{{{p.gold}}}")
    carries = sum(p.carry for p in train) / len(train)
    assert 0.2 < carries < 0.4  # CARRY_SHARE = 0.3
    assert any(p.number % 100 == 99 for p in train)  # a carry past two digits


def test_more_questions_than_the_task_holds_are_refused():
    with pytest.raises(LeashError, match="--questions: at most 500"):
        make_problems(2000, 501, seed=0)


def test_noisy_solutions_slip_by_one_or_forget_the_carry():
    train, _ = make_problems(1500, 1, seed=0)
    rng = random.Random(1)
    noise = Noise(slip=0.4, carry_kept=0.1)
    rates = {True: [], False: []}
    for p in train:
        for _ in range(4):
            answer = int(p.solution(rng, noise).strip().removeprefix("\\boxed{").rstrip("}"))
            if p.carry:  # right, or the carry forgotten: 3819+1 -> 3810
                assert answer in (p.gold, p.number - 9)
            else:  # right, or off by one
                assert abs(answer - p.gold) <= 1
            rates[p.carry].append(answer == p.gold)
    assert sum(rates[False]) / len(rates[False]) == pytest.approx(0.6, abs=0.03)
    assert sum(rates[True]) / len(rates[True]) == pytest.approx(0.1, abs=0.03)
    assert Problem("x", 3899).forgotten_carry == 3890 and Problem("x", 3899).gold == 3900


def test_benchmark_file_is_what_leash_sample_reads(tmp_path):
    _, heldout = make_problems(5, 3, seed=0)
    path = write_benchmark(tmp_path / "h.jsonl", heldout)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    want = [
        {"id": p.question_id, "problem": p.problem, "answer": str(p.gold), "solution": p.solution()}
        for p in heldout
    ]
    assert rows == want


@NEEDS_TORCH
def test_the_tokenizer_is_character_level_and_round_trips(tmp_path):
    from transformers import AutoTokenizer

    from sampler.toy_rlvr.tokenizer import build_tokenizer

    tok = build_tokenizer()
    text = "Problem:\n3819+1=\n\nSolution: \\boxed{3820}"
    ids = tok(text)["input_ids"]
    assert len(ids) == len(text) and tok.unk_token_id not in ids
    tok.save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    assert loaded(text)["input_ids"] == ids
    assert loaded.decode([*ids, loaded.eos_token_id], skip_special_tokens=True) == text


def test_the_reward_is_leash_verifiers_verdict():
    from sampler.toy_rlvr.reward import VerifierReward

    reward = VerifierReward()
    completions = [
        " 41+27=68, 68-13=55. \\boxed{55}",
        " 41+27=68, 68-13=56. \\boxed{56}",
        " 41+27=68, 68-13=55. \\boxed{55.0}",  # math-verify: the same number
        " 41+27=68, 68-13=55.",  # no boxed answer
        " \\boxed{5",  # cut off
    ]
    scores = reward(["p"] * 5, completions, answer=["55"] * 5)
    assert scores == [1.0, 0.0, 1.0, 0.0, 0.0]


def test_stage_markers_skip_finished_stages_and_refuse_other_settings(tmp_path):
    stages = Stages(tmp_path)
    assert stages.done("sft", {"steps": 3}) is None
    with pytest.raises(RuntimeError), stages.run("sft", {"steps": 3}):
        raise RuntimeError("killed")
    assert stages.done("sft", {"steps": 3}) is None  # a failed stage leaves no marker
    with stages.run("sft", {"steps": 3}) as clock:
        clock.extra["parameters"] = 7
    record = stages.done("sft", {"steps": 3})
    assert record["parameters"] == 7 and record["wall_seconds"] >= 0
    with pytest.raises(LeashError, match="other settings"):
        stages.done("sft", {"steps": 4})


@NEEDS_TORCH
def test_supervised_training_is_seeded(tmp_path):
    """The base model of one seed has the same bytes twice (``test_demo_train`` relies on it
    and reruns only GRPO and sampling), and another seed gives other weights."""
    from sampler.toy_rlvr.sft import SftSettings, train_base

    train, _ = make_problems(50, 1, seed=0)
    weights = []
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        settings = SftSettings(steps=3, batch_size=4, seed=seed)
        out = train_base(tmp_path / name, train, "tiny", settings)
        weights.append((out / "model.safetensors").read_bytes())
    assert weights[0] == weights[1] != weights[2]
