"""Measure peak memory of ``leash import`` on a large input: it must stream (goal: < 1 GiB).

Generates an input of about --size-mb MB in one of the import formats (default
qwen-eval: --questions problems per model folder, 256 completions of ~4 KB each a
line; jsonl: one ~1 KB sample a line), imports it in a fresh subprocess and
reports the subprocess's peak resident memory (``ru_maxrss``, and VmHWM from
/proc). In the same run it imports an input 1/16 the size the same way, so the
ratio shows whether memory grows with the input, and (qwen-eval) imports one
model's half again under another name into the full folder, which exercises the
check against the samples already there. Also prints the throughput.

Usage: python bench/import_memory.py [--size-mb 1024] [--format qwen-eval|jsonl] [--keep]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMPLETIONS = 256
WORDS = "we add the terms then divide by two and check the result carefully step".split()

CHILD = """
import resource, sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
from sampler.importers.run_import import Source, import_samples
start = time.perf_counter()
sources = [Source(m, Path(p)) for m, p in {sources!r}]
summary = import_samples({fmt!r}, sources, {root!r}, base={base!r})
seconds = time.perf_counter() - start
hwm = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        hwm = int(line.split()[1])
print(summary.samples, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, hwm)
"""


def paragraph(seed: int, chars: int) -> str:
    words, i = [], seed
    while sum(len(w) + 1 for w in words) < chars:
        words.append(WORDS[(i * 7 + len(words) * 3) % len(WORDS)] + str(i % 97))
        i += 1
    return " ".join(words)


def write_qwen_eval(folder: Path, size: int) -> list[tuple[str, str]]:
    """Two model folders (base, rl) of math500 problems, ~size bytes in all."""
    fillers = [paragraph(s, 4000) for s in range(64)]
    sources = []
    per_model = size // 2
    for model in ("base", "rl"):
        out = folder / model / "math500"
        out.mkdir(parents=True)
        written, idx = 0, 0
        with open(out / "test_qwen25-math-cot_-1_seed0_t0.6_s0_e-1.jsonl", "w") as handle:
            while written < per_model:
                code = [
                    f"{fillers[(idx + j) % 64]}\\n\\\\boxed{{{(idx + j) % 7}}}"
                    for j in range(COMPLETIONS)
                ]
                line = json.dumps(
                    {
                        "idx": idx,
                        "question": f"Problem {idx}: compute {idx} mod 7.",
                        "gt_cot": "",
                        "gt": str(idx % 7),
                        "code": code,
                        "pred": [str((idx + j) % 7) for j in range(COMPLETIONS)],
                        "report": [None] * COMPLETIONS,
                        "score": [(idx + j) % 7 == idx % 7 for j in range(COMPLETIONS)],
                    }
                )
                handle.write(line + "\n")
                written += len(line) + 1
                idx += 1
        sources.append((model, str(folder / model)))
    return sources


def write_jsonl(folder: Path, size: int) -> list[tuple[str, str]]:
    """One interchange file: ~1 KB samples of 2 models, 512 samples per question."""
    fillers = [paragraph(s, 1000) for s in range(64)]
    folder.mkdir(parents=True)
    path = folder / "samples.jsonl"
    written, n = 0, 0
    with open(path, "w") as handle:
        while written < size:
            q, rest = divmod(n, 1024)
            model, sample = ("base", rest) if rest < 512 else ("rl", rest - 512)
            line = json.dumps(
                {
                    "benchmark": "synth",
                    "question_id": q,
                    "model": model,
                    "sample": sample,
                    "text": f"{fillers[n % 64]} \\boxed{{{n % 5}}}",
                    "correct": n % 5 == 0,
                }
            )
            handle.write(line + "\n")
            written += len(line) + 1
            n += 1
    return [(None, str(path))]


def run_import(fmt: str, sources: list, root: Path, base: str | None) -> dict[str, float]:
    """Import in a fresh subprocess; its sample count, seconds and peak memory."""
    code = CHILD.format(repo=str(REPO), fmt=fmt, sources=sources, root=str(root), base=base)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    samples, seconds, maxrss_kb, hwm_kb = done.stdout.split()
    return {
        "samples": int(samples),
        "seconds": float(seconds),
        "peak_mib": int(maxrss_kb) / 1024,
        "hwm_mib": int(hwm_kb) / 1024,
    }


def measure(fmt: str, size: int, work: Path, again: bool) -> dict[str, dict[str, float]]:
    """Import a generated input into a new folder; with ``again``, then a part of it
    once more, under another model name, into that (now large) folder."""
    inputs = work / f"in-{size}"
    writer = write_qwen_eval if fmt == "qwen-eval" else write_jsonl
    sources = writer(inputs, size)
    actual = sum(p.stat().st_size for p in inputs.rglob("*") if p.is_file())
    root = work / f"res-{size}"
    rows = {"new": run_import(fmt, sources, root, "base")}
    rows["new"]["input_mb"] = actual / 1e6
    if again and fmt == "qwen-eval":
        rl = [("rl2", src) for model, src in sources if model == "rl"]
        rows["existing"] = run_import(fmt, rl, root, None)
        rows["existing"]["input_mb"] = actual / 2e6
    shutil.rmtree(inputs)
    shutil.rmtree(root)
    return rows


def baseline_rss() -> float:
    """Peak memory of a subprocess that only imports the importer modules."""
    code = (
        f"import resource, sys; sys.path.insert(0, {str(REPO)!r}); import sampler.importers;"
        " import sampler.importers.formats.qwen_eval, sampler.importers.formats.lighteval;"
        " print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--format", choices=("qwen-eval", "jsonl"), default="qwen-eval")
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    size = args.size_mb * 1024 * 1024
    work = Path(tempfile.mkdtemp(prefix="leash-import-mem-", dir=args.workdir))
    try:
        base = baseline_rss()
        small = measure(args.format, size // 16, work, again=False)["new"]
        runs = measure(args.format, size, work, again=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    large = runs["new"]
    print(f"format {args.format}; modules loaded only: peak {base:.0f} MiB")
    shown = [("1/16 input", small), ("full input", large)]
    if "existing" in runs:
        shown.append(("rl half again into the full folder", runs["existing"]))
    for name, row in shown:
        print(
            f"{name}: {row['input_mb']:.0f} MB, {row['samples']:,} samples, import"
            f" {row['seconds']:.1f} s ({row['input_mb'] / row['seconds']:.0f} MB/s),"
            f" peak RSS {row['peak_mib']:.0f} MiB (VmHWM {row['hwm_mib']:.0f} MiB)"
        )
    print(
        f"peak RSS full/small: {large['peak_mib'] / small['peak_mib']:.2f}x for"
        f" {large['input_mb'] / small['input_mb']:.0f}x the input;"
        f" full input peak / input size: {large['peak_mib'] * 1.048576 / large['input_mb']:.2f}"
    )
    goal = max(row["peak_mib"] for _, row in shown) < 1024
    print(f"goal peak < 1024 MiB: {'met' if goal else 'NOT met'}")


if __name__ == "__main__":
    main()
