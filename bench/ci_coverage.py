"""Coverage of the report's 95% intervals: how often they hold the true rate of the population.

A coverage study (no timing): questions are drawn from a population whose shares of P, E,
S and O and per-question pass@1 are known, so every rate's true value is known; each
replicate draws a benchmark of Q questions, computes every interval of
``analysis.bootstrap.paired_bootstrap`` and checks whether it holds the truth. The
shapes: "paper" (SRR 0.90, NDR 0.075, like most of Wu et al.'s math benchmarks: E or S is
often 0 at 30 questions) and "middle" (SRR 0.70, NDR 0.30). Support is 0/1 (k = n), the
case where the boundary matters. Both methods are shown: the default Bayesian bootstrap
with its Jeffreys prior ("bayes") and Efron's percentile bootstrap ("percentile").

    python bench/ci_coverage.py [--replicates 1000] [--resamples 1000] [--sizes 30,120,500]

Prints one line per (shape, size, method) with the coverage of every rate, and the
smallest; the line ends "ok" when every rate of the bayes method reaches 0.93. A coverage
estimated from R replicates has a standard error of about sqrt(0.95 * 0.05 / R) (0.007 at
R = 1000).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leash_tui.analysis.bootstrap import INTERVAL_NAMES, paired_bootstrap

#: shape: shares of P, E, S (O is the rest)
SHAPES = {
    "paper": (0.6, 0.6 * 0.075 / 0.925, 0.6 / 0.9 - 0.6),
    "middle": (0.4, 0.4 * 0.3 / 0.7, 0.4 / 0.7 - 0.4),
}
#: per category: Beta parameters of the base's and the target's pass@1 (None: 0)
PASS1 = {
    "P": ((2, 2), (3, 2)),
    "E": (None, (1, 4)),
    "S": ((1, 4), None),
    "O": (None, None),
}
CATEGORIES = ("P", "E", "S", "O")


def _mean(beta: tuple[int, int] | None) -> float:
    return 0.0 if beta is None else beta[0] / (beta[0] + beta[1])


def truth(shares: tuple[float, float, float]) -> dict[str, float]:
    """Every rate of ``INTERVAL_NAMES`` in the population of ``shares``."""
    p, e, s = shares
    o = 1 - p - e - s
    w = dict(zip(CATEGORIES, (p, e, s, o), strict=True))
    srr, ndr = p / (p + s), e / (p + e)
    p1b = sum(w[c] * _mean(PASS1[c][0]) for c in CATEGORIES)
    p1t = sum(w[c] * _mean(PASS1[c][1]) for c in CATEGORIES)
    return {
        "SRR": srr,
        "NDR": ndr,
        "SDS": 2 * srr * ndr / (srr + ndr),
        "NSCR": (e - s) / (p + e + s),
        "pass@1_base": p1b,
        "pass@1_target": p1t,
        "pass@1_diff": p1t - p1b,
        "pass@k_base": p + s,
        "pass@k_target": p + e,
        "pass@k_diff": e - s,
    }


def draw(rng: np.random.Generator, shares, questions: int) -> tuple[np.ndarray, ...]:
    """(b, t, pass@1 base, pass@1 target) of ``questions`` drawn from the population."""
    p, e, s = shares
    cats = rng.choice(4, size=questions, p=[p, e, s, 1 - p - e - s])
    b = np.isin(cats, (0, 2)).astype(float)
    t = np.isin(cats, (0, 1)).astype(float)
    p1 = [np.zeros(questions), np.zeros(questions)]
    for code, name in enumerate(CATEGORIES):
        members = cats == code
        for role in (0, 1):
            beta = PASS1[name][role]
            if beta is not None and members.any():
                p1[role][members] = rng.beta(*beta, members.sum())
    return b, t, p1[0], p1[1]


def coverage(shape: str, questions: int, method: str, replicates: int, resamples: int):
    """{rate: share of replicates whose interval holds the truth} (undefined: a miss)."""
    rng = np.random.default_rng([questions, len(shape)])
    true = truth(SHAPES[shape])
    hits = dict.fromkeys(INTERVAL_NAMES, 0)
    for r in range(replicates):
        b, t, p1b, p1t = draw(rng, SHAPES[shape], questions)
        ci = paired_bootstrap(b, t, p1b, p1t, None, resamples, 0.95, seed=r, method=method)
        for name in INTERVAL_NAMES:
            bounds = ci[name]
            hits[name] += bounds is not None and bounds[0] <= true[name] <= bounds[1]
    return {name: hits[name] / replicates for name in INTERVAL_NAMES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--sizes", default="30,120,500")
    parser.add_argument("--methods", default="bayes,percentile")
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.sizes.split(",")]
    names = ("SRR", "NDR", "SDS", "NSCR", "pass@1_diff", "pass@k_diff", "pass@1_base")
    short = ("SRR", "NDR", "SDS", "NSCR", "Δp@1", "Δp@k", "p@1 b")
    print(
        f"coverage of 95% intervals, {args.replicates} replicates, {args.resamples} resamples"
        " (every rate of INTERVAL_NAMES counts towards min)"
    )
    print(f"{'shape':7} {'Q':>4} {'method':10} " + " ".join(f"{h:>6}" for h in short) + "    min")
    failed = False
    for shape in SHAPES:
        for size in sizes:
            for method in args.methods.split(","):
                start = time.perf_counter()
                cov = coverage(shape, size, method, args.replicates, args.resamples)
                low = min(cov.values())
                ok = low >= 0.93
                if method == "bayes" and not ok:
                    failed = True
                cells = " ".join(f"{cov[n]:6.3f}" for n in names)
                verdict = ("ok" if ok else "LOW") if method == "bayes" else ""
                print(
                    f"{shape:7} {size:4d} {method:10} {cells}  {low:5.3f} {verdict}"
                    f"  ({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
