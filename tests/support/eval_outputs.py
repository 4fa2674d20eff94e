"""Writers of small evaluation outputs in the formats the importers read.

Each writer produces files laid out and shaped as the tool writes them (field
names, nesting, folder and file names), as pinned from the tools' sources in the
importer modules' docstrings. Tests build their inputs with these; nothing here
is copied output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

#: A toy benchmark: (problem, gold). Completions box an answer; a question's
#: verdicts are given per test.
PROBLEMS = [("What is 1+1?", "2"), ("What is 2*3?", "6"), ("What is 10-7?", "3")]


def completion(answer: str) -> str:
    return f"We compute it.\nThe answer is $\\boxed{{{answer}}}$."


def write_qwen_eval(
    output_dir: Path,
    data_name: str,
    answers: list[list[str]],
    scores: list[list[bool]] | None = None,
    seed: int = 0,
    questions: list[int] | None = None,
    finish_reasons: bool = False,
    problems: list[tuple[str, str]] = PROBLEMS,
    raw: list[dict] | None = None,
) -> Path:
    """``OUTPUT_DIR/<data_name>/test_<prompt>_-1_seed<s>_t0.6_s0_e-1.jsonl``, one line a problem.

    ``answers[i]`` are the boxed answers of problem ``questions[i]`` (default i);
    ``scores`` default to answer == gold, as the harness would grade them. ``raw[i]``:
    fields of the benchmark record the harness copies into the row (``answer``,
    ``solution``, ``final_answer``...).
    """
    folder = output_dir / data_name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"test_qwen25-math-cot_-1_seed{seed}_t0.6_s0_e-1.jsonl"
    lines = []
    for i, given in enumerate(answers):
        idx = questions[i] if questions else i
        problem, gold = problems[idx]
        record = {
            "idx": idx,
            "question": problem,
            "gt_cot": f"Compute: {gold}",
            "gt": gold,
            "level": 1,
            "type": "Arithmetic",
            "code": [completion(a) for a in given],
            "pred": list(given),
            "report": [None] * len(given),
            "score": scores[i] if scores else [a == gold for a in given],
        }
        if raw:
            record.update(raw[i])
        if finish_reasons:
            record["finish_reason"] = ["stop"] * (len(given) - 1) + ["length"]
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def lighteval_doc(
    idx: int, task: str, original_query: str | None = None, problems=PROBLEMS
) -> dict:
    """A ``Doc`` as ``dataclasses.asdict`` gives it (lighteval >= 0.11, tasks/requests.py)."""
    problem, gold = problems[idx]
    return {
        "query": f"Solve the following math problem.\n{problem}",
        "choices": [gold],
        "gold_index": 0,
        "instruction": None,
        "images": None,
        "specific": None,
        "unconditioned_query": None,
        "original_query": original_query,
        "id": str(idx),
        "task_name": task,
        "fewshot_samples": [],
        "sampling_methods": ["GENERATIVE"],
        "fewshot_sorting_class": None,
        "generation_size": 32768,
        "stop_sequences": [],
        "use_logits": False,
        "num_samples": 1,
        "generation_grammar": None,
    }


def lighteval_response(texts: list[str]) -> dict:
    """A ``ModelResponse`` as ``asdict`` gives it (models/model_output.py)."""
    return {
        "input": "prompt",
        "input_tokens": [1, 2, 3],
        "text": texts,
        "output_tokens": [list(range(len(t.split()))) for t in texts],
        "text_post_processed": None,
        "reasonings": [None] * len(texts),
        "logprobs": [],
        "argmax_logits_eq_gold": [],
        "logits": None,
        "unconditioned_logprobs": None,
        "truncated_tokens_count": 0,
        "padded_tokens_count": 0,
    }


def write_lighteval(
    output_dir: Path,
    model_name: str,
    task: str,
    answers: list[list[str]],
    metrics: list[dict[str, float]],
    timestamp: str = "2025-11-05T14-43-47.148527",
    doc_ids: list[int] | None = None,
    problems: list[tuple[str, str]] = PROBLEMS,
) -> Path:
    """``OUTPUT_DIR/details/<model>/<ts>/details_<task>_<ts>.parquet`` (evaluation_tracker.py).

    Columns are the asdict of ``DetailsLogger.Detail`` (doc, metric, model_response),
    sorted by name as the tracker does.
    """
    folder = output_dir / "details" / model_name / timestamp
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, given in enumerate(answers):
        idx = doc_ids[i] if doc_ids else i
        rows.append(
            {
                "doc": lighteval_doc(idx, task, problems=problems),
                "metric": metrics[i],
                "model_response": lighteval_response([completion(a) for a in given]),
            }
        )
    path = folder / f"details_{task}_{timestamp}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def write_lighteval_legacy(
    output_dir: Path,
    model_name: str,
    task: str,
    answers: list[list[str]],
    metrics: list[dict[str, float]],
    timestamp: str = "2025-03-01T10-00-00.000000",
) -> Path:
    """Details of lighteval 0.8 to 0.10: flat ``Detail`` fields (logging/info_loggers.py)."""
    folder = output_dir / "details" / model_name / timestamp
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, given in enumerate(answers):
        problem, gold = PROBLEMS[i]
        query = f"Solve the following math problem.\n{problem}"
        rows.append(
            {
                "choices": [],
                "cont_tokens": [],
                "example": query,
                "full_prompt": f"<|user|>{query}<|assistant|>",
                "gold": [gold],
                "gold_index": [],
                "input_tokens": [],
                "instruction": "",
                "metrics": metrics[i],
                "num_asked_few_shots": 0,
                "num_effective_few_shots": 0,
                "padded": [0],
                "pred_logits": [],
                "prediction_logits": [],
                "predictions": [completion(a) for a in given],
                "specifics": {"extracted_predictions": given},
                "truncated": [0],
            }
        )
    path = folder / f"details_{task}_{timestamp}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def lm_eval_line(
    doc_id: int, texts: list[str], filter_name: str, score: float, metric: str = "exact_match"
) -> dict:
    """One ``--log_samples`` line as evaluator.py builds it and the tracker sanitises it."""
    problem, gold = PROBLEMS[doc_id]
    prompt = f"Problem:\n{problem}\n\nSolution:"
    return {
        "doc_id": doc_id,
        "doc": {"problem": problem, "answer": gold, "level": "Level 1"},
        "target": gold,
        "arguments": {
            "gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Problem:"], "do_sample": False}}
        },
        "resps": [texts],
        "filtered_resps": [texts[0]],
        "filter": filter_name,
        "metrics": [metric],
        "doc_hash": f"{doc_id:064x}",
        "prompt_hash": f"{doc_id + 1:064x}",
        "target_hash": f"{doc_id + 2:064x}",
        metric: score,
    }


def write_lm_eval(
    output_dir: Path,
    model_name: str,
    task: str,
    answers: list[list[str]],
    filters: tuple[str, ...] = ("none",),
    date_id: str = "2025-06-01T12-00-00.123456",
) -> Path:
    """``OUTPUT/<model_sanitized>/samples_<task>_<date>.jsonl``: one line per doc per filter."""
    folder = output_dir / model_name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_{date_id}.jsonl"
    lines = []
    for filter_name in filters:
        for doc_id, given in enumerate(answers):
            gold = PROBLEMS[doc_id][1]
            score = 1.0 if given[0] == gold else 0.0
            texts = [completion(a) for a in given]
            lines.append(json.dumps(lm_eval_line(doc_id, texts, filter_name, score)))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
