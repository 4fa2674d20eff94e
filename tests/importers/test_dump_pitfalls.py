"""What trainer dumps get wrong silently: greedy dumps, one text under two golds, ids ignored,
completions logged twice, no gold at all — and NeMo-RL's GRPO validation dumps.

Files follow the writers' code at the commits the importer docstrings name:
volcengine/verl ``verl/trainer/ppo/ray_trainer.py`` at 00401103a8c8900774aba04b910de5b0af930b99
(``_dump_generations``) and ``verl/trainer/config/_generated_ppo_trainer.yaml`` at
b178a3cd56f58b2d502255daba591e92833930a7 (``val_kwargs``: ``do_sample: false``,
``temperature: 0``), huggingface/trl ``trl/trainer/grpo_trainer.py`` at
f2cd57710ae345ea6428ae95363267fcf38a3dc8 (``GRPOTrainer.log``: the ``_logs`` deques of
``maxlen=generation_batch_size`` are never cleared), NVIDIA/NeMo-Skills at
0b012df8a09cd4730d31b16e90a0d8f13d145fb8 (``nemo_skills/dataset/aime24/test.txt`` rows carry
``id``, which ``inference/generate.py`` copies into each output row) and NVIDIA-NeMo/RL
``nemo_rl/algorithms/grpo.py`` at 7ea279abfbeb698b092856d0dab61e7cf39bc909 (``validate``:
``log_batched_dict_as_jsonl(val_log_data, f"val_data_step{step}.jsonl")``).
"""

from __future__ import annotations

import json
import shutil

import pytest

from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples
from sampler.importers.source_fields import text_question_id
from sampler.store.folder import ResultsFolder
from tests.support.eval_outputs import PROBLEMS, completion
from tests.support.trainer_dumps import (
    chatml,
    verl_lines,
    write_nemo_skills,
    write_trl_completions,
    write_verl_step,
)


def sample_rows(root):
    columns = ["question_id", "model", "sample", "text", "source_correct"]
    return ResultsFolder.open(root).samples(columns=columns).to_pylist()


def questions(root):
    return {q["question_id"]: q for q in ResultsFolder.open(root).questions.to_pylist()}


def gold_file(tmp_path):
    path = tmp_path / "golds.jsonl"
    path.write_text("".join(json.dumps({"problem": p, "answer": g}) + "\n" for p, g in PROBLEMS))
    return path


# -- a greedy dump ------------------------------------------------------------------------------


def test_a_greedy_validation_dump_is_named_with_the_setting_that_fixes_it(tmp_path):
    # do_sample=False and val_kwargs.n=4: four copies of one completion per question
    write_verl_step(tmp_path / "d", 0, verl_lines([["2"] * 4, ["5"] * 4, ["3"] * 4], 0))
    summary = import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    (warning,) = [w for w in summary.warnings if "same text" in w]
    assert "model m@0: every sample of 3 of its 3 questions" in warning
    assert "val_kwargs.do_sample=True" in warning and "pass@k is pass@1" in warning


def test_a_sampled_dump_is_not_called_greedy(tmp_path):
    write_verl_step(tmp_path / "d", 0, verl_lines([["2", "3"], ["6", "6"], ["1", "3"]], 0))
    summary = import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    assert not [w for w in summary.warnings if "same text" in w]


# -- one text, two questions ----------------------------------------------------------------------


def test_one_prompt_text_under_two_golds_is_two_questions_keyed_by_problem_and_gold(tmp_path):
    problem = "What is x?"
    lines = verl_lines([["2", "2"], ["5", "5"]], 0, problems=[(problem, "2"), (problem, "5")])
    lines[1]["output"] = completion("3")  # not greedy
    write_verl_step(tmp_path / "d", 0, lines)
    later = [{**line, "step": 10} for line in reversed(lines)]  # the other gold read first
    write_verl_step(tmp_path / "d", 10, later)
    summary = import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    (note,) = summary.notes
    assert "'What is x?'" in note and "each (problem, gold) is its own question" in note
    found = questions(tmp_path / "r")
    assert sorted((q["problem"], q["gold"]) for q in found.values()) == [
        (problem, "2"),
        (problem, "5"),
    ]
    by_gold = {q["gold"]: q["question_id"] for q in found.values()}
    # the same two questions at both steps, whichever gold came first in the file
    counts = {}
    for row in sample_rows(tmp_path / "r"):
        counts[(row["model"], row["question_id"])] = (
            counts.get((row["model"], row["question_id"]), 0) + 1
        )
    assert counts == {
        ("m@0", by_gold["2"]): 2,
        ("m@0", by_gold["5"]): 2,
        ("m@10", by_gold["2"]): 2,
        ("m@10", by_gold["5"]): 2,
    }


def test_nemo_skills_rows_are_keyed_by_their_id(tmp_path):
    results = tmp_path / "eval-results"
    twin = [("What is 1+1?", "2"), ("What is 1+1?", "2")]  # one text, two dataset rows
    for seed in (0, 1):
        path = write_nemo_skills(results, "aime24", seed, ["2", "3"], problems=twin)
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        rows[0]["id"], rows[1]["id"] = "aime24-0", "aime24-1"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = import_samples("nemo-skills", [Source("m", results)], tmp_path / "r", "m")
    assert summary.samples == 4
    assert sorted(questions(tmp_path / "r")) == ["aime24-0", "aime24-1"]
    per_question = {}
    for row in sample_rows(tmp_path / "r"):
        per_question.setdefault(row["question_id"], []).append(row["sample"])
    assert per_question == {"aime24-0": [0, 1], "aime24-1": [0, 1]}
    assert not [w for w in summary.warnings if "another number of samples" in w]


