"""Token entropy of generated samples, from the top-k log-probabilities an engine returns.

docs/support-dynamics.md defines a token's entropy as H_t = -sum_v p_t(v) ln p_t(v) over the
full vocabulary, and a sample's token entropy as the mean of H_t over its generated
tokens. Engines such as vLLM return only the k most likely log-probabilities per
position, so for each position this module computes the top-k part
H_k = -sum_i p_i ln p_i and, with the missing mass r = 1 - sum_i p_i, the bounds

    lower = H_k + r * (-ln p_k)         upper = H_k + r * ln((V - k) / r)

where p_k is the k-th largest probability and V the vocabulary size. The missing mass
is clipped to [0, (V - k) * p_k] (no missing token can be more likely than p_k), which
also absorbs the float32 rounding of the returned log-probabilities: when the top k
cover the whole vocabulary the three values coincide. The sample's ``token_entropy``
column holds the mean top-k part; ``token_entropy_lower``/``_upper`` the mean bounds.

All functions are pure and vectorised (numpy); the engines call them once per batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PositionEntropies:
    """Per-position top-k entropy part and its bounds, in nats; arrays of one length."""

    topk: np.ndarray
    lower: np.ndarray
    upper: np.ndarray


def topk_entropies(top_logprobs: np.ndarray, vocab_size: int) -> PositionEntropies:
    """Entropy part and bounds for each row of ``top_logprobs``.

    ``top_logprobs`` has shape (positions, k): natural-log probabilities of the k most
    likely tokens at each position, in any order; NaN marks an absent entry (a row
    with fewer than k known tokens), -inf a token of probability 0. ``vocab_size`` is
    the size of the distribution's support (the model's vocabulary).
    """
    lp = np.asarray(top_logprobs, dtype=np.float64)
    if lp.ndim != 2:
        raise ValueError(f"top_logprobs must be 2-D (positions, k), got shape {lp.shape}")
    if lp.shape[0] == 0:
        empty = np.zeros(0)
        return PositionEntropies(empty, empty, empty)
    known = ~np.isnan(lp)
    p = np.where(known, np.exp(np.where(known, lp, 0.0)), 0.0)
    plogp = np.where(p > 0.0, p * np.where(p > 0.0, lp, 0.0), 0.0)
    h_k = -plogp.sum(axis=1)
    n_known = known.sum(axis=1)
    p_min = np.where(known, p, np.inf).min(axis=1)
    p_min = np.where(np.isfinite(p_min), p_min, 0.0)
    n_missing = np.maximum(vocab_size - n_known, 0)
    missing = np.clip(1.0 - p.sum(axis=1), 0.0, n_missing * p_min)
    has_missing = missing > 0.0
    safe_missing = np.where(has_missing, missing, 1.0)
    safe_p_min = np.where(has_missing, p_min, 1.0)
    lower = h_k + np.where(has_missing, missing * -np.log(safe_p_min), 0.0)
    upper = h_k + np.where(
        has_missing, missing * np.log(np.maximum(n_missing, 1) / safe_missing), 0.0
    )
    return PositionEntropies(h_k, lower, upper)


def full_entropies(logprobs: np.ndarray) -> np.ndarray:
    """Exact entropy of each row of full-vocabulary log-probabilities (positions, V)."""
    lp = np.asarray(logprobs, dtype=np.float64)
    p = np.exp(lp)
    return -np.where(p > 0.0, p * np.where(p > 0.0, lp, 0.0), 0.0).sum(axis=1)


def segment_sums(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Sum ``values`` over consecutive segments of the given lengths (zero-length allowed)."""
    values = np.asarray(values, dtype=np.float64)
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.sum() != values.shape[0]:
        raise ValueError(f"segment lengths add up to {lengths.sum()}, not {values.shape[0]}")
    sums = np.zeros(lengths.shape[0])
    nonempty = lengths > 0
    if values.shape[0]:
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        sums[nonempty] = np.add.reduceat(values, starts[nonempty])
    return sums


@dataclass(frozen=True)
class SampleEntropy:
    """A sample's mean token entropy (top-k part) with its lower and upper bounds, nats."""

    mean: float | None
    lower: float | None
    upper: float | None


def sample_entropy(sum_topk: float, sum_lower: float, sum_upper: float, n: int) -> SampleEntropy:
    """Means from per-position sums over a sample's ``n`` scored tokens (None when n == 0)."""
    if n <= 0:
        return SampleEntropy(None, None, None)
    return SampleEntropy(sum_topk / n, sum_lower / n, sum_upper / n)
