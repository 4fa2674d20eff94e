"""How fast the explorer opens and moves on big folders, against pandas in the same run.

For each size (default 100 thousand, 1 million and 10 million samples; 3 models,
256 samples per question and model, short texts) the bench writes a synthetic
folder with pyarrow in bulk, then, each in a fresh process:

- pandas: ``pd.read_parquet(folder/samples)``, what a notebook user does today;
- explorer, cold: headless ``ExplorerApp`` with an empty ``leash report`` cache:
  time from process start and from app start to the first paint of a populated
  question list, then the time to switch questions on the question screen (key
  press to the new completions painted), and resident memory (peak and at the end);
- explorer, again: the same after a ``leash report`` of the folder (which fills
  the report cache when some shard lacks a footer summary; leash-written folders
  need none, so this is simply a second open).

Timings include Textual's headless driver and Pilot; the machine's other load shows
in them, so compare the ratios printed in the same run.

Goals (issue 5): first paint < 1 s at 10 M samples, switch < 100 ms, RSS < 500 MB.
``--distinct-answers 1000`` gives each question and model up to 1,000 distinct answers
(as varied as a base model's) instead of 5.
``--no-pandas`` skips the pandas baseline (reading 25 million samples whole takes several GB).
Run: ``python bench/explore_speed.py [--sizes 100000,1000000,10000000] [--distinct-answers 5]
[--keep DIR] [--no-pandas]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

T0 = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent
SWITCHES = 20


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB (VmRSS, VmHWM: unlike
    ru_maxrss, the peak is not inherited from the parent process)."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                values[line.split(":")[0]] = int(line.split()[1]) / 1024
    return values["VmRSS"], values["VmHWM"]


def measure_pandas(folder: Path) -> dict:
    import pandas as pd

    start = time.perf_counter()
    frame = pd.read_parquet(folder / "samples")
    elapsed = time.perf_counter() - start
    rows = len(frame)
    current, peak = rss_mb()
    return {"read_s": elapsed, "rows": rows, "rss_mb": current, "peak_rss_mb": peak}


def measure_explorer(folder: Path) -> dict:
    sys.path.insert(0, str(ROOT))
    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe

    skip_pandas_probe()  # as `leash explore` does before opening
    from leash_tui.explorer.app import ExplorerApp
    from leash_tui.explorer.screens.question_screen import QuestionScreen
    from leash_tui.explorer.widgets.completion_view import CompletionView
    from leash_tui.explorer.widgets.question_list import QuestionList
    from sampler.store.folder import ResultsFolder

    imported = time.perf_counter()
    marks: dict[str, float] = {}
    painted: list[tuple[float, int]] = []

    list_render = QuestionList.render_line

    def list_render_line(self, y):
        strip = list_render(self, y)
        if y == 1 and len(self.model) and "first_paint" not in marks:
            marks["first_paint"] = time.perf_counter()
        return strip

    view_render = CompletionView.render_line

    def view_render_line(self, y):
        strip = view_render(self, y)
        if self.id == "view-target" and self.text:
            painted.append((time.perf_counter(), self._generation))
        return strip

    QuestionList.render_line = list_render_line
    CompletionView.render_line = view_render_line

    async def run() -> dict:
        app_start = time.perf_counter()
        app = ExplorerApp(ResultsFolder.open(folder))
        async with app.run_test(size=(120, 40)) as pilot:
            while "first_paint" not in marks:
                await pilot.pause(0.002)
            questions = app.model.total
            samples = app.model.sample_count
            await pilot.press("enter")
            screen = app.screen
            assert isinstance(screen, QuestionScreen)
            while screen.detail is None:
                await pilot.pause(0.002)
            await pilot.pause(0.05)
            switches = []
            for _ in range(SWITCHES):
                view = screen.query_one("#view-target", CompletionView)
                generation = view._generation
                pressed = time.perf_counter()
                await pilot.press("right_square_bracket")
                while not any(g > generation and t > pressed for t, g in painted[-50:]):
                    await pilot.pause(0.001)
                done = next(t for t, g in reversed(painted) if g > generation)
                switches.append(done - pressed)
            # moving in the list is a repaint of the rows on screen
            await pilot.press("escape")
            await pilot.pause(0.05)
            moves = []
            for _ in range(SWITCHES):
                pressed = time.perf_counter()
                await pilot.press("j")
                moves.append(time.perf_counter() - pressed)
            current, peak = rss_mb()
            return {
                "questions": questions,
                "samples": samples,
                "import_s": imported - T0,
                "first_paint_from_app_s": marks["first_paint"] - app_start,
                "first_paint_from_process_s": marks["first_paint"] - T0,
                "switch_median_ms": statistics.median(switches) * 1000,
                "switch_max_ms": max(switches) * 1000,
                "list_move_median_ms": statistics.median(moves) * 1000,
                "rss_mb": current,
                "peak_rss_mb": peak,
            }

    return asyncio.run(run())


def fill_report_cache(folder: Path) -> tuple[float, float]:
    sys.path.insert(0, str(ROOT))
    from leash_tui.report.data import load_report_data

    start = time.perf_counter()
    load_report_data(folder)
    return time.perf_counter() - start, rss_mb()[1]


def child(mode: str, folder: Path, cache: Path) -> dict:
    sys.path.insert(0, str(ROOT))
    from bench.child_process import run_json_child

    env = {**os.environ, "LEASH_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    argv = [__file__, "--child", mode, str(folder)]
    return run_json_child(argv, env, f"{mode} on {folder}")


def bench_size(n: int, workdir: Path, distinct_answers: int = 5, pandas_too: bool = True) -> dict:
    sys.path.insert(0, str(ROOT))
    from bench.synthetic_folder import write_synthetic_folder

    folder = workdir / f"samples-{n}-{distinct_answers}"
    generate_s = 0.0
    if not (folder / "manifest.json").exists():
        start = time.perf_counter()
        write_synthetic_folder(folder, n, distinct_answers=distinct_answers)
        generate_s = time.perf_counter() - start
    cache = workdir / f"cache-{n}"
    shutil.rmtree(cache, ignore_errors=True)
    pandas = child("pandas", folder, cache) if pandas_too else None
    cold = child("explorer", folder, cache)
    fill = child("fill-cache", folder, cache)
    warm = child("explorer", folder, cache)
    return {
        "n": n,
        "generate_s": generate_s,
        "pandas": pandas,
        "cold": cold,
        "warm": warm,
        "fill_cache_s": fill["fill_s"],
        "fill_cache_peak_rss_mb": fill["peak_rss_mb"],
    }


def report(results: list[dict]) -> None:
    print()
    print(
        "samples     questions  pandas read  | explorer first paint (app / process)     "
        "| switch median/max | RSS now/peak MB"
    )
    for r in results:
        p = r["pandas"]["read_s"] if r["pandas"] else float("nan")
        for key, label in (("cold", "first"), ("warm", "again")):  # again: after a report
            e = r[key]
            paint = e["first_paint_from_app_s"]
            print(
                f"{e['samples']:>10,} {e['questions']:>9,} {p:>9.2f} s  | {label}: "
                f"{paint:6.2f} s / {e['first_paint_from_process_s']:5.2f} s "
                f"(pandas/explorer {p / paint:5.1f}x) "
                f"| {e['switch_median_ms']:6.1f} / {e['switch_max_ms']:6.1f} ms "
                f"| {e['rss_mb']:5.0f} / {e['peak_rss_mb']:5.0f}"
            )
        pandas_peak = r["pandas"]["peak_rss_mb"] if r["pandas"] else float("nan")
        print(
            f"{'':>21} pandas peak RSS {pandas_peak:.0f} MB; "
            f"a report's load between the opens took {r['fill_cache_s']:.2f} s, "
            f"peak {r['fill_cache_peak_rss_mb']:.0f} MB; "
            f"writing the folder took {r['generate_s']:.1f} s"
        )
    print()
    print("goals: first paint < 1 s at 10M samples, switch < 100 ms, RSS < 500 MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000,10000000")
    parser.add_argument(
        "--distinct-answers", type=int, default=5, help="distinct answers per question (max)"
    )
    parser.add_argument("--keep", type=Path, help="Folder for the synthetic data (kept).")
    parser.add_argument(
        "--no-pandas",
        action="store_true",
        help="Skip the pandas baseline (at 25M samples it needs several GB).",
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="Also write the numbers to this file.")
    args = parser.parse_args()
    if args.child:
        mode, folder = args.child[0], Path(args.child[1])
        if mode == "pandas":
            result = measure_pandas(folder)
        elif mode == "explorer":
            result = measure_explorer(folder)
        else:
            seconds, peak = fill_report_cache(folder)
            result = {"fill_s": seconds, "peak_rss_mb": peak}
        print(json.dumps(result))
        return
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="leash-explore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    results = []
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            results.append(bench_size(n, workdir, args.distinct_answers, not args.no_pandas))
            print(json.dumps(results[-1]), flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
