"""What ``leash sample --adaptive`` saves: measured on closed-form checkpoints, then simulated.

1. Measured: the closed-form checkpoints of the sampling tests
   (tests/support/closed_form_model.py: a flat base and a sharpened target) are sampled by
   ``leash sample`` twice with the same seed, once in full and once with ``--adaptive``;
   the script checks that every (model, question) has the same support (same first
   success index) and the same P/E/S/O, and prints samples and tokens of both runs.
2. Simulated: the paper's setting (k = 8192, N = 32) on a mix of P/E/S/O counts per
   benchmark with per-question success rates drawn for each category (P: both models
   log-uniform in [1e-3, 0.9]; E: base 0, target log-uniform in [1/k, 1e-2]; S the
   mirror image; O: both 0). First successes are geometric; a pair costs the round
   budget that contains its first success, else k. Tokens per sample are taken as equal,
   so the token ratio is the sample ratio. The category counts below are an ASSUMED mix
   in the shape of the paper's Table 1 (P dominant, S above E, a few O) on the six math
   benchmarks' sizes, not the paper's figures; replace ``MIX`` with them to refine.

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

#: benchmark -> (P, E, S, O): an assumed mix (see the module docstring), per model pair
MIX = {
    "MATH500": (478, 4, 12, 6),
    "Minerva": (190, 8, 19, 55),
    "OlympiadBench": (560, 15, 40, 60),
    "AIME24": (22, 1, 4, 3),
    "AIME25": (19, 1, 4, 6),
    "AMC23": (37, 0, 2, 1),
}


def log_uniform(rng: np.random.Generator, low: float, high: float, size: int) -> np.ndarray:
    return np.exp(rng.uniform(np.log(low), np.log(high), size))


def pair_cost(rng: np.random.Generator, rates: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """Samples an adaptive run draws per question at success rate ``rates`` (0: never)."""
    k = int(rounds[-1])
    first = np.where(rates > 0, rng.geometric(np.clip(rates, 1e-300, 1.0)) - 1, k)
    at = rounds[np.minimum(np.searchsorted(rounds, first, side="right"), len(rounds) - 1)]
    return np.where(first < k, at, k)


def simulate(k: int, n: int, seed: int) -> None:
    from sampler.sample.adaptive import budget_rounds

    rng = np.random.default_rng(seed)
    rounds = np.asarray(budget_rounds(n, k), dtype=np.int64)
    print(f"simulated, k = {k:,}, N = {n}, rounds {', '.join(map(str, rounds))}")
    head = f"{'benchmark':<14} {'P':>5} {'E':>4} {'S':>4} {'O':>4}"
    print(f"{head}  {'full':>10} {'adaptive':>10}  ratio")
    total_full = total_adaptive = 0
    for name, (p, e, s, o) in MIX.items():
        base = np.concatenate(
            [
                log_uniform(rng, 1e-3, 0.9, p),
                np.zeros(e),
                log_uniform(rng, 1 / k, 1e-2, s),
                np.zeros(o),
            ]
        )
        target = np.concatenate(
            [
                log_uniform(rng, 1e-3, 0.9, p),
                log_uniform(rng, 1 / k, 1e-2, e),
                np.zeros(s),
                np.zeros(o),
            ]
        )
        full = 2 * k * (p + e + s + o)
        adaptive = int(pair_cost(rng, base, rounds).sum() + pair_cost(rng, target, rounds).sum())
        total_full += full
        total_adaptive += adaptive
        print(
            f"{name:<14} {p:>5} {e:>4} {s:>4} {o:>4}  {full:>10,} {adaptive:>10,}"
            f"  {adaptive / full:.4f}"
        )
    print(
        f"{'all':<14} {'':>20}  {total_full:>10,} {total_adaptive:>10,}"
        f"  {total_adaptive / total_full:.4f}  (samples and tokens, adaptive / full;"
        f" {total_full / total_adaptive:.1f}x fewer)"
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
    args = parser.parse_args()
    if not args.simulate_only:
        measure(args.engine, args.samples, args.min_samples, args.questions)
    simulate(8192, 32, args.seed)


if __name__ == "__main__":
    main()
