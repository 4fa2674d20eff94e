"""pass@k and the unseen-support bound ε: the probabilities behind every support claim.

Pure numpy, no I/O. A question is in a model's support at budget k when at least one
of k samples is verified correct; from n verified samples of which c are correct the
unbiased estimate of that probability is pass@k (Chen et al. 2021).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

_CELLS_PER_CHUNK = 2_000_000


def pass_at_ks(n: np.ndarray, c: np.ndarray, ks: Sequence[int]) -> np.ndarray:
    """pass@k for each row and each k in ``ks`` (rows x len(ks)); every k <= every n.

    1 - C(n-c, k)/C(n, k) = 1 - prod_{j<k} (1 - c/(n-j)). The product is built with
    one cumulative product per row, so values for increasing k come from the same
    sequence of roundings and are non-decreasing in k exactly, not just approximately.
    """
    ks_arr = np.asarray(ks, dtype=np.int64)
    out = np.empty((n.size, ks_arr.size), dtype=np.float64)
    if n.size == 0 or ks_arr.size == 0:
        return out
    # distinct (n, c) pairs as one int64 each: np.unique(axis=0) sorts rows as void
    # records, several times slower than sorting integers
    n64, c64 = np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64)
    width = int(c64.max(initial=0)) + 1
    packed, inverse = np.unique(n64 * width + c64, return_inverse=True)
    un, uc = packed // width, packed % width
    k_grid = ks_arr[None, :]
    share = uc / un
    # closed forms: no correct sample -> 0; fewer wrong samples than k -> 1; k = 1 -> c/n
    result = np.where((un - uc)[:, None] < k_grid, 1.0, 0.0)
    result = np.where(k_grid == 1, share[:, None], result)
    todo = np.flatnonzero((uc > 0) & ((un - uc)[:, None] >= k_grid).any(axis=1))
    if todo.size:
        kmax = int(ks_arr.max())
        rows_per_chunk = max(1, _CELLS_PER_CHUNK // kmax)
        j = np.arange(kmax, dtype=np.float64)[None, :]
        for start in range(0, todo.size, rows_per_chunk):
            rows = todo[start : start + rows_per_chunk]
            nn = un[rows, None].astype(np.float64)
            cc = uc[rows, None].astype(np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                factors = np.clip(1.0 - cc / (nn - j), 0.0, 1.0)
            fraction = 1.0 - np.cumprod(factors, axis=1)[:, ks_arr - 1]
            open_ = (un - uc)[rows, None] >= k_grid  # where the closed forms do not apply
            fraction = np.maximum(fraction, share[rows, None])  # pass@k >= pass@1, in floats too
            result[rows] = np.where(open_ & (k_grid > 1), fraction, result[rows])
    out[:] = result[inverse.reshape(-1)]
    return out


def _check_counts(n: np.ndarray, c: np.ndarray) -> None:
    if (c < 0).any() or (c > n).any():
        raise ValueError("correct counts must satisfy 0 <= c <= n")


def pass_at_k(n: np.ndarray, c: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """Unbiased pass@k (Chen et al. 2021) of each (n, c): 1 - C(n-c, k)/C(n, k).

    1 when n - c < k; pass@1 == c/n; requires 1 <= k <= n (ValueError otherwise).
    ``k`` is one budget for all, or one per element.
    """
    n_b, c_b, k_b = np.broadcast_arrays(
        np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64), np.asarray(k, dtype=np.int64)
    )
    shape = n_b.shape
    n_arr, c_arr, k_arr = n_b.reshape(-1), c_b.reshape(-1), k_b.reshape(-1)
    _check_counts(n_arr, c_arr)
    if (k_arr < 1).any():
        raise ValueError("k must be at least 1")
    if (k_arr > n_arr).any():
        bad = int(np.flatnonzero(k_arr > n_arr)[0])
        raise ValueError(f"k = {k_arr[bad]} is larger than n = {n_arr[bad]}")
    out = np.empty(k_arr.size, dtype=np.float64)
    for value in np.unique(k_arr):
        mask = k_arr == value
        out[mask] = pass_at_ks(n_arr[mask], c_arr[mask], [int(value)])[:, 0]
    return out.reshape(shape)


def epsilon(k: int, zeta: float = 0.05) -> float:
    """Probability bound of a correct answer never seen in k samples, at confidence 1 - zeta.

    Notes: ε(k, ζ) = −ln(ζ) / k. If a model's probability of a correct answer were
    above ε, k samples would all miss it with probability (1 − ε)^k ≤ e^(−εk) = ζ;
    so an unseen answer has probability at most ε with confidence 1 − ζ
    (k = 8192, ζ = 0.05 gives about 3.66e-4).
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    if not 0.0 < zeta < 1.0:
        raise ValueError("zeta must be in (0, 1)")
    return -math.log(zeta) / k
