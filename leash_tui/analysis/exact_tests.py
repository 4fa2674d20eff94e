"""Exact tests for support dynamics, vectorised: Fisher's exact test and the sign test.

scipy.stats has both (``fisher_exact``, ``binomtest``) and the test suite checks
these functions against it, but scipy computes one table per call (about 3 ms for a
2x2 table with 1,024 samples a row, so 5 s for 1,500 questions) and importing
scipy.stats alone takes over a second. Here every table of a report is computed at
once with numpy from a table of log-factorials (exact ``math.lgamma`` values), with
the same definition of the two-sided p-value: the sum of the probabilities of all
tables no more likely than the observed one (relative tolerance 1e-7, as R uses).
"""

from __future__ import annotations

import math

import numpy as np

#: tables whose probability is within this relative distance of the observed one count
#: as "as extreme" (R's fisher.test uses the same 1 + 1e-7)
_TIE_TOLERANCE = 1e-7
_CELLS_PER_CHUNK = 32_768  # a chunk's arrays stay in cache: 2x faster than 2M-cell chunks


def log_factorials(upto: int) -> np.ndarray:
    """ln(i!) for i = 0..upto (math.lgamma, correctly rounded to about 1 ulp)."""
    return np.array([math.lgamma(i + 1.0) for i in range(int(upto) + 1)], dtype=np.float64)


def _as_int64(*arrays: np.ndarray) -> list[np.ndarray]:
    out = [np.asarray(a, dtype=np.int64).reshape(-1) for a in arrays]
    if len({a.shape for a in out}) != 1:
        raise ValueError("table cells must have the same length")
    if any((a < 0).any() for a in out):
        raise ValueError("table cells must be non-negative")
    return out


def fisher_exact_two_sided(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray
) -> np.ndarray:
    """Two-sided Fisher exact p-value of each 2x2 table [[a, b], [c, d]].

    A table with an empty row or column has p = 1 (as scipy.stats.fisher_exact).
    Identical tables are computed once.
    """
    a, b, c, d = _as_int64(a, b, c, d)
    if a.size == 0:
        return np.zeros(0, dtype=np.float64)
    ua, ub, uc, ud, inverse = _distinct_tables(a, b, c, d)
    row1, row2, col1 = ua + ub, uc + ud, ua + uc
    total = row1 + row2
    p = np.ones(len(ua), dtype=np.float64)
    todo = np.flatnonzero((row1 > 0) & (row2 > 0) & (col1 > 0) & (col1 < total))
    if todo.size:
        lf = log_factorials(int(total[todo].max()))
        lo = np.maximum(0, col1 - row2)
        hi = np.minimum(col1, row1)
        width = hi - lo + 1
        todo = todo[np.argsort(width[todo], kind="stable")]  # similar widths share a chunk
        start = 0
        while start < todo.size:  # chunks of at most _CELLS_PER_CHUNK cells (or one table)
            stop = start + 1
            while stop < todo.size and int(width[todo[stop]]) * (stop + 1 - start) <= (
                _CELLS_PER_CHUNK
            ):
                stop += 1
            idx = todo[start:stop]
            p[idx] = _fisher_chunk(lf, ua[idx], row1[idx], col1[idx], total[idx], lo[idx], hi[idx])
            start = stop
    return np.minimum(p, 1.0)[inverse]


def _distinct_tables(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct tables (their four cells) and each table's position among them: the
    cells packed into one int64 where they fit (np.unique(axis=0) sorts rows as void
    records, 5x slower at 50,000 tables), else by rows."""
    width = int(max(a.max(), b.max(), c.max(), d.max())) + 1
    if width <= 2**15:
        packed, inverse = np.unique(((a * width + b) * width + c) * width + d, return_inverse=True)
        cells = []
        for _ in range(4):
            packed, cell = np.divmod(packed, width)
            cells.append(cell)
        ud, uc, ub, ua = cells
        return ua, ub, uc, ud, inverse.reshape(-1)
    tables, inverse = np.unique(np.stack([a, b, c, d], axis=1), axis=0, return_inverse=True)
    ua, ub, uc, ud = tables.T
    return ua, ub, uc, ud, inverse.reshape(-1)


def _fisher_chunk(
    lf: np.ndarray,
    a: np.ndarray,
    row1: np.ndarray,
    col1: np.ndarray,
    total: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
) -> np.ndarray:
    """Fisher p-values of tables with non-degenerate margins (x = top-left cell).

    ln P(x) = const - ln x! - ln (c1 - x)! - ln (r1 - x)! - ln (n - c1 - r1 + x)!, with
    the margins' part ``const`` computed once per table; tables as likely as the
    observed one are found on the x-dependent part alone.
    """
    r1, c1, n = row1[:, None], col1[:, None], total[:, None]
    const = lf[col1] + lf[total - col1] + lf[row1] + lf[total - row1] - lf[total]

    def varying(x: np.ndarray) -> np.ndarray:
        return -(lf[x] + lf[c1 - x] + lf[r1 - x] + lf[n - c1 - r1 + x])

    width = int((hi - lo).max()) + 1
    x = lo[:, None] + np.arange(width)[None, :]
    valid = x <= hi[:, None]
    np.copyto(x, lo[:, None], where=~valid)
    log_p = varying(x)
    observed = varying(a[:, None])
    extreme = valid & (log_p <= observed + math.log1p(_TIE_TOLERANCE))
    log_p += const[:, None]
    np.exp(log_p, out=log_p)
    log_p[~extreme] = 0.0
    return log_p.sum(axis=1)


def sign_test_two_sided(shrunk: np.ndarray | int, expanded: np.ndarray | int) -> np.ndarray:
    """Two-sided exact binomial test of S against E with p = 1/2 (S ~ Binomial(S + E, 1/2)).

    p = min(1, 2 * P(X <= min(S, E))), which equals scipy.stats.binomtest's two-sided
    p-value for a symmetric null. NaN where S + E = 0 (no discordant question: no test).
    """
    s, e = _as_int64(shrunk, expanded)
    m = s + e
    p = np.full(s.shape, np.nan)
    todo = np.flatnonzero(m > 0)
    if todo.size:
        lf = log_factorials(int(m[todo].max()))
        low = np.minimum(s[todo], e[todo])
        mm = m[todo]
        x = np.arange(int(low.max()) + 1)[None, :]
        valid = x <= low[:, None]
        xs = np.where(valid, x, 0)
        log_p = lf[mm][:, None] - lf[xs] - lf[mm[:, None] - xs] - mm[:, None] * math.log(2.0)
        tail = np.where(valid, np.exp(log_p), 0.0).sum(axis=1)
        p[todo] = np.minimum(1.0, 2.0 * tail)
        p[todo[s[todo] == e[todo]]] = 1.0
    return p
