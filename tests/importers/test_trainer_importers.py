"""Trainer dumps (verl, TRL): checkpoint series, questions by text, group sizes, golds joined."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_prompt
from sampler.importers.run_import import Source, import_samples
from sampler.importers.source_fields import text_question_id
from sampler.store.folder import ResultsFolder
from tests.support.eval_outputs import PROBLEMS, write_qwen_eval
from tests.support.trainer_dumps import (
    verl_lines,
    write_nemo_rl,
    write_nemo_skills,
    write_prime_rl_step,
    write_skyrl_step,
    write_trl_completions,
    write_verifiers_run,
    write_verl_generation,
    write_verl_step,
)


def samples(root):
    table = ResultsFolder.open(root).samples(
        columns=["benchmark", "question_id", "model", "sample", "text", "source_correct"]
    )
    return table.to_pylist()


def questions(root):
    return {r["question_id"]: r for r in ResultsFolder.open(root).questions.to_pylist()}


def qid(index):
    return text_question_id(PROBLEMS[index][0])


# -- chat templates -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "system\nYou are a helpful assistant.\nuser\nWhat is 1+1?\nBe brief.\nassistant\n",
        "user\nWhat is 1+1?\nBe brief.\nassistant\n",
        "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nWhat is 1+1?\nBe brief.<|im_end|>\n"
        "<|im_start|>assistant\n",
        "system\n\nCutting Knowledge Date: December 2023\n\nuser\n\nWhat is 1+1?\nBe brief."
        "assistant\n\n",
        "<｜begin▁of▁sentence｜><｜User｜>What is 1+1?\nBe brief.<｜Assistant｜><think>\n",
        "What is 1+1?\nBe brief.<think>\n",
        "  What is 1+1?\nBe brief.\n",
    ],
)
def test_the_problem_is_the_user_turn_of_any_known_template(prompt):
    assert problem_of_prompt(prompt) == "What is 1+1?\nBe brief."


# -- verl -------------------------------------------------------------------------------------


def test_verl_validation_dump_is_a_checkpoint_series_with_step_0_the_base(tmp_path):
    dump = tmp_path / "val_dump"
    write_verl_step(dump, 0, verl_lines([["2", "3"], ["6", "6"], ["1", "1"]], 0))
    later = verl_lines([["2", "2"], ["6", "5"], ["3", "1"]], 40)
    random.Random(0).shuffle(later)  # a shuffled loader: no order to rely on
    write_verl_step(dump, 40, later)
    root = tmp_path / "res"
    summary = import_samples("verl", [Source("run", dump)], root)
    manifest = ResultsFolder.open(root).manifest
    assert manifest.base.name == "run@0"
    assert [t.name for t in manifest.targets] == ["run@40"]
    assert summary.models == {"run@0": 6, "run@40": 6}
    rows = samples(root)
    assert {r["benchmark"] for r in rows} == {"val_dump"}
    by_question = {}
    for r in rows:
        if r["model"] == "run@40":
            by_question.setdefault(r["question_id"], []).append(r["source_correct"])
    assert sorted(by_question[qid(0)]) == [True, True]
    assert sorted(by_question[qid(1)]) == [False, True]
    assert sorted(by_question[qid(2)]) == [False, True]
    found = questions(root)
    assert {found[qid(i)]["problem"] for i in range(3)} == {p for p, _ in PROBLEMS}
    assert found[qid(1)]["gold"] == "6"
    assert summary.warnings == []


def test_verl_acc_extra_or_named_field_is_the_source_verdict(tmp_path):
    lines = verl_lines([["2", "3"]], 0, acc=True)
    for line in lines:
        line["score"] = 0.5  # a shaped reward says nothing; acc does
    write_verl_step(tmp_path / "d", 0, lines)
    import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "a")
    assert sorted(r["source_correct"] for r in samples(tmp_path / "a")) == [False, True]
    import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "b", source_metric="score")
    assert [r["source_correct"] for r in samples(tmp_path / "b")] == [None, None]
    with pytest.raises(LeashError, match=r"0.jsonl line 1: no field 'nope' \(--source-metric\)"):
        import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "c", source_metric="nope")


def test_verl_group_of_another_size_is_named_not_merged(tmp_path):
    write_verl_step(tmp_path / "d", 0, verl_lines([["2"] * 4, ["6"] * 4, ["3"] * 3], 0))
    summary = import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    (sizes,) = [w for w in summary.warnings if "another number of samples" in w]
    assert "1 of 3 questions have another number of samples than the 4 most have" in sizes
    assert "What is 10-7?" in sizes and ": 3" in sizes
    counts = {}
    for r in samples(tmp_path / "r"):
        counts[r["question_id"]] = counts.get(r["question_id"], 0) + 1
    assert counts == {qid(0): 4, qid(1): 4, qid(2): 3}


def test_verl_dumps_in_several_folders_are_refused_by_name(tmp_path):
    write_verl_step(tmp_path / "run" / "val", 0, verl_lines([["2"]], 0))
    write_verl_step(tmp_path / "run" / "rollout", 1, verl_lines([["2"]], 1))
    with pytest.raises(LeashError, match=r"in 2 folders \(.*rollout, .*val\)"):
        import_samples("verl", [Source("m", tmp_path / "run")], tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_verl_bad_line_names_file_line_and_field(tmp_path):
    lines = verl_lines([["2", "3"]], 0)
    del lines[1]["output"]
    write_verl_step(tmp_path / "d", 0, lines)
    with pytest.raises(LeashError, match=r"0.jsonl line 2: expected field 'output'"):
        import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    write_verl_step(tmp_path / "e", 3, verl_lines([["2"]], 4))
    with pytest.raises(LeashError, match=r"3.jsonl line 1: field 'step' is 4"):
        import_samples("verl", [Source("m", tmp_path / "e")], tmp_path / "r", base="m@3")


def test_verl_generation_parquet(tmp_path):
    path = write_verl_generation(tmp_path / "gen.parquet", [["2", "2", "1"], ["6", "5", "6"]])
    summary = import_samples("verl", [Source("base", path)], tmp_path / "r", base="base")
    assert summary.models == {"base": 6}
    rows = samples(tmp_path / "r")
    assert {r["benchmark"] for r in rows} == {"gsm8k"}
    assert {r["source_correct"] for r in rows} == {None}
    assert questions(tmp_path / "r")[qid(1)]["gold"] == "6"


def test_without_step_0_a_new_folder_needs_base(tmp_path):
    write_verl_step(tmp_path / "d", 10, verl_lines([["2"]], 10))
    with pytest.raises(LeashError, match="--base is required.*models m@10"):
        import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r", base="m@10")


# -- TRL -------------------------------------------------------------------------------------


def benchmark_file(tmp_path, problems):
    path = tmp_path / "bench.jsonl"
    path.write_text("".join(json.dumps({"problem": p, "answer": g}) + "\n" for p, g in problems))
    return path


def test_trl_completions_steps_and_golds_joined_by_text(tmp_path):
    out = tmp_path / "grpo_out"
    write_trl_completions(out, 10, [["2", "2"], ["5", "6"], ["3", "3"]])
    write_trl_completions(out, 20, [["2", "2"], ["6", "6"], ["3", "1"]])
    bench = benchmark_file(tmp_path, PROBLEMS[:2])  # the third question is not in it
    summary = import_samples(
        "trl",
        [Source("grpo", out)],
        tmp_path / "r",
        base="grpo@10",
        bench="toy",
        gold_from=[f"toy={bench}"],
    )
    assert summary.models == {"grpo@10": 6, "grpo@20": 6}
    found = questions(tmp_path / "r")
    assert found[qid(0)]["gold"] == "2" and found[qid(1)]["gold"] == "6"
    assert found[qid(2)]["gold"] is None
    (warning,) = summary.warnings
    assert "--gold-from toy: 1 question(s)" in warning and "What is 10-7?" in warning
    verdicts = {(r["model"], r["question_id"], r["sample"]): r for r in samples(tmp_path / "r")}
    assert verdicts[("grpo@10", qid(1), 0)]["source_correct"] is False
    assert verdicts[("grpo@20", qid(1), 1)]["source_correct"] is True


def test_gold_from_a_benchmark_the_import_lacks_is_refused(tmp_path):
    write_trl_completions(tmp_path / "o", 5, [["2"]])
    bench = benchmark_file(tmp_path, PROBLEMS)
    with pytest.raises(LeashError, match=r"--gold-from math: this import has no benchmark 'math'"):
        import_samples(
            "trl", [Source("g", tmp_path / "o")], tmp_path / "r", "g@5", gold_from=[f"math={bench}"]
        )


def test_trl_without_gold_from_has_no_golds_and_a_named_reward_column(tmp_path):
    out = tmp_path / "o"
    write_trl_completions(out, 5, [["2", "1"]])
    import_samples(
        "trl", [Source("g", out)], tmp_path / "r", base="g@5", source_metric="len_reward"
    )
    assert [r["source_correct"] for r in samples(tmp_path / "r")] == [None, None]
    assert questions(tmp_path / "r")[qid(0)]["gold"] is None
    with pytest.raises(LeashError, match="no column 'x' .*accuracy_reward, len_reward"):
        import_samples("trl", [Source("g", out)], tmp_path / "s", base="g@5", source_metric="x")


# -- shared: mixtures, pickles, protocol, command ---------------------------------------------


def test_formats_follow_the_one_importer_protocol():
    import importlib
    import inspect

    from sampler.importers.protocol import ImportFormat
    from sampler.importers.run_import import FORMATS

    for name, (module_name, _) in FORMATS.items():
        if name == "jsonl":
            continue
        module = importlib.import_module(module_name)
        assert isinstance(module, ImportFormat), name
        # the source's session, model, path and options travel as one SourceRead
        assert list(inspect.signature(module.read_source).parameters) == ["source"], name


def test_pickled_dumps_are_refused_unopened(tmp_path):
    path = tmp_path / "rollout_0.pt"
    path.write_bytes(b"\x80\x04not really a pickle")
    with pytest.raises(LeashError, match=r"rollout_0.pt: a pickled file .*runs code"):
        import_samples("verl", [Source("m", path)], tmp_path / "r", base="m")


def test_cli_imports_a_verl_dump_and_says_what_it_read(tmp_path):
    write_verl_step(tmp_path / "d", 0, verl_lines([["2", "3"], ["6", "6"]], 0))
    write_verl_step(tmp_path / "d", 5, verl_lines([["2", "2"], ["6"]], 5))
    result = CliRunner().invoke(
        cli, ["import", "--from", "verl", f"run={tmp_path / 'd'}", "-o", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "run@0: 4 samples" in result.output and "run@5: 3 samples" in result.output
    assert "warning: " in result.output and "than the 2 most have" in result.output


def test_a_parent_of_several_models_output_folders_is_refused_naming_them(tmp_path):
    """issue 23: three models' math500 folders under one parent became k = 3 of one model."""
    for name in ("base", "rl-a", "rl-b"):
        write_qwen_eval(tmp_path / "runs" / name, "math500", [["2"], ["6"]])
    with pytest.raises(
        LeashError, match=r"benchmark math500 are in 3 folders \(.*base/math500, .*rl-a/math500"
    ):
        import_samples("qwen-eval", [Source("m", tmp_path / "runs")], tmp_path / "r", base="m")
    assert not (tmp_path / "r").exists()


