"""What the verification tests share: the pathological answer, benchmark files, boxed text
(their folders are built by folder_builders.write_folder)."""

from __future__ import annotations

from tests.support.paths import BENCHMARK_FILES

#: The answer that makes sympy compute for minutes (5^(5^3125)...).
PATHOLOGICAL = r"\dfrac{5^{(5^{(5^{(5^5)})}-4)}-5}{16}"

BENCHMARKS_DIR = BENCHMARK_FILES


def boxed(answer: str, prefix: str = "Working.") -> str:
    return f"{prefix}\nSo the final answer is $\\boxed{{{answer}}}$."
