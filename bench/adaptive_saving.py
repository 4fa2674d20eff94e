"""What ``leash sample --adaptive`` saves: measured on closed-form checkpoints, then simulated.

1. Measured: the closed-form checkpoints of the sampling tests
   (tests/support/closed_form_model.py: a flat base and a sharpened target) are sampled by
   ``leash sample`` twice with the same seed, once in full and once with ``--adaptive``;
   the script checks that every (model, question) has the same support (same first
   success index) and the same P/E/S/O, and prints samples and tokens of both runs.
2. Simulated: the paper's setting (k = 8192, N = 32) on the paper's own P/E/S/O counts
   (Wu et al., Table 6: ProRL-1.5B-v1 against DeepSeek-R1-Distill-1.5B at k = 8192) with
   each model's avg@32 accuracy of Table 5 (AIME25 has none: 0.8 x AIME24 stands in).
   Per-question rates (``analysis.adaptive_risk.category_rates``): 0 on the losing side
   of E and S and both sides of O; the winning side of E and S rarely solved
   (log-uniform in [3/k, 0.05]); P questions carry the rest of each model's accuracy.
   First successes are geometric; a pair costs the round budget that holds its first
   success, else k. Tokens: a wrong sample is taken as ``--wrong-length`` (1.5) times a
   correct one (wrong reasoning runs longer), so tokens differ from samples.
   The ``--risk DELTA`` rows (default 0.05 and 0.01) play ``sampler.sample.risk_stop``:
   the unsolved pairs of one model's benchmark stop once a bound on the probability that
   their remaining samples hold a success, valid for every distribution of pass rates,
   is below DELTA; they print that bound summed over the stopped pairs (the expected
   misclassified questions are at most this) beside the realised misclassifications.

    python bench/adaptive_saving.py                       # hf engine on CPU, k=16, N=4
    python bench/adaptive_saving.py --engine vllm -k 64 --min-samples 8 --questions 40
    python bench/adaptive_saving.py --simulate-only
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: benchmark -> (P, E, S, O) of Wu et al.'s Table 6 (ProRL-1.5B-v1 vs DeepSeek-R1-Distill-1.5B)
TABLE6 = {
    "AIME24": (25, 0, 3, 2),
    "AIME25": (20, 2, 4, 4),
    "AMC23": (40, 0, 0, 0),
    "MATH500": (497, 0, 1, 2),
    "Minerva": (173, 0, 22, 77),
    "OlympiadBench": (600, 3, 26, 46),
}
#: benchmark -> avg@32 accuracy (base, target) of Table 5; AIME25: 0.8 x AIME24
TABLE5 = {
    "AIME24": (0.3115, 0.4562),
    "AIME25": (0.8 * 0.3115, 0.8 * 0.4562),
    "AMC23": (0.7281, 0.8570),
    "MATH500": (0.8501, 0.9201),
    "Minerva": (0.3218, 0.3927),
    "OlympiadBench": (0.5155, 0.6456),
}


def simulate(k: int, n: int, seed: int, risks: list[float], wrong_length: float) -> None:
    from leash_tui.analysis.adaptive_risk import (
        category_rates,
        expected_tokens,
        rounds_of,
        simulate_pairs,
    )

    print(f"simulated, k = {k:,}, N = {n}, rounds {', '.join(map(str, rounds_of(n, k)))}")
    print(f"tokens: a wrong sample {wrong_length:g}x a correct one (assumed)")
    head = f"{'benchmark':<14} {'P':>5} {'E':>4} {'S':>4} {'O':>4}"
    print(f"{head}  {'full':>11} {'adaptive':>11}  samples  tokens  never-solved share")
    rng = np.random.default_rng(seed)
    rates = {name: category_rates(rng, TABLE6[name], TABLE5[name], k) for name in TABLE6}
    for delta in [None, *risks]:
        totals = np.zeros(4)  # full samples, adaptive samples, full tokens, adaptive tokens
        never_cost = expected = realised = 0.0
        label = "adaptive" if delta is None else f"--risk {delta:g}"
        if delta is not None:
            print(f"with {label}:")
        for name, (p, e, s, o) in TABLE6.items():
            run_rng = np.random.default_rng([seed, len(name), 0 if delta is None else 1])
            figures = np.zeros(4)
            for pair_rates in rates[name]:
                run = simulate_pairs(run_rng, pair_rates, k, n, delta)
                full_tokens = k * (pair_rates + (1 - pair_rates) * wrong_length)
                tokens = expected_tokens(pair_rates, run.first, run.drawn, wrong_length)
                figures += [k * pair_rates.size, run.drawn.sum(), full_tokens.sum(), tokens.sum()]
                never_cost += run.drawn[~run.truly_inside].sum()
                expected += run.expected_misclassified
                realised += run.misclassified
            totals += figures
            print(
                f"{name:<14} {p:>5} {e:>4} {s:>4} {o:>4}  {int(figures[0]):>11,}"
                f" {int(figures[1]):>11,}  {figures[1] / figures[0]:7.4f}"
                f" {figures[3] / figures[2]:7.4f}"
            )
        line = (
            f"{'all':<14} {'':>20}  {int(totals[0]):>11,} {int(totals[1]):>11,}"
            f"  {totals[1] / totals[0]:7.4f} {totals[3] / totals[2]:7.4f}"
            f"  {never_cost / totals[1]:.2f} of drawn samples go to pairs never solved"
            f" ({totals[0] / totals[1]:.1f}x fewer samples)"
        )
        print(line)
        if delta is not None:
            print(
                f"  {label}: expected misclassified questions at most {expected:.2f} (the"
                f" rule's bound), realised {int(realised)}"
            )


def oracle(k: int, n: int, seed: int, delta: float) -> None:
    """The frontier: a rule that knew every rate stops a group's unsolved pairs at the first
    round where their mean chance of a later success is below ``delta``."""
    from leash_tui.analysis.adaptive_risk import NEVER, category_rates, rounds_of

    rng = np.random.default_rng(seed)
    rounds = np.asarray(rounds_of(n, k))
    drawn_all = full = expected = realised = 0.0
    for name in TABLE6:
        for rates in category_rates(rng, TABLE6[name], TABLE5[name], k):
            first = np.where(rates > 0, rng.geometric(np.clip(rates, 1e-300, 1)) - 1, NEVER)
            at = rounds[np.minimum(np.searchsorted(rounds, first, side="right"), len(rounds) - 1)]
            drawn = np.where(first < k, at, k)
            for d in rounds[:-1]:
                open_ = first >= d
                later = 1 - (1 - rates[open_]) ** (k - d)
                if open_.any() and later.mean() < delta:
                    expected += later.sum()
                    realised += (open_ & (first < k)).sum()
                    drawn[open_] = d
                    break
            drawn_all += drawn.sum()
            full += k * rates.size
    print(
        f"a rule that knew every rate (delta {delta:g}): {drawn_all / full:.4f} of the samples,"
        f" expected misclassified {expected:.2f}, realised {int(realised)}"
    )


def leash(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "leash_tui", *args], cwd=ROOT, capture_output=True, text=True
    )
    if result.returncode:
        sys.exit(f"leash {' '.join(args[:1])} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def folder_figures(root: Path) -> tuple[int, int, dict[tuple, int | None]]:
    """(samples, tokens, first success per key) of a results folder."""
    from sampler.sample.first_success import first_success
    from sampler.store import ResultsFolder

    table = first_success(ResultsFolder.open(root), 1).to_pylist()
    firsts = {(r["benchmark"], r["question_id"], r["model"]): r["first_success"] for r in table}
    return sum(r["n"] for r in table), sum(r["tokens"] for r in table), firsts


def measure(engine: str, k: int, n: int, questions: int) -> None:
    from tests.support.closed_form_model import build_checkpoint, write_benchmark
    from tests.support.sampling_checks import BASE, TARGET

    with tempfile.TemporaryDirectory(prefix="leash-adaptive-") as tmp:
        folder = Path(tmp)
        base = build_checkpoint(folder / "base", BASE)
        target = build_checkpoint(folder / "target", TARGET)
        bench = write_benchmark(folder / "toy.jsonl", questions)
        flags = ["--engine", engine, "--dtype", "float32"]
        if engine == "vllm":
            flags += ["--gpu-memory-utilization", "0.1", "--enforce-eager"]
        common = [
            "sample", "--model", f"base={base}", "--model", f"target={target}", "--base", "base",
            "--bench", f"toy={bench}", "-k", str(k), "--temperature", "0.8", "--top-p", "1",
            "--max-tokens", "40", *flags,
        ]  # fmt: skip
        leash(*common, "-o", str(folder / "full"))
        leash(*common, "--adaptive", "--min-samples", str(n), "-o", str(folder / "adaptive"))
        full_s, full_t, full_first = folder_figures(folder / "full")
        ad_s, ad_t, ad_first = folder_figures(folder / "adaptive")

        def categories(root: Path) -> dict:
            doc = json.loads(leash("report", str(root), "--format", "json"))
            return {r["name"]: [r[c] for c in "PESO"] for r in doc["rows"]}

        same_support = full_first == ad_first
        same_categories = categories(folder / "full") == categories(folder / "adaptive")
        pesos = categories(folder / "full")["overall"]
        print(
            f"measured ({engine}, {questions} questions x 2 models, k = {k}, N = {n}):"
            f" P/E/S/O {pesos}"
        )
        print(f"  samples: full {full_s:,}, adaptive {ad_s:,}, ratio {ad_s / full_s:.3f}")
        print(f"  tokens:  full {full_t:,}, adaptive {ad_t:,}, ratio {ad_t / full_t:.3f}")
        print(
            f"  identical per-question support: {same_support};"
            f" identical P/E/S/O: {same_categories}"
        )
        if not (same_support and same_categories):
            sys.exit("the adaptive run does not reproduce the full run's support")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", default="hf", choices=("hf", "vllm"))
    parser.add_argument("-k", "--samples", type=int, default=16)
    parser.add_argument("--min-samples", type=int, default=4)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--simulate-only", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--risk", type=float, action="append", help="risk rows (0.05, 0.01)")
    parser.add_argument("--wrong-length", type=float, default=1.5)
    args = parser.parse_args()
    if not args.simulate_only:
        measure(args.engine, args.samples, args.min_samples, args.questions)
    simulate(8192, 32, args.seed, args.risk or [0.05, 0.01], args.wrong_length)
    oracle(8192, 32, args.seed, (args.risk or [0.05])[0])


if __name__ == "__main__":
    main()
