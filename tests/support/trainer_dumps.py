"""Writers of small trainer dumps (verl, TRL, NeMo-Skills, SkyRL) shaped as the tools write them.

Built field by field from the writers' code, at the commits the importer modules cite:
verl ``RayPPOTrainer._dump_generations`` (volcengine/verl 00401103a8c8900774aba04b910de5b0af930b99)
and ``main_generation.py`` (0d75188ec6995694eb7ef0a01e7f86066d7097b1); TRL
``GRPOTrainer.log`` (huggingface/trl f2cd57710ae345ea6428ae95363267fcf38a3dc8); NeMo-Skills
``generate.py``/``evaluator/math.py`` (NVIDIA/NeMo-Skills 0b012df8a09cd4730d31b16e90a0d8f13d145fb8);
SkyRL ``dump_per_dataset_eval_results`` (NovaSky-AI/SkyRL 05885025fabff452b330e085e8db0a4196e8f261);
verifiers ``save_outputs`` (PrimeIntellect-ai/verifiers a60a606ecc4d309247edf9ff92c3eabca362781f);
NeMo-RL ``_save_evaluation_data_to_json`` (NVIDIA-NeMo/RL 7ea279abfbeb698b092856d0dab61e7cf39bc909);
prime-rl ``FileMonitor.log_episodes``
(PrimeIntellect-ai/prime-rl 559b44772e471d1538537b8805cc77f3824a5e64).
verl and TRL prompts are ChatML decoded without special tokens, as ``decode(...,
skip_special_tokens=True)`` leaves them; SkyRL's keep them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from tests.support.eval_outputs import PROBLEMS, completion

SYSTEM = "You are a helpful assistant."


def chatml_decoded(problem: str) -> str:
    """A Qwen chat prompt as verl and TRL log it (special tokens dropped by the decode)."""
    return f"system\n{SYSTEM}\nuser\n{problem}\nassistant\n"


def verl_lines(
    answers: list[list[str]], step: int, problems=PROBLEMS, gts: bool = True, acc: bool = False
) -> list[dict]:
    """One line per sample; ``answers[i]`` are problem i's n answers, interleaved as
    ``repeat(interleave=True)`` leaves them; score 1.0 where the answer is the gold."""
    lines = []
    for (problem, gold), given in zip(problems, answers, strict=False):
        for answer in given:
            score = 1.0 if answer == gold else 0.0
            line = {"input": chatml_decoded(problem), "output": completion(answer)}
            if gts:
                line["gts"] = gold
            line |= {"score": score, "step": step, "reward": score}
            if acc:
                line |= {"acc": answer == gold, "pred": answer}
            lines.append(line)
    return lines


def write_verl_step(folder: Path, step: int, lines: list[dict]) -> Path:
    """``DIR/STEP.jsonl`` as ``_dump_generations`` writes it (lines joined, one final newline)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{step}.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return path


def write_verl_generation(path: Path, answers: list[list[str]], problems=PROBLEMS) -> Path:
    """main_generation's output: the dataset's columns plus ``responses``."""
    rows = {
        "data_source": ["openai/gsm8k"] * len(answers),
        "prompt": [[{"role": "user", "content": p}] for p, _ in problems[: len(answers)]],
        "ability": ["math"] * len(answers),
        "reward_model": [{"ground_truth": g, "style": "rule"} for _, g in problems[: len(answers)]],
        "extra_info": [{"index": i, "split": "test"} for i in range(len(answers))],
        "responses": [[completion(a) for a in given] for given in answers],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(rows), path)
    return path


def write_trl_completions(
    output_dir: Path, step: int, answers: list[list[str]], problems=PROBLEMS
) -> Path:
    """``OUTPUT_DIR/completions/completions_{step:05d}.parquet``, one row per completion."""
    table: dict[str, list] = {"step": [], "prompt": [], "completion": []}
    rewards: list[float] = []
    lengths: list[float] = []
    for (problem, gold), given in zip(problems, answers, strict=False):
        for answer in given:
            table["step"].append(step)
            table["prompt"].append(chatml_decoded(problem))
            table["completion"].append(completion(answer))
            rewards.append(1.0 if answer == gold else 0.0)
            lengths.append(0.5)
    table |= {"accuracy_reward": rewards, "len_reward": lengths}
    table["advantage"] = [r - 0.5 for r in rewards]
    folder = output_dir / "completions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"completions_{step:05d}.parquet"
    pq.write_table(pa.table(table), path)
    return path


