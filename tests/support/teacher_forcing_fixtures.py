"""A closed-form checkpoint with a large vocabulary and a spread distribution, and a folder
of stored samples over its words, for the teacher-forcing commands (entropy, perplexity).

Every position's next-token distribution is p (closed_form_model), with p spread over all
VOCAB tokens, so the top-20 bounds of sampling are loose and only teacher forcing over
the full vocabulary gives H(p); a text's mean NLL is the mean of -ln p over its tokens.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sampler.store.schema import ModelEntry
from tests.support.closed_form_model import build_logits_checkpoint, spread_vocabulary
from tests.support.folder_builders import write_folder

VOCAB = 400
PLAIN = {
    "template": "plain",
    "template_text": "Problem: {problem} Solution:",
    "chat_template": False,
}


def spread_distribution(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.full(VOCAB, 2.0))


def entropy_of(p: np.ndarray) -> float:
    return float(-(p * np.log(p)).sum())


def mean_nll(p: np.ndarray, text: str) -> float:
    words = spread_vocabulary(VOCAB)
    return float(np.mean([-np.log(p[words.index(w)]) for w in text.split()]))


def checkpoint(folder: Path, p: np.ndarray) -> Path:
    return build_logits_checkpoint(folder, spread_vocabulary(VOCAB), np.log(p), context=128)


TEXTS = ["w5 w17 \\boxed{3}", "w1 w2 w3 w4 w5", "\\boxed{7}", "w300 w12"]


def stored_folder(root: Path) -> Path:
    """base (sampled, with a recorded plain prompt) and rlvr (imported, no record): two
    questions, four samples each, with a top-k token entropy of 0.1 everywhere."""
    questions = [
        {"benchmark": "alg", "question_id": q, "problem": f"Question w{q}", "gold": "3"}
        for q in ("1", "2")
    ]
    rows = []
    for q in ("1", "2"):
        for model in ("base", "rlvr"):
            for s, text in enumerate(TEXTS):
                ok = "boxed{3}" in text
                rows.append(
                    {
                        "benchmark": "alg",
                        "question_id": q,
                        "model": model,
                        "sample": s,
                        "text": text,
                        "finish_reason": "stop" if s % 2 == 0 else "length",
                        "answer": "3" if ok else None,
                        "correct": ok,
                        "status": "correct" if ok else "no_answer",
                        "token_entropy": 0.1,
                    }
                )
    return write_folder(
        root,
        questions,
        [rows],
        models=[ModelEntry("base", "base", sampling=dict(PLAIN)), ModelEntry("rlvr", "target")],
        benchmarks=["alg"],
    )