def test_the_same_question_of_one_model_from_two_runs_is_refused(tmp_path):
    write_qwen_eval(tmp_path / "run1", "math500", [["2"], ["6"]])
    write_qwen_eval(tmp_path / "run2", "math500", [["2"], ["6"]], seed=1)
    with pytest.raises(LeashError, match=r"question math500/0 of model 'm' was read from .*run1"):
        import_samples(
            "qwen-eval",
            [Source("m", tmp_path / "run1"), Source("m", tmp_path / "run2")],
            tmp_path / "r",
            base="m",
        )
    # seed files side by side in one run folder still add samples
    write_qwen_eval(tmp_path / "run1", "math500", [["2"], ["6"]], seed=1)
    summary = import_samples("qwen-eval", [Source("m", tmp_path / "run1")], tmp_path / "r", "m")
    assert summary.models == {"m": 4}


# -- NeMo-Skills ------------------------------------------------------------------------------


def test_nemo_skills_seed_files_are_samples_and_questions_are_texts(tmp_path):
    results = tmp_path / "eval-results"
    write_nemo_skills(results, "math500", 0, ["2", "5", "3"])
    write_nemo_skills(results, "math500", 1, ["2", "6", "1"])
    write_nemo_skills(results, "aime24", 0, ["2"])
    summary = import_samples("nemo-skills", [Source("m", results)], tmp_path / "r", base="m")
    assert summary.benchmarks == {"math500": 6, "aime24": 1}
    rows = {(r["benchmark"], r["question_id"], r["sample"]): r for r in samples(tmp_path / "r")}
    assert rows[("math500", qid(1), 0)]["source_correct"] is False
    assert rows[("math500", qid(1), 1)]["source_correct"] is True
    assert questions(tmp_path / "r")[qid(2)]["gold"] == "3"


