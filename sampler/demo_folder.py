"""A synthetic demo results folder, written without a model, a GPU or the network.

``write_demo_results`` generates arithmetic and algebra questions, a base model and
two RLVR targets whose per-question success rates are drawn so that all four
support categories (preserved, expanded, shrunk, out of support) occur for every
pair, and step-by-step completions whose final answers follow those rates: correct
samples work the problem through, wrong ones make a plausible slip (so each
question has a few popular wrong answers), and a few run out of tokens. Verdicts
(answer, correct, status), token counts and token entropies are filled in, and the
manifest says ``synthetic: true``. The same seed gives the same folder.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from sampler.store import (
    ROLE_BASE,
    ROLE_TARGET,
    SAMPLES_SCHEMA,
    STATUS_CORRECT,
    STATUS_INCORRECT,
    STATUS_NO_ANSWER,
    BenchmarkEntry,
    ModelEntry,
    ResultsFolder,
    new_manifest,
    questions_table,
)

DEMO_BASE = "demo-base"
DEMO_TARGETS = ("demo-rlvr", "demo-rlvr-early")
DEMO_BENCHMARKS = ("demo-arithmetic", "demo-algebra")
DEMO_NOTES = (
    "Synthetic demo written by `leash demo`: generated questions and completions, no model was"
    " run. Numbers here illustrate the explorer and mean nothing about any real model."
)

#: Share of questions per category for the main target (P, E, S, O); the early
#: checkpoint keeps more of the base's support and gains less.
CATEGORY_SHARES = {"demo-rlvr": (0.55, 0.10, 0.15, 0.20)}
EARLY_KEEP, EARLY_GAIN = 0.9, 0.4


@dataclass
class DemoQuestion:
    """One generated question: text, gold answer, worked steps and plausible slips."""

    benchmark: str
    question_id: str
    problem: str
    gold: int
    steps: list[str]  # correct working, one sentence a step
    slips: list[tuple[int, str]]  # (wrong answer, the step that goes wrong)


def _arithmetic(rng: random.Random, qid: str) -> DemoQuestion:
    a, b, c = rng.randint(12, 99), rng.randint(3, 19), rng.randint(2, 12)
    op = rng.choice(["+", "-"])
    product = b * c
    gold = a + product if op == "+" else a - product
    problem = f"Compute ${a} {op} {b} \\times {c}$."
    steps = [
        f"Multiplication comes first: ${b} \\times {c} = {product}$.",
        f"Then ${a} {op} {product} = {gold}$.",
    ]
    left_to_right = (a + b) * c if op == "+" else (a - b) * c
    slips = [
        (left_to_right, f"Working left to right: $({a} {op} {b}) \\times {c} = {left_to_right}$."),
        (gold + 10, f"Then ${a} {op} {product} = {gold + 10}$ (a carry went astray)."),
        (gold - 1, f"Then ${a} {op} {product} = {gold - 1}$."),
    ]
    return DemoQuestion("demo-arithmetic", qid, problem, gold, steps, slips)


def _algebra(rng: random.Random, qid: str) -> DemoQuestion:
    x = rng.choice([v for v in range(-12, 16) if v not in (0, 1)])
    a = rng.choice([2, 3, 4, 5, 6, 7, 8, 9])
    b = rng.choice([v for v in range(-30, 31) if v != 0])
    c = a * x + b
    sign = "+" if b >= 0 else "-"
    problem = f"Solve for $x$: ${a}x {sign} {abs(b)} = {c}$."
    moved = c - b
    steps = [
        (f"Subtract ${b}$ from" if b > 0 else f"Add ${-b}$ to") + f" both sides: ${a}x = {moved}$.",
        f"Divide by ${a}$: $x = {x}$.",
    ]
    wrong_move = c + b
    slips = [
        (
            wrong_move // a,
            f"Move the constant across: ${a}x = {wrong_move}$, so $x = {wrong_move // a}$.",
        ),
        (-x, f"Divide by ${a}$: $x = {-x}$ (the sign flipped)."),
        (moved, f"So $x = {moved}$ (forgot to divide by ${a}$)."),
    ]
    return DemoQuestion("demo-algebra", qid, problem, x, steps, slips)


_OPENINGS = {
    "demo-arithmetic": (
        "Let me work through this step by step.",
        "We need to be careful with the order of operations here.",
        "I'll go one step at a time.",
    ),
    "demo-algebra": (
        "Let me isolate $x$ step by step.",
        "Let's solve the linear equation carefully.",
        "I'll go one step at a time.",
    ),
}
_CLOSINGS = ("So the answer is", "Therefore the final answer is", "The answer is")


def _completion(
    q: DemoQuestion, rng: random.Random, verdict: str, slip: int
) -> tuple[str, int | None]:
    """A step-by-step completion and the answer it ends with (None when cut off)."""
    lines = [
        rng.choice(_OPENINGS[q.benchmark]),
        "",
        q.problem.replace("Compute", "We want").rstrip(".") + ".",
    ]
    if verdict == STATUS_CORRECT:
        lines += q.steps
        answer: int | None = q.gold
    else:
        wrong, step = q.slips[slip]
        lines += [*q.steps[:-1], step] if slip else [step]
        answer = wrong
    if rng.random() < 0.3:
        lines.append(
            f"Let me double-check: plugging back in gives a consistent result for {answer}."
        )
    if verdict == STATUS_NO_ANSWER:
        # ran out of tokens half-way through the working
        text = "\n".join(lines)
        return text[: max(20, len(text) * 2 // 3)], None
    lines.append(f"{rng.choice(_CLOSINGS)} $\\boxed{{{answer}}}$.")
    return "\n".join(lines), answer


def demo_questions(n_questions: int, seed: int) -> list[DemoQuestion]:
    rng = random.Random(seed)
    makers: list[Callable[[random.Random, str], DemoQuestion]] = [_arithmetic, _algebra]
    return [makers[i % 2](rng, str(i // 2 + 1)) for i in range(n_questions)]


def _support_plan(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per question and model: is a correct answer in its support (bool arrays)."""
    shares = np.array(CATEGORY_SHARES["demo-rlvr"])
    counts = np.floor(shares * n).astype(int)
    counts[0] += n - counts.sum()
    labels = rng.permutation(np.repeat(np.arange(4), counts))  # 0=P 1=E 2=S 3=O
    base = np.isin(labels, (0, 2))
    late = np.isin(labels, (0, 1))
    early = np.where(base, rng.random(n) < EARLY_KEEP, late & (rng.random(n) < EARLY_GAIN))
    # make sure every category occurs for the early checkpoint too
    for b, t in ((1, 1), (0, 1), (1, 0), (0, 0)):
        if not np.any((base == bool(b)) & (early == bool(t))):
            early[np.flatnonzero(base == bool(b))[0]] = bool(t)
    return {DEMO_BASE: base, "demo-rlvr": late, "demo-rlvr-early": early}


