"""Paired bootstrap confidence intervals over questions for every rate of a report row.

Pure numpy, no I/O. A scope's rates are functions of per-question quantities: with
b_i, t_i the probabilities that question i is in the base's and the target's support
(pass@k, or 0/1 at a support threshold) and p_i the pass@1 of each model,

    P = Σ b_i·t_i,  E = Σ (1 − b_i)·t_i,  S = Σ b_i·(1 − t_i)
    SRR = P/(P+S),  NDR = E/(P+E),  SDS = 2·SRR·NDR/(SRR+NDR),  NSCR = (E−S)/(P+E+S)
    pass@1 = mean p_i,  pass@k = mean b_i (base) or t_i (target), and their differences.

The default interval is a Bayesian bootstrap (Rubin 1981) with a weak prior: each of B
draws weights the *questions* by Dirichlet(1, ..., 1) weights and adds three
pseudo-questions, one each in P, E and S, with Dirichlet weight ``PRIOR`` = 1/2 (Jeffreys);
the interval is the α'/2 and 1 − α'/2 quantiles of the B values, α' the expanded
percentile's tail (``expanded_alpha``, Hesterberg 2015: t rather than z at few
questions). Without the prior a rate whose count is 0 on the data (E = 0: NDR = 0) is 0
in every resample, a zero-width interval that misses the truth whenever it is not 0;
with it the interval is about the Jeffreys interval of that count (bench/ci_coverage.py:
coverage >= 0.93 at 30, 120 and 500 questions for every rate, where the percentile
bootstrap gives NDR 0.75 at 30 questions of the paper's shape).

``method="percentile"`` is Efron's (Efron & Tibshirani 1993, ch. 13) instead: it resamples
the *questions* with replacement, B times, keeping each question's base and target values
together (paired: the models answered the same questions), and recomputes every
statistic from the resampled sums; the interval at level 1 − α is the α/2 and 1 − α/2
quantiles of the B values (linear interpolation, as ``numpy.quantile`` and
``scipy.stats.bootstrap(method="percentile")``). With strata (benchmarks of a domain
or of the overall row), each benchmark is resampled within itself, so every resample
has as many questions of each benchmark as the data (a stratified bootstrap).

Vectorised: a chunk of resamples is an index matrix (rows x questions); its counts per
question (``bincount``) times the matrix of per-question quantities gives every sum of
every resample at once; the next chunk is drawn in a thread meanwhile. A resample where
a rate is undefined (a zero denominator) is left out of that rate's quantiles; a rate
undefined on the data has no interval.

How many resamples: ``resamples`` (B, the report's ``--bootstrap``) is the most drawn.
The draws come in blocks of ``BLOCK`` = 250, block j from its own generator, and the
intervals are computed after 250, 500, 1,000, ... resamples; drawing stops at the first
count where the Monte Carlo standard errors of the interval ends, as shares of their
intervals' half-widths, have a root mean square at most ``MC_SHARE`` (a tenth). The root
mean square, not the largest: each of the 20 ends' measured errors is itself noisy (±30%
at 500 draws), and what the noise of the ends costs, the coverage lost, goes with the
mean of their squares. A row whose rates are close to normal stops at 500 (the error is
about 1.36/sqrt(B) of the half-width: 6.1% at 500, 8.6% at 250, measured noisily). The
error of an end (the α/2 quantile of the B values) is sqrt(q(1 − q)/B) over the density
of the values there, read from the quantiles ``SPREAD`` = 2 binomial standard
deviations, 2·sqrt(B·q(1 − q)) order statistics, either side of it: a quarter of their
distance, the quantile's standard error whatever the distribution; it is trusted once at
least ``MIN_BEYOND`` = 5 resamples lie beyond each end (at 30 questions the ends are the
1.9% and 98.1% quantiles: 500 resamples at least). Noise of a tenth of the half-width in
each end moves the coverage of a 95% interval by about 0.4 points (1.96·φ(1.96)·0.196²
for its two ends) (bench/ci_coverage.py measures it with this rule on).
The result carries ``resamples`` (the count used) and ``mc_error`` (that root mean square).

Each stratum draws from a generator seeded by ``seed`` and a hash of the stratum's own
per-question quantities, so two readers of one folder get the same interval, and a
benchmark's B resample sums are the same in every row that holds it: a domain's or the
overall row's resamples are the sums of its benchmarks' (each benchmark resampled within
itself, as above), drawn once per report when the caller passes a ``memo`` (a report of
four benchmarks draws a third of the questions it drew with a draw per row).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

from leash_tui.analysis.support_names import INTERVAL_NAMES

_CELLS_PER_CHUNK = 100_000  # resample indices drawn at once (fits the caches: 1.5x faster than 1M)
#: the sums each resample keeps (the columns of ``_quantities``)
SUM_COLUMNS = 7
#: names how ``_resample_sums`` draws: a memo kept between processes (report's
#: resample_cache) keys its entries by it, so a change of method draws afresh
RESAMPLE_METHOD = "pcg64-dirichlet-prior-0.5-blocks-250"
#: the ways of drawing: "bayes" (default) and Efron's "percentile" resampling
METHODS = ("bayes", "percentile")
#: Dirichlet weight of each pseudo-question (one each of P, E and S, per stratum): Jeffreys'
#: 1/2, chosen by bench/ci_coverage.py (coverage >= 0.93 at 30, 120 and 500 questions)
PRIOR = 0.5
#: resamples are drawn in blocks of this many (block b seeded by b too), so a report that
#: needs more draws adds blocks and keeps the ones it has
BLOCK = 250
#: draws stop at the first of ``stages`` where the interval ends' Monte Carlo standard
#: errors, as shares of their half-widths, have a root mean square at most this
MC_SHARE = 0.1
#: ... and at least this many resamples lie beyond each end (else the order statistics
#: that measure the error are the extremes: few questions take all ``resamples``)
MIN_BEYOND = 5
#: binomial standard deviations between the order statistics that measure the density at
#: an end (1 is the textbook interval; 2 halves the noise of the measured error)
SPREAD = 2.0


def data_seed(*arrays: np.ndarray | Sequence[object], extra: Sequence[object] = ()) -> int:
    """A 63-bit seed from the bytes of ``arrays`` and ``extra`` (SHA-256)."""
    digest = hashlib.sha256()
    for array in arrays:
        values = np.asarray(array)
        if values.dtype.kind in "OUS":
            digest.update("\x1f".join(map(str, values.tolist())).encode())
        else:
            digest.update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
        digest.update(b"\x1e")
    digest.update(repr(tuple(extra)).encode())
    return int.from_bytes(digest.digest()[:8], "little") >> 1


def rates_from_sums(sums: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Every statistic of ``INTERVAL_NAMES`` from per-resample sums (rows x 7 columns:
    Σ b·t, Σ (1−b)·t, Σ b·(1−t), then Σ pass@1 and Σ pass@k of base and target);
    NaN where undefined."""
    p, e, s = sums[:, 0], sums[:, 1], sums[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        srr = np.where(p + s > 0, p / (p + s), np.nan)
        ndr = np.where(p + e > 0, e / (p + e), np.nan)
        sds = np.where(srr + ndr > 0, 2 * srr * ndr / (srr + ndr), 0.0)
        sds = np.where(np.isnan(srr) | np.isnan(ndr), np.nan, sds)
        nscr = np.where(p + e + s > 0, (e - s) / (p + e + s), np.nan)
    p1b, p1t, pkb, pkt = (sums[:, j] / n for j in (3, 4, 5, 6))
    values = (srr, ndr, sds, nscr, p1b, p1t, p1t - p1b, pkb, pkt, pkt - pkb)
    return dict(zip(INTERVAL_NAMES, values, strict=True))


def _quantities(
    b: np.ndarray, t: np.ndarray, p1_b: np.ndarray, p1_t: np.ndarray, pk_b, pk_t
) -> np.ndarray:
    return np.stack([b * t, (1 - b) * t, b * (1 - t), p1_b, p1_t, pk_b, pk_t], axis=1)


class Intervals(NamedTuple):
    """``bootstrap_intervals``'s answer: the intervals, the resamples drawn for them and
    the largest Monte Carlo standard error of an end as a share of its half-width."""

    ci: dict[str, list[float] | None]
    resamples: int
    mc_error: float


def paired_bootstrap(*args: Any, **kwargs: Any) -> dict[str, list[float] | None]:
    """{statistic: [lo, hi] or None}: ``bootstrap_intervals(...).ci``."""
    return bootstrap_intervals(*args, **kwargs).ci


def bootstrap_intervals(
    b: np.ndarray,
    t: np.ndarray,
    p1_b: np.ndarray,
    p1_t: np.ndarray,
    strata: np.ndarray | None = None,
    resamples: int = 2000,
    level: float = 0.95,
    seed: int = 0,
    passk_b: np.ndarray | None = None,
    passk_t: np.ndarray | None = None,
    memo: MutableMapping[tuple[int, int, bytes], np.ndarray] | None = None,
    method: str = "bayes",
    mc_share: float | None = MC_SHARE,
) -> Intervals:
    """{statistic: [lo, hi] or None} at ``level`` by a paired bootstrap, with the
    resamples drawn (at most ``resamples``: module docstring) and their MC error.

    ``b``, ``t``: per-question in-support probabilities of base and target; ``p1_b``,
    ``p1_t``: per-question pass@1; ``strata``: a label per question (each stratum is
    resampled within itself), None for one stratum; ``passk_b``, ``passk_t``: per-question
    pass@k when it differs from the support probability (a support threshold), else b, t;
    ``memo``: the resample sums of strata already drawn (by seed, B and the stratum's
    data), shared by the rows of one report; ``method``: "bayes" (the default: Dirichlet
    weights with ``PRIOR`` pseudo-questions, module docstring) or "percentile" (Efron's
    resampling with replacement, no prior); ``mc_share``: the Monte Carlo rule's bound
    (module docstring; None draws all ``resamples``).
    """
    if method not in METHODS:
        raise ValueError(f"unknown bootstrap method {method!r} (one of {', '.join(METHODS)})")
    if resamples < 1:
        raise ValueError("the number of bootstrap resamples must be at least 1")
    if not 0.0 < level < 1.0:
        raise ValueError("the confidence level must be in (0, 1)")
    arrays = (
        b,
        t,
        p1_b,
        p1_t,
        b if passk_b is None else passk_b,
        t if passk_t is None else passk_t,
    )
    x = _quantities(*(np.asarray(a, dtype=np.float64) for a in arrays))
    n = x.shape[0]
    if n == 0:
        return Intervals(dict.fromkeys(INTERVAL_NAMES), 0, 0.0)
    groups = [("", np.arange(n))] if strata is None else _strata(np.asarray(strata))
    parts = []
    for label, members in groups:
        part = np.ascontiguousarray(x[members])
        # the label too: two strata holding equal values still draw independently
        digest = hashlib.sha256(f"{label}\x1f".encode() + part.tobytes()).digest()
        parts.append((part, digest if method == "bayes" else digest + b"percentile"))
    point = rates_from_sums(x.sum(axis=0, keepdims=True), n)
    alpha = 1.0 - level
    if method == "bayes":
        alpha = expanded_alpha(alpha, n)
    blocks: list[np.ndarray] = []
    for stage in stages(resamples):
        while len(blocks) * BLOCK < stage:
            blocks.append(_block_sums(parts, len(blocks), resamples, seed, method, memo))
        out, error = _intervals(np.concatenate(blocks), point, alpha, n)
        if mc_share is not None and error <= mc_share and stage * alpha / 2 >= MIN_BEYOND:
            break
    return Intervals(out, stage, error)


def stages(resamples: int) -> list[int]:
    """The resample counts tried in turn: ``BLOCK``, doubling, then ``resamples``."""
    out = [min(BLOCK, resamples)]
    while out[-1] < resamples:
        out.append(min(out[-1] * 2, resamples))
    return out


def _block_sums(
    parts: list[tuple[np.ndarray, bytes]],
    index: int,
    resamples: int,
    seed: int,
    method: str,
    memo: MutableMapping | None,
) -> np.ndarray:
    """Resample sums of block ``index`` (resamples ``BLOCK``·index onwards, at most
    ``BLOCK``), summed over the strata; each stratum's block drawn once per memo."""
    size = min(BLOCK, resamples - index * BLOCK)
    total = None
    for part, digest in parts:
        block_digest = digest if index == 0 else digest + b"block%d" % index
        key = (seed, size, block_digest)
        drawn = memo.get(key) if memo is not None else None
        if drawn is None:
            draw = _resample_sums if method == "bayes" else _percentile_sums
            drawn = draw(part, size, seed, digest, index)
            if memo is not None:
                memo[key] = drawn
        total = drawn.copy() if total is None else total + drawn
    assert total is not None
    return total


def _intervals(
    sums: np.ndarray, point: dict[str, np.ndarray], alpha: float, n: int
) -> tuple[dict[str, list[float] | None], float]:
    """({statistic: [lo, hi] or None}, the root mean square over the interval ends of
    their Monte Carlo standard errors as shares of their half-widths) from the sums."""
    values = rates_from_sums(sums, n)
    out: dict[str, list[float] | None] = {}
    shares: list[float] = []
    for name in INTERVAL_NAMES:
        column = values[name]
        kept = column[~np.isnan(column)]
        if np.isnan(point[name][0]) or kept.size == 0:
            out[name] = None
            continue
        ends = np.array([alpha / 2, 1 - alpha / 2])
        # the ends' Monte Carlo error: the quantile's standard error sqrt(q(1 − q)/B)
        # over the density there, the density read from the quantiles SPREAD binomial
        # standard deviations either side (whatever the distribution of the values)
        step = SPREAD * np.sqrt(ends * (1 - ends) / kept.size)
        at = np.clip(np.concatenate([ends, ends - step, ends + step]), 0, 1)
        lo, hi, lo_a, hi_a, lo_b, hi_b = np.quantile(kept, at)
        half = (hi - lo) / 2
        for error in ((lo_b - lo_a) / (2 * SPREAD), (hi_b - hi_a) / (2 * SPREAD)):
            shares.append(0.0 if error <= 0 else error / half if half > 0 else math.inf)
        out[name] = [float(lo), float(hi)]
    return out, float(np.sqrt(np.mean(np.square(shares)))) if shares else 0.0


def _normal_quantile(q: float) -> float:
    """Φ⁻¹(q) by bisection on math.erfc (60 halvings: float precision)."""
    lo, hi = -40.0, 40.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if 0.5 * math.erfc(-mid / math.sqrt(2)) < q else (lo, mid)
    return (lo + hi) / 2


def _t_quantile(q: float, dof: int) -> float:
    """Student's t quantile: closed forms at 1 and 2 degrees of freedom, else the
    Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5)."""
    if dof == 1:
        return math.tan(math.pi * (q - 0.5))
    if dof == 2:
        return (2 * q - 1) / math.sqrt(2 * q * (1 - q))
    z = _normal_quantile(q)
    v = float(dof)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def expanded_alpha(alpha: float, n: int) -> float:
    """The tail share of the expanded percentile interval (Hesterberg 2015, "What teachers
    should know about the bootstrap", The American Statistician 69:371): α' with
    Φ⁻¹(α'/2) = sqrt((n + 1)/(n − 1))·t_{n−1}(α/2). A Bayesian bootstrap's spread of a
    mean is sqrt((n − 1)/(n + 1)) of the standard error, and t, not z, makes the width at
    few questions; at n = 30 the 95% interval takes the 1.9% and 98.1% quantiles."""
    if n < 3:
        return alpha
    stretched = math.sqrt((n + 1) / (n - 1)) * _t_quantile(alpha / 2, n - 1)
    return 2 * 0.5 * math.erfc(-stretched / math.sqrt(2))


def _percentile_sums(
    part: np.ndarray, resamples: int, seed: int, digest: bytes, block: int = 0
) -> np.ndarray:
    """Column sums of ``part`` (questions x quantities) over ``resamples`` resamples of its
    rows with replacement, from a generator seeded by ``seed`` and the data's ``digest``.

    The next chunk's indices are drawn in a thread (numpy's generator releases the GIL)
    while this one is counted and summed: the generator is used by that thread alone and
    in order, so the draws are those of a plain loop, in 0.55 of its time on 2 cores."""
    size = part.shape[0]
    rng = np.random.default_rng([seed, int.from_bytes(digest[:8], "little"), *_block(block)])
    sums = np.empty((resamples, part.shape[1]))
    rows = max(1, _CELLS_PER_CHUNK // size)
    chunks = [(start, min(resamples, start + rows)) for start in range(0, resamples, rows)]

    def draw(chunk: tuple[int, int]) -> np.ndarray:
        return rng.integers(0, size, size=(chunk[1] - chunk[0], size))

    with ThreadPoolExecutor(max_workers=1) as drawer:
        pending = drawer.submit(draw, chunks[0])
        for i, (start, stop) in enumerate(chunks):
            draws = pending.result()
            if i + 1 < len(chunks):
                pending = drawer.submit(draw, chunks[i + 1])
            offsets = np.arange(stop - start)[:, None] * size
            weights = np.bincount((draws + offsets).ravel(), minlength=(stop - start) * size)
            # as floats: numpy multiplies int64 by float64 matrices without BLAS (3x slower)
            sums[start:stop] = weights.reshape(stop - start, size).astype(np.float64) @ part
    return sums


#: the columns of ``_quantities`` a pseudo-question has (support: P, E, S, pass@k of both)
_SUPPORT = [0, 1, 2, 5, 6]
#: the pseudo-questions' values in those columns: one in P, one in E, one in S
_PSEUDO = np.array([[1, 0, 0, 1, 1], [0, 1, 0, 0, 1], [0, 0, 1, 1, 0]], dtype=np.float64)


def _resample_sums(
    part: np.ndarray, resamples: int, seed: int, digest: bytes, block: int = 0
) -> np.ndarray:
    """Column sums of ``part`` under ``resamples`` Bayesian-bootstrap weightings of its rows
    (Rubin 1981: Dirichlet(1, ..., 1) weights, scaled to sum to the rows), plus ``PRIOR``
    pseudo-questions: one in P, one in E and one in S (in the support columns: P, E, S
    and pass@k, not pass@1), each with a Gamma(``PRIOR``) weight on the same scale. A
    rate at the boundary (E = 0, say) then has an interval of positive width, about the
    Jeffreys interval of its count."""
    size = part.shape[0]
    rng = np.random.default_rng([seed, int.from_bytes(digest[:8], "little"), 1, *_block(block)])
    sums = np.empty((resamples, part.shape[1]))
    rows = max(1, _CELLS_PER_CHUNK // size)
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        weights = rng.standard_exponential((stop - start, size))
        prior = rng.standard_gamma(PRIOR, (stop - start, 3))
        total = weights.sum(axis=1, keepdims=True)
        raw = weights @ part
        # pass@1 columns: the questions' weights alone, scaled to the questions
        sums[start:stop] = raw * (size / total)
        # support columns: the pseudo-questions too, all weights scaled to the questions
        scale = size / (total + prior.sum(axis=1, keepdims=True))
        sums[start:stop, _SUPPORT] = (raw[:, _SUPPORT] + prior @ _PSEUDO) * scale
    return sums


def _block(block: int) -> list[int]:
    """The seed words of a block: none for the first (its draws are those of one block)."""
    return [block] if block else []


def _strata(labels: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """(label, its questions' positions) of each stratum, labels sorted."""
    if labels.dtype == object:  # strings as Python objects: fixed-width sorts 3x faster
        labels = labels.astype(str)
    names, codes = np.unique(labels, return_inverse=True)
    order = np.argsort(codes, kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    parts = np.split(order, bounds)
    return [(str(names[codes[part[0]]]), part) for part in parts]