def test_nemo_skills_parent_of_two_models_is_refused(tmp_path):
    for name in ("base", "rl"):
        write_nemo_skills(tmp_path / "runs" / name / "eval-results", "math500", 0, ["2"])
    with pytest.raises(LeashError, match=r"benchmark math500 are in 2 folders"):
        import_samples("nemo-skills", [Source("m", tmp_path / "runs")], tmp_path / "r", base="m")


# -- SkyRL ------------------------------------------------------------------------------------


def test_skyrl_dumped_evals_are_a_checkpoint_series(tmp_path):
    dumped = tmp_path / "export" / "dumped_evals"
    write_skyrl_step(dumped, 0, [["2", "3"], ["5", "5"]])
    write_skyrl_step(dumped, 10, [["2", "2"], ["6", "5"]])
    summary = import_samples("skyrl", [Source("sky", dumped)], tmp_path / "r")
    manifest = ResultsFolder.open(tmp_path / "r").manifest
    assert manifest.base.name == "sky@0" and [t.name for t in manifest.targets] == ["sky@10"]
    assert summary.benchmarks == {"gsm8k": 8}
    rows = {(r["model"], r["question_id"], r["sample"]): r for r in samples(tmp_path / "r")}
    assert rows[("sky@10", qid(1), 0)]["source_correct"] is True
    assert rows[("sky@10", qid(1), 1)]["source_correct"] is False
    assert rows[("sky@0", qid(0), 0)]["text"].endswith("$.")  # <|im_end|> dropped
    assert questions(tmp_path / "r")[qid(1)]["problem"] == PROBLEMS[1][0]
    assert questions(tmp_path / "r")[qid(1)]["gold"] == "6"