def _success_counts(
    in_support: np.ndarray,
    alone: np.ndarray,
    n_samples: int,
    rng: np.random.Generator,
    sharpen: float,
) -> np.ndarray:
    """Correct samples per question: 0 out of support, at least 1 in it; rare (a few per
    cent) where only this model has the question in support, as with real shrinkage."""
    shared = rng.beta(0.9, 1.1, size=in_support.size) ** sharpen
    rare = rng.beta(0.6, 9.0, size=in_support.size)
    counts = rng.binomial(n_samples, np.where(alone, rare, shared))
    return np.where(in_support, np.clip(counts, 1, n_samples), 0)


def write_demo_results(
    root: Path | str, n_questions: int = 300, n_samples: int = 32, seed: int = 0
) -> Path:
    """Write the demo results folder at ``root`` (must not exist or be empty); return it."""
    root = Path(root)
    if n_questions < 8 or n_samples < 2:
        raise ValueError("the demo needs at least 8 questions and 2 samples per question")
    questions = demo_questions(n_questions, seed)
    nrng = np.random.default_rng(seed)
    prng = random.Random(seed + 1)
    plan = _support_plan(n_questions, nrng)
    sharpen = {DEMO_BASE: 1.0, "demo-rlvr": 0.5, "demo-rlvr-early": 0.8}
    entropy_mean = {DEMO_BASE: 0.42, "demo-rlvr": 0.55, "demo-rlvr-early": 0.48}

    manifest = new_manifest(
        models=[
            ModelEntry(
                name,
                role,
                source="synthetic:leash-demo",
                sampling={"n": n_samples, "temperature": 0.6},
            )
            for name, role in (
                (DEMO_BASE, ROLE_BASE),
                *((t, ROLE_TARGET) for t in DEMO_TARGETS),
            )
        ],
        benchmarks=[
            BenchmarkEntry(b, "math", source="synthetic:leash-demo") for b in DEMO_BENCHMARKS
        ],
        synthetic=True,
        notes=DEMO_NOTES,
    )
    folder = ResultsFolder.create(root, manifest)
    folder.merge_questions(
        questions_table(
            [
                {
                    "benchmark": q.benchmark,
                    "question_id": q.question_id,
                    "problem": q.problem,
                    "gold": str(q.gold),
                    "metadata": {"generator": "leash demo", "subject": q.benchmark.split("-")[1]},
                }
                for q in questions
            ]
        ),
    )

    columns: dict[str, list] = {name: [] for name in SAMPLES_SCHEMA.names}
    for model in (DEMO_BASE, *DEMO_TARGETS):
        other = plan["demo-rlvr"] if model == DEMO_BASE else plan[DEMO_BASE]
        alone = plan[model] & ~other
        correct_counts = _success_counts(plan[model], alone, n_samples, nrng, sharpen[model])
        for q, n_correct in zip(questions, correct_counts, strict=True):
            is_correct = np.zeros(n_samples, dtype=bool)
            is_correct[nrng.choice(n_samples, size=int(n_correct), replace=False)] = True
            # each model prefers its own slips; RLVR concentrates on fewer of them
            slip_weights = nrng.dirichlet(np.full(len(q.slips), 0.6 if model != DEMO_BASE else 1.5))
            entropies = np.clip(nrng.normal(entropy_mean[model], 0.08, n_samples), 0.05, None)
            for s in range(n_samples):
                if is_correct[s]:
                    status = STATUS_CORRECT
                elif prng.random() < 0.06:
                    status = STATUS_NO_ANSWER
                else:
                    status = STATUS_INCORRECT
                slip = int(nrng.choice(len(q.slips), p=slip_weights))
                text, answer = _completion(q, prng, status, slip)
                columns["benchmark"].append(q.benchmark)
                columns["question_id"].append(q.question_id)
                columns["model"].append(model)
                columns["sample"].append(s)
                columns["text"].append(text)
                columns["n_tokens"].append(len(text) // 3 if status != STATUS_NO_ANSWER else 2048)
                columns["finish_reason"].append("length" if status == STATUS_NO_ANSWER else "stop")
                columns["answer"].append(None if answer is None else str(answer))
                columns["correct"].append(status == STATUS_CORRECT)
                columns["status"].append(status)
                columns["source_correct"].append(None)
                columns["token_entropy"].append(float(entropies[s]))
                columns["token_entropy_lower"].append(None)
                columns["token_entropy_upper"].append(None)
                columns["cumulative_logprob"].append(None)
    rows = len(columns["benchmark"])
    # columns the demo has no values for (score, verdict_detail: no non-math verifier here)
    columns = {name: values or [None] * rows for name, values in columns.items()}
    folder.append_samples(pa.table(columns, schema=SAMPLES_SCHEMA))
    folder.refresh_index()
    return root
