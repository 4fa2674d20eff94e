"""Tiny checkpoints whose samples follow a distribution known in closed form.

A Llama model with one layer whose attention and MLP outputs are zero (o_proj and
down_proj weights are 0), every token embedding the same vector of ones and RMSNorm
epsilon 0: the final hidden state is the ones vector at every position, whatever the
prompt, so the next-token logits are column 0 of the LM head, set to ``ln p``. Every
generated token is an independent draw from p.

The word-level vocabulary makes ``\\boxed{0}`` .. ``\\boxed{9}`` single tokens. A model
puts probability on some of these answer tokens and on ``</s>``: a sample is a run of
answer tokens ended by ``</s>``, its final answer (the last ``\\boxed{}``) is answer a
with probability q_a (the sampling distribution after temperature) and there is no
answer with probability q_eos. Everything a report shows then has a closed form:
pass@k, category counts, answer entropy (in expectation) and token entropy (exactly:
every position has the full distribution p, so each sample's mean token entropy is
H(p)).

Building a checkpoint needs torch, transformers and tokenizers (the vllm venv); the
closed-form helpers need only numpy and scipy.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SPECIAL = ["<pad>", "<s>", "</s>", "<unk>"]
ANSWERS = [f"\\boxed{{{i}}}" for i in range(10)]
PROMPT_WORDS = [
    "Problem:",
    "Solution:",
    "Question",
    "Please",
    "reason",
    "step",
    "by",
    "user",
    "assistant",
]
VOCAB_SIZE = 32
EOS = "</s>"
NEG = -1.0e4  # logit of tokens that are never generated (probability 0 in float32)


def vocabulary() -> list[str]:
    words = SPECIAL + ANSWERS + PROMPT_WORDS
    words += [f"w{i}" for i in range(VOCAB_SIZE - len(words))]
    return words


@dataclass(frozen=True)
class ClosedFormModel:
    """Next-token probabilities of a closed-form model: answers (digit -> p) and </s>."""

    answers: dict[int, float]
    eos: float

    def probabilities(self) -> np.ndarray:
        """p over the whole vocabulary (zeros for tokens never generated)."""
        words = vocabulary()
        p = np.zeros(len(words))
        p[words.index(EOS)] = self.eos
        for digit, prob in self.answers.items():
            p[words.index(ANSWERS[digit])] = prob
        assert abs(p.sum() - 1.0) < 1e-12, p.sum()
        return p

    def logits(self) -> np.ndarray:
        p = self.probabilities()
        return np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), NEG)

    def token_entropy(self) -> float:
        """Entropy (nats) of the model's next-token distribution: every sample's mean."""
        p = self.probabilities()
        p = p[p > 0]
        return float(-(p * np.log(p)).sum())

    def sampling(self, temperature: float) -> tuple[dict[int, float], float]:
        """(answer digit -> probability, no-answer probability) of a sample at ``temperature``."""
        if temperature == 1.0:
            return dict(self.answers), self.eos
        weights = {d: p ** (1.0 / temperature) for d, p in self.answers.items()}
        eos = self.eos ** (1.0 / temperature)
        total = sum(weights.values()) + eos
        return {d: w / total for d, w in weights.items()}, eos / total


def build_checkpoint(folder: Path, model: ClosedFormModel, context: int = 64) -> Path:
    """Write a transformers checkpoint (config, safetensors, tokenizer) for ``model``."""
    folder = build_logits_checkpoint(folder, vocabulary(), model.logits(), context)
    (folder / "closed_form.json").write_text(
        json.dumps({"answers": model.answers, "eos": model.eos}), encoding="utf-8"
    )
    return folder


def spread_vocabulary(size: int) -> list[str]:
    """A word vocabulary of ``size`` tokens: the special, answer and prompt words, then w<i>."""
    words = SPECIAL + ANSWERS + PROMPT_WORDS
    return words + [f"w{i}" for i in range(size - len(words))]


def build_logits_checkpoint(
    folder: Path, words: list[str], logits: np.ndarray, context: int = 64
) -> Path:
    """A checkpoint over the word vocabulary ``words`` whose next-token logits are ``logits``
    at every position, whatever the context (see the module docstring)."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = Path(folder)
    tok = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.decoder = decoders.WordPiece(prefix="##", cleanup=False)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token=EOS, unk_token="<unk>", pad_token="<pad>"
    )
    fast.chat_template = (
        "{% for m in messages %}{{ m['role'] }} {{ m['content'] }} {% endfor %}"
        "{% if add_generation_prompt %}assistant {% endif %}"
    )
    config = LlamaConfig(
        vocab_size=len(words),
        hidden_size=64,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=1,
        num_key_value_heads=1,
        head_dim=64,
        max_position_embeddings=context,
        rms_norm_eps=0.0,
        tie_word_embeddings=False,
        bos_token_id=words.index("<s>"),
        eos_token_id=words.index(EOS),
        pad_token_id=words.index("<pad>"),
        dtype="float32",
    )
    net = LlamaForCausalLM(config)
    with torch.no_grad():
        for param in net.parameters():
            param.zero_()
        net.model.embed_tokens.weight.fill_(1.0)
        net.model.norm.weight.fill_(1.0)
        for layer in net.model.layers:
            layer.input_layernorm.weight.fill_(1.0)
            layer.post_attention_layernorm.weight.fill_(1.0)
        net.lm_head.weight[:, 0] = torch.tensor(np.asarray(logits), dtype=torch.float32)
    net.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def write_benchmark(path: Path, n_questions: int = 10, words_per_problem: int = 3) -> Path:
    """A JSONL benchmark: question i has gold i % 10 (the model ignores the problem)."""
    lines = []
    for i in range(n_questions):
        problem = " ".join(["Question"] + [f"w{i % 9}"] * (words_per_problem - 1))
        lines.append(json.dumps({"id": f"q{i}", "problem": problem, "answer": str(i % 10)}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- closed-form expectations ------------------------------------------------------------


def in_support_probability(q: float, k: int) -> float:
    """P(at least one of k samples is correct) for a per-sample success probability q."""
    return 1.0 - (1.0 - q) ** k


def expected_categories(q_base: list[float], q_target: list[float], k: int) -> dict[str, float]:
    b = np.array([in_support_probability(q, k) for q in q_base])
    t = np.array([in_support_probability(q, k) for q in q_target])
    return {
        "P": float((b * t).sum()),
        "E": float(((1 - b) * t).sum()),
        "S": float((b * (1 - t)).sum()),
        "O": float(((1 - b) * (1 - t)).sum()),
        # independent questions: each count is a sum of Bernoulli variables
        "var_P": float((b * t * (1 - b * t)).sum()),
        "var_E": float(((1 - b) * t * (1 - (1 - b) * t)).sum()),
        "var_S": float((b * (1 - t) * (1 - b * (1 - t))).sum()),
        "var_O": float(((1 - b) * (1 - t) * (1 - (1 - b) * (1 - t))).sum()),
    }


def expected_plugin_entropy(probs: list[float], k: int) -> tuple[float, float]:
    """Mean and (delta-method) variance of the plug-in entropy of k draws from ``probs``.

    The mean is exact: E[-sum_j (X_j/k) ln(X_j/k)] with X_j ~ Binomial(k, p_j).
    """
    x = np.arange(k + 1)
    f = x / k
    term = np.where(x > 0, -f * np.log(np.where(x > 0, f, 1.0)), 0.0)
    from scipy.stats import binom  # here, so that building a checkpoint needs no scipy

    mean = float(sum((binom.pmf(x, k, p) * term).sum() for p in probs if p > 0))
    p = np.array([p for p in probs if p > 0])
    h = -(p * np.log(p)).sum()
    variance = float(((p * np.log(p) ** 2).sum() - h**2) / k)
    return mean, variance


def answer_distribution(model: ClosedFormModel, temperature: float) -> list[float]:
    """Probabilities of the answer classes of one sample (answers, then NA)."""
    answers, no_answer = model.sampling(temperature)
    return [*answers.values(), no_answer]


def correct_probability(model: ClosedFormModel, gold: int, temperature: float) -> float:
    return model.sampling(temperature)[0].get(gold, 0.0)


def tolerance(variance: float, sigmas: float = 4.5) -> float:
    return sigmas * math.sqrt(max(variance, 0.0)) + 1e-9