def test_skyrl_eval_only_is_the_model_itself(tmp_path):
    write_skyrl_step(tmp_path / "dumped_evals", None, [["2"]])
    summary = import_samples("skyrl", [Source("m", tmp_path / "dumped_evals")], tmp_path / "r", "m")
    assert summary.models == {"m": 1}


# -- verifiers (prime-rl) -----------------------------------------------------------------------


def test_verifiers_results_group_rollouts_by_example(tmp_path):
    write_verifiers_run(tmp_path / "outputs", "math-python", "org/rl", [["2", "1"], ["6", "6"]])
    summary = import_samples(
        "verifiers", [Source("rl", tmp_path / "outputs")], tmp_path / "r", "rl"
    )
    assert summary.benchmarks == {"math-python": 4}
    rows = {(r["question_id"], r["sample"]): r for r in samples(tmp_path / "r")}
    assert [rows[("0", i)]["source_correct"] for i in (0, 1)] == [True, False]
    assert rows[("1", 1)]["text"].endswith("\\boxed{6}$.")
    assert questions(tmp_path / "r")["1"] == questions(tmp_path / "r")["1"] | {
        "problem": PROBLEMS[1][0],
        "gold": "6",
    }
    import_samples(
        "verifiers",
        [Source("rl", tmp_path / "outputs")],
        tmp_path / "s",
        "rl",
        source_metric="format_reward",
    )
    assert {r["source_correct"] for r in samples(tmp_path / "s")} == {None}


def test_verifiers_two_runs_under_one_path_are_refused(tmp_path):
    write_verifiers_run(tmp_path / "outputs", "math-python", "org/base", [["2"]])
    write_verifiers_run(tmp_path / "outputs", "math-python", "org/rl", [["2"]])
    with pytest.raises(LeashError, match=r"benchmark math-python are in 2 folders"):
        import_samples("verifiers", [Source("m", tmp_path / "outputs")], tmp_path / "r", "m")


