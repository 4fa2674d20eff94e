"""The harness importers on files the harnesses wrote.

* lm-eval: tests/data/importers/lm-eval-0.4.13/ holds ``--log_samples`` files written by PyPI
  ``lm-eval==0.4.13``'s own evaluator and ``EvaluationTracker`` (generator:
  tests/data/importers/make_lm_eval_samples.py; a toy LM answers, lm-eval writes).
* qwen-eval and lighteval do not install here; their files (tests.support.eval_outputs) follow
  the writers' code: QwenLM/Qwen2.5-Math ``evaluation/math_eval.py`` at commit
  a45202bd16f1ec06f433442dc1152d0074773465 (``sample.update({"code", "pred", "report"})``,
  ``score`` per completion, ``save_jsonl(all_samples, out_file)`` with ``out_file`` =
  ``{data_name}/{split}_{prompt_type}_{n}_seed{s}_t{t}_s{start}_e{end}.jsonl``), and
  huggingface/lighteval ``src/lighteval/logging/evaluation_tracker.py`` and
  ``info_loggers.py`` at commit 3fd15266bc8448b797e61462d293aa3fd40b3580
  (``Dataset.from_list([asdict(detail) ...])`` of ``Detail(doc, model_response, metric)``,
  saved as ``details_<task>_<date>.parquet``); tests/importers/test_importers.py runs them.
"""

from __future__ import annotations

from sampler.importers.run_import import Source, import_samples
from sampler.store.folder import ResultsFolder
from tests.support.paths import REPO_ROOT

LM_EVAL = REPO_ROOT / "tests" / "data" / "importers" / "lm-eval-0.4.13"


def rows(root):
    columns = ["benchmark", "question_id", "sample", "text", "source_correct"]
    table = ResultsFolder.open(root).samples(columns=columns).to_pylist()
    return sorted(table, key=lambda r: (r["benchmark"], r["question_id"], r["sample"]))


def test_lm_eval_log_samples_of_two_tasks_read_by_task_first_filter_once(tmp_path):
    summary = import_samples("lm-eval", [Source("toy", LM_EVAL)], tmp_path / "r", "toy")
    # toy_math: 3 questions written once per filter (2 filters), one completion each;
    # toy_math_k2: repeats 2 -> two completions a question
    assert summary.benchmarks == {"toy_math": 3, "toy_math_k2": 6}
    found = {(r["benchmark"], r["question_id"], r["sample"]): r for r in rows(tmp_path / "r")}
    assert [found[("toy_math", q, 0)]["source_correct"] for q in "012"] == [True, True, False]
    assert found[("toy_math", "2", 0)]["text"].endswith("$\\boxed{4}$.")
    # lm-eval scores a question by its first filtered answer: with two completions, no
    # per-sample verdict is known
    assert {found[("toy_math_k2", q, s)]["source_correct"] for q in "012" for s in (0, 1)} == {None}
    assert [found[("toy_math_k2", "1", s)]["text"][-5:] for s in (0, 1)] == ["{5}$.", "{6}$."]
    questions = ResultsFolder.open(tmp_path / "r").questions.to_pylist()
    by_key = {(q["benchmark"], q["question_id"]): (q["problem"], q["gold"]) for q in questions}
    assert by_key[("toy_math", "1")] == ("What is 2*3?", "6")
    assert by_key[("toy_math_k2", "2")] == ("What is 10-7?", "3")
