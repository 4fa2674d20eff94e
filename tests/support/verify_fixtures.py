"""What the verification tests share: the pathological answer, benchmark files, boxed text
(their folders are built by folder_builders.write_folder)."""

from __future__ import annotations

from tests.support.paths import BENCHMARK_FILES

#: The answer that makes sympy compute for minutes (5^(5^3125)...).
PATHOLOGICAL = r"\dfrac{5^{(5^{(5^{(5^5)})}-4)}-5}{16}"

BENCHMARKS_DIR = BENCHMARK_FILES


def boxed(answer: str, prefix: str = "Working.") -> str:
    return f"{prefix}\nSo the final answer is $\\boxed{{{answer}}}$."


def benchmark_golds() -> list[str]:
    """Every gold written in the benchmark files (their answer, final_answer or gold field)."""
    import json

    golds = []
    for path in BENCHMARKS_DIR.rglob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            golds += [str(row[k]) for k in ("answer", "final_answer", "gold") if row.get(k)]
    return golds