# -- NeMo-RL ----------------------------------------------------------------------------------


def test_nemo_rl_evaluation_data_with_python_reprs(tmp_path):
    write_nemo_rl(tmp_path / "eval_out", [["2", "3"], ["6", "6"]])
    summary = import_samples("nemo-rl", [Source("rl", tmp_path / "eval_out")], tmp_path / "r", "rl")
    assert summary.benchmarks == {"math500": 4}
    found = questions(tmp_path / "r")
    assert found[qid(0)]["problem"] == PROBLEMS[0][0] and found[qid(0)]["gold"] == "2"
    verdicts = sorted(
        (r["question_id"] == qid(0), r["source_correct"]) for r in samples(tmp_path / "r")
    )
    assert verdicts == [(False, True), (False, True), (True, False), (True, True)]


def test_nemo_rl_repr_is_never_run(tmp_path):
    path = write_nemo_rl(tmp_path / "eval_out", [["2"]])
    document = json.loads(path.read_text())
    hostile = "__import__('os').system('touch " + str(tmp_path / "pwned") + "')"
    document["evaluation_data"][0]["extra_env_info"] = "{'ground_truth': " + hostile + "}"
    path.write_text(json.dumps(document))
    import_samples("nemo-rl", [Source("rl", tmp_path / "eval_out")], tmp_path / "r", "rl")
    assert not (tmp_path / "pwned").exists()
    assert questions(tmp_path / "r")[qid(0)]["gold"] is None


def test_one_model_name_for_two_verl_runs_is_refused(tmp_path):
    write_verl_step(tmp_path / "run1" / "val", 0, verl_lines([["2"]], 0))
    write_verl_step(tmp_path / "run2" / "val", 0, verl_lines([["3"]], 0))
    sources = [Source("m", tmp_path / "run1" / "val"), Source("m", tmp_path / "run2" / "val")]
    with pytest.raises(LeashError, match=r"of model 'm@0' was read from .*run1.*two runs"):
        import_samples("verl", sources, tmp_path / "r")


# -- prime-rl ---------------------------------------------------------------------------------


def test_prime_rl_eval_episodes_are_a_series(tmp_path):
    write_prime_rl_step(tmp_path / "out", 0, [["2", "3"], ["6", "6"]])
    write_prime_rl_step(tmp_path / "out", 50, [["2", "2"], ["5", "6"]])
    write_prime_rl_step(tmp_path / "out", 50, [["7", "7"]], kind="train")  # not evaluations
    summary = import_samples("prime-rl", [Source("p", tmp_path / "out")], tmp_path / "r")
    assert summary.models == {"p@0": 4, "p@50": 4} and summary.benchmarks == {"gsm8k": 8}
    assert ResultsFolder.open(tmp_path / "r").manifest.base.name == "p@0"
    rows = {(r["model"], r["question_id"], r["sample"]): r for r in samples(tmp_path / "r")}
    assert [rows[("p@50", "1", i)]["source_correct"] for i in (0, 1)] == [False, True]
    assert questions(tmp_path / "r")["1"]["gold"] == "6"


def test_verl_gold_that_is_not_one_answer_is_named_not_fatal(tmp_path):
    lines = verl_lines([["2"], ["6"]], 0)
    lines[0]["gts"] = ["2"]  # a list of one answer is that answer
    lines[1]["gts"] = ["6", "6.0"]  # several: no gold from it
    write_verl_step(tmp_path / "d", 0, lines)
    summary = import_samples("verl", [Source("m", tmp_path / "d")], tmp_path / "r")
    assert questions(tmp_path / "r")[qid(0)]["gold"] == "2"
    assert questions(tmp_path / "r")[qid(1)]["gold"] is None
    (warning,) = summary.warnings
    assert "1 line(s) have a 'gts' that is not one answer (lines 2)" in warning
    path = write_verl_generation(tmp_path / "gen.parquet", [["2"]])
    import_samples("verl", [Source("g", path)], tmp_path / "s", base="g")
    assert questions(tmp_path / "s")[qid(0)]["gold"] == "2"
