"""Time per sample of ``test_code`` grading: the split harness against the one-process one.

The one-process harness (the baseline, kept here verbatim as it was before issue #33)
ran the program, then its asserts, in one interpreter and printed a nonce; the split
harness (``sampler/verify/verifiers/code_harness.py``) forks the program's process
and runs the asserts itself on values that cross a pipe as data. Both run in the same
bubblewrap sandbox, on the same samples (MBPP-like functions with three to eight
asserts, a third of them wrong), interleaved, in the same run; the script checks both
harnesses give the same verdicts and prints the median seconds per sample and the ratio
(new / old; the issue's target is at most 1.5).

    python bench/code_grading.py              # 40 samples, one at a time
    python bench/code_grading.py --samples 80 --workers 2
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sampler.verify.verifiers import get_verifier
from sampler.verify.verifiers.sandbox import Limits, python_executable, run_sandboxed

OLD_HARNESS = """\
import os, sys
nonce = os.read(0, 64).decode().strip()
os.close(0)
namespace = {"__name__": "__main__", "__builtins__": __builtins__}
def run(path):
    with open(path, encoding="utf-8") as handle:
        code = compile(handle.read(), path, "exec")
    exec(code, namespace)
try:
    run(sys.argv[1])
except SystemExit as end:
    if end.code not in (None, 0):
        raise
run(sys.argv[2])
sys.stdout.flush()
os.write(1, ("\\n" + nonce + "\\n").encode())
"""

PROBLEMS = [
    (
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a - b\n",
        "assert add(2, 3) == 5\nassert add(-1, 1) == 0\nassert add(10, 20) == 30\n",
    ),
    (
        "def rev(xs):\n    return xs[::-1]\n",
        "def rev(xs):\n    return sorted(xs)\n",
        "assert rev([1, 2, 3]) == [3, 2, 1]\nassert rev([]) == []\nassert rev([5, 1]) == [1, 5]\n"
        "assert rev(['a', 'b']) == ['b', 'a']\n",
    ),
    (
        "import math\n\ndef primes(n):\n    return [p for p in range(2, n) if all(p % d for d in"
        " range(2, math.isqrt(p) + 1))]\n",
        "def primes(n):\n    return list(range(2, n))\n",
        "assert primes(10) == [2, 3, 5, 7]\nassert primes(2) == []\nassert len(primes(100)) == 25\n"
        "assert primes(20)[-1] == 19\nassert sum(primes(50)) == 328\n",
    ),
    (
        "def freq(s):\n    out = {}\n    for c in s:\n        out[c] = out.get(c, 0) + 1\n"
        "    return out\n",
        "def freq(s):\n    return {c: 1 for c in s}\n",
        "assert freq('aab') == {'a': 2, 'b': 1}\nassert freq('') == {}\n"
        "assert freq('zzz') == {'z': 3}\nassert freq('ab') == {'a': 1, 'b': 1}\n"
        "assert freq('abca')['a'] == 2\nassert sorted(freq('cab')) == ['a', 'b', 'c']\n"
        "assert freq('x') != {'x': 2}\nassert freq('hello')['l'] == 2\n",
    ),
]


def old_judge(program: str, tests: str, limits: Limits) -> str:
    nonce = secrets.token_hex(16)
    read, write = os.pipe()
    os.write(write, nonce.encode() + b"\n")
    os.close(write)
    files = {
        "/work/harness.py": OLD_HARNESS.encode(),
        "/work/solution.py": program.encode(),
        "/work/tests.py": tests.encode(),
    }
    argv = [python_executable(), "-I", "/work/harness.py", "/work/solution.py", "/work/tests.py"]
    try:
        result = run_sandboxed(files, argv, read, limits)
    finally:
        os.close(read)
    lines = result.stdout.rstrip().splitlines()
    return "correct" if result.returncode == 0 and lines and lines[-1] == nonce else "incorrect"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    code = get_verifier("code")
    limits = Limits(wall_s=10.0, cpu_s=10)
    samples = []
    for i in range(args.samples):
        right, wrong, tests = PROBLEMS[i % len(PROBLEMS)]
        samples.append((wrong if i % 3 == 2 else right, tests))

    def new_one(sample: tuple[str, str]) -> tuple[str, float]:
        program, tests = sample
        gold = code.gold(None, {"test_code": tests, "time_limit": 10.0})
        started = time.perf_counter()
        verdict = code.judge(gold, code.extract(f"```python\n{program}\n```"))
        return verdict.status, time.perf_counter() - started

    def old_one(sample: tuple[str, str]) -> tuple[str, float]:
        started = time.perf_counter()
        status = old_judge(*sample, limits)
        return status, time.perf_counter() - started

    new_one(samples[0]), old_one(samples[0])  # warm the page cache for both
    old_times, new_times, disagree = [], [], 0
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for start in range(0, len(samples), 4):  # interleaved: load drifts hit both alike
            chunk = samples[start : start + 4]
            olds = list(pool.map(old_one, chunk))
            news = list(pool.map(new_one, chunk))
            old_times += [t for _, t in olds]
            new_times += [t for _, t in news]
            disagree += sum(o != n for (o, _), (n, _) in zip(olds, news, strict=True))
    old_s, new_s = statistics.median(old_times), statistics.median(new_times)
    print(f"samples: {len(samples)}  workers: {args.workers}  verdicts differing: {disagree}")
    print(f"one-process harness (before #33): {old_s * 1000:7.1f} ms per sample (median)")
    print(f"split harness (now):              {new_s * 1000:7.1f} ms per sample (median)")
    print(f"ratio new / old: {new_s / old_s:.2f}  (target <= 1.5)")
    if disagree:
        sys.exit(1)


if __name__ == "__main__":
    main()
