"""GPU check of hf teacher forcing: exact token entropy and perplexity against closed forms.

Builds a tiny Llama checkpoint whose next-token distribution is the same p at every
position (zero attention/MLP outputs, ones embeddings, RMSNorm eps 0, LM head column 0 =
ln p), with p spread over a 2,000-token word vocabulary, then runs
sampler.scoring.teacher_forcing.HfTeacherForcing on cuda (cpu when there is none) and
compares: the entropy at every position must be H(p), a text's mean NLL the mean of
-ln p(t) over its tokens (1e-4 relative). Also a long sequence (4,000 tokens, chunked
LM head). Needs torch, transformers, tokenizers, numpy, pyarrow; run from the repo root:

    PYTHONPATH=. python bench/gpu_check_teacher_forcing.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

VOCAB = 2000


def build(folder: Path, p: np.ndarray) -> list[str]:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from bench.word_tokenizer import vocabulary, word_level_tokenizer

    fast = word_level_tokenizer(VOCAB)
    config = LlamaConfig(
        vocab_size=VOCAB, hidden_size=64, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=1, num_key_value_heads=1, head_dim=64,
        max_position_embeddings=8192, rms_norm_eps=0.0, tie_word_embeddings=False,
        bos_token_id=1, eos_token_id=2, pad_token_id=0, dtype="float32",
    )  # fmt: skip
    net = LlamaForCausalLM(config)
    with torch.no_grad():
        for param in net.parameters():
            param.zero_()
        net.model.embed_tokens.weight.fill_(1.0)
        net.model.norm.weight.fill_(1.0)
        for layer in net.model.layers:
            layer.input_layernorm.weight.fill_(1.0)
            layer.post_attention_layernorm.weight.fill_(1.0)
        net.lm_head.weight[:, 0] = torch.tensor(np.log(p), dtype=torch.float32)
    net.save_pretrained(folder)
    fast.save_pretrained(folder)
    return vocabulary(VOCAB)


def check(label: str, got: float, want: float, rel: float = 1e-4) -> bool:
    ok = abs(got - want) <= rel * abs(want)
    print(f"{'PASS' if ok else 'FAIL'} {label}: got {got:.8f}, closed form {want:.8f}")
    return ok


def main() -> int:
    import torch

    from sampler.scoring.teacher_forcing import HfTeacherForcing

    device = "cuda" if torch.cuda.is_available() else "cpu"
    print(f"device: {device} ({torch.cuda.get_device_name(0) if device == 'cuda' else 'no GPU'})")
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.full(VOCAB, 2.0))
    entropy = float(-(p * np.log(p)).sum())
    started = time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        words = build(Path(tmp), p)
        scorer = HfTeacherForcing(tmp, dtype="float32", device=device, chunk=512)
        scorer.start()
        prompt = scorer.encode("w1 w2 w3")
        for length in (5, 300, 4000):
            ids = rng.integers(4, VOCAB, size=length)
            text = " ".join(words[i] for i in ids)
            cont = scorer.encode(text)
            scores = scorer.score(prompt, cont, after_last=True)
            results.append(len(cont) == length and scores.entropy.size == length + 1)
            print(f"{'PASS' if results[-1] else 'FAIL'} {length} tokens: positions scored")
            results.append(
                check(f"{length} tokens: max |H_t - H(p)| / H(p)",
                      entropy + float(np.abs(scores.entropy - entropy).max()), entropy)
            )  # fmt: skip
            want_nll = float(np.mean(-np.log(p[ids])))
            results.append(check(f"{length} tokens: mean NLL", scores.mean_nll, want_nll))
            results.append(
                check(f"{length} tokens: perplexity", float(np.exp(scores.mean_nll)),
                      float(np.exp(want_nll)))
            )  # fmt: skip
        scorer.close()
    elapsed = time.perf_counter() - started
    print(f"{'PASS' if all(results) else 'FAIL'} overall: {sum(results)}/{len(results)} checks,"
          f" {elapsed:.1f} s")  # fmt: skip
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
