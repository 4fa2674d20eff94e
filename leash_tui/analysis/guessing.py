"""Guessing: the chance of hitting the gold by guessing, and support that chance explains.

Pure numpy, no I/O. Large-budget pass@k rewards guessing (Dragoi et al., "Beyond
Pass@k", arXiv 2510.08325): on a question with m equally likely answers (a choice
question with m options), a guesser that picks uniformly at random is in support at
budget k with probability

    guess@k = 1 − (1 − 1/m)^k

(m = 4, k = 8: 0.90). A model's support on such a question is *explained by chance*
when its c successes of n are no more than a guesser would reach at the level ζ:
the one-sided binomial tail P(Binomial(n, 1/m) ≥ c) > ζ (so 2 of 8 on four options,
p = 0.63, is; 8 of 8, p = 1.5e-5, is not).
"""

from __future__ import annotations

import re

import numpy as np

from leash_tui.analysis.estimators import binom_cdf

#: an option line of a choice question: "(A) ...", "A) ...", "A. ..." at a line start
_OPTION = re.compile(r"^\s*\(?([A-Z])[).:]\s", re.MULTILINE)


def choice_options(problem: str | None) -> int | None:
    """How many options a choice question lists ("(A) ..." lines: the highest letter),
    None when it lists fewer than two."""
    if not problem:
        return None
    letters = {match.group(1) for match in _OPTION.finditer(problem)}
    if len(letters) < 2:
        return None
    return ord(max(letters)) - ord("A") + 1


def guess_chance(m: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """guess@k = 1 − (1 − 1/m)^k for m options (m >= 1)."""
    m_a = np.asarray(m, dtype=np.float64)
    return 1.0 - (1.0 - 1.0 / m_a) ** np.asarray(k, dtype=np.float64)


def chance_tail(c: np.ndarray, n: np.ndarray, m: np.ndarray) -> np.ndarray:
    """P(Binomial(n, 1/m) ≥ c): how often a uniform guesser does at least as well."""
    c_a, n_a, m_a = np.broadcast_arrays(
        np.asarray(c, dtype=np.int64), np.asarray(n, dtype=np.int64), np.asarray(m, dtype=np.int64)
    )
    p = 1.0 / m_a.reshape(-1).astype(np.float64)
    below = binom_cdf(c_a.reshape(-1) - 1, n_a.reshape(-1), p)
    return np.clip(1.0 - below, 0.0, 1.0).reshape(c_a.shape)


def chance_explained(c, n, m, zeta: float = 0.05) -> np.ndarray:
    """Support (c >= 1) that a uniform guesser reaches with probability above ``zeta``."""
    c_a = np.asarray(c, dtype=np.int64)
    return (c_a >= 1) & (chance_tail(c_a, n, m) > zeta)
