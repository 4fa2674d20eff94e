"""The tiny causal LM: a transformers Llama config small enough to train on a CPU in minutes.

Sizes keep a head dimension of 64 (what vLLM's CPU attention kernels accept) and scale
width and depth; ``new_model`` builds one with seeded weights for the character vocabulary.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sampler.toy_rlvr.tokenizer import BOS, EOS, PAD, alphabet


@dataclass(frozen=True)
class ModelSize:
    hidden: int
    layers: int
    heads: int
    intermediate: int


#: ``--size``: parameters are about 12 * layers * hidden**2 (tiny: ~0.4 M).
SIZES: dict[str, ModelSize] = {
    "tiny": ModelSize(hidden=128, layers=2, heads=2, intermediate=384),
    "small": ModelSize(hidden=256, layers=4, heads=4, intermediate=768),
    "medium": ModelSize(hidden=512, layers=6, heads=8, intermediate=1536),
}
HEAD_DIM = 64
CONTEXT = 128


def model_config(size: str) -> Any:
    from transformers import LlamaConfig

    s = SIZES[size]
    vocab = alphabet()
    return LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=s.hidden,
        intermediate_size=s.intermediate,
        num_hidden_layers=s.layers,
        num_attention_heads=s.heads,
        num_key_value_heads=s.heads,
        head_dim=HEAD_DIM,
        max_position_embeddings=CONTEXT,
        tie_word_embeddings=True,
        bos_token_id=vocab.index(BOS),
        eos_token_id=vocab.index(EOS),
        pad_token_id=vocab.index(PAD),
        dtype="float32",
    )


def new_model(size: str, seed: int) -> Any:
    """A freshly initialised model of ``size`` (the same weights for the same seed)."""
    import torch
    from transformers import LlamaForCausalLM

    torch.manual_seed(seed)
    return LlamaForCausalLM(model_config(size))


def parameter_count(model: Any) -> int:
    return sum(p.numel() for p in model.parameters())


def default_threads(size: str) -> int:
    """CPU threads for training ``size``: the tiny model's matrices are too small to split
    (a second thread only spins, and on a busy machine costs ten times the CPU), larger
    ones use up to four cores."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 1 if size == "tiny" else max(1, min(4, cores or 1))


def seed_everything(seed: int, threads: int = 1) -> None:
    """Seed python, numpy and torch and set torch's CPU threads."""
    import random

    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