def write_nemo_skills(
    eval_results: Path, benchmark: str, seed: int, answers: list[str], problems=PROBLEMS
) -> Path:
    """``eval-results/<benchmark>/output-rs<seed>.jsonl``: the data point's fields, the
    generation, and the math evaluator's ``predicted_answer`` / ``symbolic_correct``."""
    folder = eval_results / benchmark
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"output-rs{seed}.jsonl"
    lines = []
    for (problem, gold), answer in zip(problems, answers, strict=False):
        lines.append(
            {
                "generation": completion(answer),
                "num_generated_tokens": 12,
                "problem": problem,
                "expected_answer": gold,
                "predicted_answer": answer,
                "symbolic_correct": answer == gold,
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def chatml(problem: str) -> str:
    """A Qwen chat prompt with its special tokens, as SkyRL's ``tokenizer.decode`` keeps them."""
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{problem}<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def write_skyrl_step(
    dumped_evals: Path, step: int | None, answers: list[list[str]], problems=PROBLEMS
) -> Path:
    """``dumped_evals/global_step_<N>_evals/<data_source>.jsonl`` (``eval_only`` for None),
    plus the ``aggregated_results.jsonl`` beside it."""
    folder = dumped_evals / ("eval_only" if step is None else f"global_step_{step}_evals")
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for (problem, gold), given in zip(problems, answers, strict=False):
        for answer in given:
            lines.append(
                {
                    "input_prompt": chatml(problem),
                    "output_response": completion(answer) + "<|im_end|>",
                    "score": [0.0, 1.0 if answer == gold else 0.0],
                    "stop_reason": "stop",
                    "env_class": "gsm8k",
                    "env_extras": {
                        "reward_spec": {"method": "rule", "ground_truth": gold},
                        "extra_info": {"split": "test"},
                    },
                    "data_source": "openai/gsm8k",
                }
            )
    path = folder / "openai_gsm8k.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    (folder / "aggregated_results.jsonl").write_text(json.dumps({"eval/avg_score": 0.5}) + "\n")
    return path


def write_verifiers_run(
    outputs: Path, env_id: str, model: str, answers: list[list[str]], problems=PROBLEMS
) -> Path:
    """``outputs/evals/<env_id>--<model>/<run>/results.jsonl`` and its ``metadata.json``,
    one ``RolloutOutput`` line per rollout (verifiers' ``save_outputs``)."""
    folder = outputs / "evals" / f"{env_id}--{model.replace('/', '--')}" / "1a2b3c4d"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for example_id, ((problem, gold), given) in enumerate(zip(problems, answers, strict=False)):
        for answer in given:
            reward = 1.0 if answer == gold else 0.0
            lines.append(
                {
                    "example_id": example_id,
                    "prompt": [
                        {"role": "system", "content": SYSTEM},
                        {"role": "user", "content": problem},
                    ],
                    "completion": [{"role": "assistant", "content": completion(answer)}],
                    "answer": gold,
                    "reward": reward,
                    "metrics": {"correct_answer": reward, "format_reward": 0.5},
                    "timing": {"generation_ms": 10.0, "scoring_ms": 1.0, "total_ms": 11.0},
                    "is_completed": True,
                    "is_truncated": False,
                    "info": {},
                }
            )
    path = folder / "results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    metadata = {"env_id": env_id, "model": model, "num_examples": len(answers)}
    (folder / "metadata.json").write_text(json.dumps(metadata))
    return path


def write_nemo_rl(save_path: Path, answers: list[list[str]], problems=PROBLEMS) -> Path:
    """``SAVE_PATH/evaluation_data.json`` and ``config.json`` as ``_save_evaluation_data_to_json``
    writes them: ``message_log`` and ``extra_env_info`` as ``str()`` of Python objects."""
    samples = []
    for (problem, gold), given in zip(problems, answers, strict=False):
        prompt = f"{SYSTEM}\n" + chatml(problem).split("<|im_end|>\n", 1)[1]
        for answer in given:
            messages = [
                {"role": "user", "content": prompt, "token_ids": "tensor([151644, 872])"},
                {"role": "assistant", "content": completion(answer)},
            ]
            samples.append(
                {
                    "prompt": prompt,
                    "response": completion(answer),
                    "reward": 1.0 if answer == gold else 0.0,
                    "message_log": str(messages),
                    "extra_env_info": str({"ground_truth": gold}),
                    "sample_index": len(samples),
                }
            )
    save_path.mkdir(parents=True, exist_ok=True)
    path = save_path / "evaluation_data.json"
    path.write_text(json.dumps({"evaluation_data": samples}, indent=2))
    config = {"model_name": "org/rl", "dataset_name": "math500", "num_tests_per_prompt": 2}
    (save_path / "config.json").write_text(json.dumps(config, indent=2))
    return path


def write_prime_rl_step(
    output_dir: Path, step: int, answers: list[list[str]], kind: str = "eval", problems=PROBLEMS
) -> Path:
    """``OUTPUT_DIR/rollouts/step_<N>/<kind>/all/traces.jsonl``: one ``Episode.to_record()``
    line per episode (prime-rl's FileMonitor), one trace each."""
    folder = output_dir / "rollouts" / f"step_{step}" / kind / "all"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for idx, ((problem, gold), given) in enumerate(zip(problems, answers, strict=False)):
        for answer in given:
            nodes = [
                {"parent": None, "message": {"role": "system", "content": SYSTEM}},
                {"parent": 0, "message": {"role": "user", "content": problem}},
                {
                    "parent": 1,
                    "message": {"role": "assistant", "content": completion(answer)},
                    "sampled": True,
                    "token_ids": [1, 2, 3],
                    "mask": [False, True, True],
                },
            ]
            trace = {
                "version": 1,
                "task": {"type": "math", "data": {"idx": idx, "prompt": problem, "answer": gold}},
                "agent": {"config": {}, "name": "agent", "trainable": True},
                "nodes": nodes,
                "rewards": {"correct": {"score": 1.0 if answer == gold else 0.0, "weight": 1.0}},
                "metrics": {},
                "is_completed": True,
                "ok": True,
                "stop_condition": "completed",
            }
            lines.append(
                {
                    "id": f"ep{len(lines)}",
                    "env": {"id": "agentic-judge+gsm8k"},
                    "task": trace["task"],
                    "group": {"id": f"g{idx}"},
                    "run": {"type": "eval", "id": "run1"},
                    "ok": True,
                    "errors": [],
                    "traces": [trace],
                }
            )
    path = folder / "traces.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path
