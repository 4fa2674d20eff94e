"""``--from trl`` on completion logs written by TRL's own GRPOTrainer (a tiny model, on CPU)."""

from __future__ import annotations

import json

import pytest

from sampler.importers.run_import import Source, import_samples
from sampler.importers.source_fields import text_question_id
from sampler.store.folder import ResultsFolder
from tests.support.eval_outputs import PROBLEMS

pytest.importorskip("trl", reason="trl is not installed (pip install trl)")


def tiny_tokenizer():
    """A byte-level BPE tokenizer built here (no download), lossless on any text, with a
    ChatML chat template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<|im_start|>", "<|im_end|>", "<pad>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator([p for p, _ in PROBLEMS] + ["user assistant \\boxed{2}"], trainer)
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<pad>")
    hf.chat_template = (
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
        "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )
    return hf


def accuracy_reward(completions, answer, **kwargs):
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if gold in text else 0.0 for text, gold in zip(texts, answer, strict=True)]


def test_grpo_trainer_completion_logs_import_as_a_series(tmp_path):
    from datasets import Dataset
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from trl import GRPOConfig, GRPOTrainer

    tokenizer = tiny_tokenizer()
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    problems = PROBLEMS[:2]
    dataset = Dataset.from_list(
        [{"prompt": [{"role": "user", "content": p}], "answer": g} for p, g in problems]
    )
    args = GRPOConfig(
        output_dir=str(tmp_path / "grpo"),
        log_completions=True,
        max_steps=2,
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=6,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        bf16=False,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=Qwen2ForCausalLM(config),
        reward_funcs=[accuracy_reward],
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
    )
    trainer.train()
    bench = tmp_path / "bench.jsonl"
    bench.write_text("".join(json.dumps({"problem": p, "answer": g}) + "\n" for p, g in problems))
    summary = import_samples(
        "trl",
        [Source("grpo", tmp_path / "grpo")],
        tmp_path / "r",
        base="grpo@1",
        bench="toy",
        gold_from=[f"toy={bench}"],
    )
    assert set(summary.models) == {"grpo@1", "grpo@2"}
    assert sum(summary.models.values()) == 8  # two steps of a generation batch of 4
    assert summary.warnings == []  # every prompt has its num_generations = 2 completions
    results = ResultsFolder.open(tmp_path / "r")
    golds = {q["question_id"]: (q["problem"], q["gold"]) for q in results.questions.to_pylist()}
    ids = {text_question_id(p): (p, g) for p, g in problems}
    assert golds.keys() <= ids.keys() and all(golds[q] == ids[q] for q in golds)
    verdicts = results.samples(columns=["source_correct"]).column("source_correct").to_pylist()
    assert all(v in (True, False) for v in verdicts)  # accuracy_reward is 0/1
