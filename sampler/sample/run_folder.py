"""The results folder side of ``leash sample``: create or check it, and list what is missing.

``open_results_folder`` creates the folder (``ResultsFolder.create``) or checks that it
was sampled with the same distribution settings, registers models and benchmarks in
the manifest and merges the questions; ``list_missing_work`` takes which (model,
benchmark, question) already have their samples from the store's sample ranges
(``ResultsFolder.sample_ranges``: footer summaries) and turns the rest into
``WorkItem``s of this ``--shard I/N``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.sample.engines.base import WorkItem
from sampler.sample.plan import RunPlan
from sampler.sample.run_record import DISTRIBUTION_KEYS, RISK_KEY, sampling_record
from sampler.sample.seeds import SCHEME, check_layout, question_seed
from sampler.store import (
    BenchmarkEntry,
    Manifest,
    ModelEntry,
    ResultsFolder,
    SampleRange,
    as_folder,
    questions_table,
)

# -- the results folder ---------------------------------------------------------------


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for key in DISTRIBUTION_KEYS:
        if key in old and old.get(key) != new.get(key):
            out.append(f"{key}: folder has {old.get(key)!r}, this run {new.get(key)!r}")
    was, now = old.get("adaptive"), new.get("adaptive")
    if isinstance(was, dict) and isinstance(now, dict) and was.get(RISK_KEY) != now.get(RISK_KEY):
        out.append(f"--risk: folder has {was.get(RISK_KEY)!r}, this run {now.get(RISK_KEY)!r}")
    return out


def open_results_folder(plan: RunPlan) -> Manifest:
    """Create or check the folder, register models and benchmarks, merge the questions."""
    config = plan.config
    root = config.output
    # a folder of another format is refused before anything changes
    folder = plan.folder = ResultsFolder.create(root)
    records = {
        mp.name: sampling_record(config, mp.spec, mp.template.text, mp.chat, SCHEME)
        for mp in plan.models
    }

    def change(manifest: Manifest) -> None:
        base = manifest.base
        if base is not None and base.name != config.base_name:
            raise LeashError(
                f"{root}: its base model is {base.name!r}; this run names {config.base_name!r}"
                " as base"
            )
        if base is None and config.base is None:
            raise LeashError(
                f"--base {config.base_name!r}: not a model of this run, and {root} has no base"
                " model yet; give it with --model NAME=PATH"
            )
        for mp in plan.models:
            record = records[mp.name]
            entry = manifest.model(mp.name)
            if entry is None:
                manifest.models.append(ModelEntry(mp.name, mp.spec.role, mp.spec.path, record))
                continue
            if entry.role != mp.spec.role:
                raise LeashError(
                    f"{root}: model {mp.name!r} is a {entry.role} there; this run makes it a"
                    f" {mp.spec.role}"
                )
            if not entry.sampling:
                raise LeashError(
                    f"{root}: model {mp.name!r} was imported, not sampled by leash; sample"
                    " under another name"
                )
            if entry.source != mp.spec.path:
                raise LeashError(
                    f"{root}: model {mp.name!r} was sampled from {entry.source}; this run gives"
                    f" {mp.spec.path} (use another name, or the same path)"
                )
            diffs = _differences(entry.sampling, record)
            if diffs:
                raise LeashError(
                    f"{root}: model {mp.name!r} was sampled with other settings ("
                    + "; ".join(diffs)
                    + "); use a new results folder, or the same settings"
                )
            samples = max(int(entry.sampling.get("samples", 0)), config.samples)
            entry.sampling = {**record, "samples": samples}
        for bench in plan.benchmarks:
            entry = manifest.benchmark(bench.name)
            if entry is None:
                manifest.benchmarks.append(
                    BenchmarkEntry(bench.name, bench.domain, bench.source, bench.verifier)
                )
            elif entry.verifier != bench.verifier:
                raise LeashError(
                    f"{root}: benchmark {bench.name!r} is graded by {entry.verifier!r} in this"
                    f" folder; this run asks for {bench.verifier!r} (use another name)"
                )
        check_layout(len(manifest.models), len(manifest.benchmarks), 1, config.samples)

    manifest = folder.update_manifest(change)
    rows = [q.to_row() for bench in plan.benchmarks for q in bench.questions]
    folder.merge_questions(questions_table(rows))
    folder.journal.clean_stale_files()
    return manifest


def existing_samples(
    folder: ResultsFolder | Path,
) -> dict[tuple[str, str, str], SampleRange]:
    """(benchmark, question_id, model) -> (count, smallest, largest sample index) on disk,
    from the store's key statistics (footer summaries; a scan only where a shard has none)."""
    return as_folder(folder).sample_ranges()


def list_missing_work(
    plan: RunPlan,
    upto: int | None = None,
    done: frozenset[tuple[str, str, str]] = frozenset(),
) -> None:
    """Fill each model's ``items`` with what the folder still lacks in this shard: samples
    up to ``upto`` (default: -k) of every (benchmark, question_id, model) not in ``done``."""
    config = plan.config
    upto = config.samples if upto is None else upto
    keys = plan.shard_keys()
    folder = plan.folder if plan.folder is not None else ResultsFolder.open(config.output)
    manifest = ResultsFolder.open(folder.root).manifest
    have = folder.sample_ranges()
    model_slot = {m.name: i for i, m in enumerate(manifest.models)}
    bench_slot = {b.name: i for i, b in enumerate(manifest.benchmarks)}
    for mp in plan.models:
        mp.items = []
        mp.questions = len(keys)
        mp.complete = 0
        for bench, index, question in keys:
            count, low, high = have.get((bench.name, question.question_id, mp.name), (0, 0, -1))
            if count and (low != 0 or high != count - 1):
                raise LeashError(
                    f"{config.output}: {bench.name}/{question.question_id} of model {mp.name!r}"
                    f" has samples {low}..{high} with gaps; leash sample extends only"
                    " samples 0..n-1"
                )
            if count >= config.samples or (bench.name, question.question_id, mp.name) in done:
                mp.complete += 1
                continue
            if count >= upto:
                continue
            ids = mp.prompts[(bench.name, question.question_id)]
            mp.items.append(
                WorkItem(
                    benchmark=bench.name,
                    question_id=question.question_id,
                    prompt_token_ids=ids,
                    first_sample=count,
                    n=upto - count,
                    seed=question_seed(
                        config.seed, model_slot[mp.name], bench_slot[bench.name], index
                    ),
                    max_tokens=min(mp.spec.settings.max_tokens, mp.info.context - len(ids)),
                )
            )