# -- TRL: completions logged again, no gold -------------------------------------------------------


def test_trl_steps_that_log_the_same_batch_again_keep_it_once_at_its_first_step(tmp_path):
    # num_iterations=2: no generation between the logs of steps 2 and 4
    write_trl_completions(tmp_path, 2, [["2", "3"], ["6", "6"]])
    write_trl_completions(tmp_path, 4, [["2", "3"], ["6", "6"]])
    write_trl_completions(tmp_path, 6, [["2", "2"], ["6", "5"]])
    summary = import_samples("trl", [Source("g", tmp_path / "completions")], tmp_path / "r", "g@2")
    assert summary.models == {"g@2": 4, "g@6": 4}
    (note,) = [n for n in summary.notes if "completions_00004" in n]
    assert "its 4 completions are those logged at step 2" in note and "kept once" in note


def test_trl_without_gold_says_so_at_import_and_names_gold_from(tmp_path):
    write_trl_completions(tmp_path, 5, [["2", "3"]])
    summary = import_samples("trl", [Source("g", tmp_path / "completions")], tmp_path / "r", "g@5")
    (note,) = [n for n in summary.notes if "no gold" in n]
    assert "--gold-from trl=FILE" in note and "leash verify cannot grade them" in note
    golds = f"trl={gold_file(tmp_path)}"
    summary = import_samples(
        "trl", [Source("g", tmp_path / "completions")], tmp_path / "s", "g@5", gold_from=[golds]
    )
    assert not [n for n in summary.notes if "no gold" in n]


# -- NeMo-RL GRPO validation dumps -------------------------------------------------------------


def write_val_step(log_dir, step, answers):
    """``val_data_step{step}.jsonl`` as ``log_batched_dict_as_jsonl`` writes it: each value a
    batch of one, the user content the chat-templated prompt, an ``idx`` per line."""
    log_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for (problem, gold), given in zip(PROBLEMS, answers, strict=False):
        for answer in given:
            messages = [
                {"role": "user", "content": chatml(problem)},
                {"role": "assistant", "content": completion(answer)},
                {"role": "environment", "content": "Environment: correct"},
            ]
            reward = 1.0 if answer == gold else 0.0
            lines.append({"content": [messages], "rewards": [reward], "idx": len(lines)})
    path = log_dir / f"val_data_step{step}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_nemo_rl_grpo_validation_dumps_are_a_series_joined_to_golds(tmp_path):
    logs = tmp_path / "logs" / "exp_001"
    write_val_step(logs, 0, [["2", "3"], ["5", "6"]])
    write_val_step(logs, 20, [["2", "2"], ["6", "6"]])
    golds = f"nemo-rl-val={gold_file(tmp_path)}"
    summary = import_samples(
        "nemo-rl", [Source("grpo", tmp_path / "logs")], tmp_path / "r", gold_from=[golds]
    )
    assert summary.models == {"grpo@0": 4, "grpo@20": 4}
    assert ResultsFolder.open(tmp_path / "r").manifest.base.name == "grpo@0"
    found = questions(tmp_path / "r")
    assert {q["problem"]: q["gold"] for q in found.values()} == {
        "What is 1+1?": "2",
        "What is 2*3?": "6",
    }
    verdicts = {}
    for row in sample_rows(tmp_path / "r"):
        verdicts.setdefault((row["model"], row["question_id"]), []).append(row["source_correct"])
    q1 = text_question_id("What is 2*3?")
    assert verdicts[("grpo@0", q1)] == [False, True] and verdicts[("grpo@20", q1)] == [True, True]


def test_nemo_rl_validation_without_gold_from_says_how_to_give_one(tmp_path):
    write_val_step(tmp_path / "logs", 0, [["2", "3"]])
    summary = import_samples("nemo-rl", [Source("grpo", tmp_path / "logs")], tmp_path / "r")
    assert [n for n in summary.notes if "--gold-from nemo-rl-val=FILE" in n]


def test_a_folder_with_neither_nemo_rl_output_names_both(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "other.jsonl").write_text("{}\n")
    with pytest.raises(LeashError, match=r"evaluation_data\.json files \(nor GRPO val_data_step"):
        import_samples("nemo-rl", [Source("m", tmp_path / "x")], tmp_path / "r", "m")
    shutil.rmtree(tmp_path / "x")


def test_a_verl_dump_from_before_gts_says_it_has_no_gold(tmp_path):
    write_verl_step(tmp_path / "val", 0, verl_lines([["2", "3"], ["6", "5"]], 0, gts=False))
    summary = import_samples("verl", [Source("m", tmp_path / "val")], tmp_path / "r")
    (note,) = [n for n in summary.notes if "no gold" in n]
    assert "no 'gts'" in note and "--gold-from val=FILE" in note
    write_verl_step(tmp_path / "with", 0, verl_lines([["2", "3"], ["6", "5"]], 0))
    summary = import_samples("verl", [Source("m", tmp_path / "with")], tmp_path / "s")
    assert not [n for n in summary.notes if "no gold" in n]
