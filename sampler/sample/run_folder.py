"""The results folder side of ``leash sample``: create or check it, and list what is missing.

``open_results_folder`` creates the folder (or checks that it was sampled with the same
distribution settings), registers models and benchmarks in the manifest and merges
the questions; ``list_missing_work`` reads which (model, benchmark, question) already
have their samples and turns the rest into ``WorkItem``s of this ``--shard I/N``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.sample.engines.base import WorkItem
from sampler.sample.plan import RunPlan
from sampler.sample.run_record import DISTRIBUTION_KEYS, sampling_record
from sampler.sample.seeds import SCHEME, check_layout, question_seed
from sampler.store.journals.locks import exclusive_lock
from sampler.store.manifest import load_manifest, new_manifest, save_manifest, update_manifest
from sampler.store.schema import (
    LOCK_FILE,
    MANIFEST_FILE,
    SAMPLES_DIR,
    BenchmarkEntry,
    Manifest,
    ModelEntry,
)
from sampler.store.shards.writer import clean_stale_files, merge_questions, questions_table

# -- the results folder ---------------------------------------------------------------


def _init_folder(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    if not root.is_dir():
        raise LeashError(f"{root}: not a folder")
    with exclusive_lock(root / LOCK_FILE):
        if (root / MANIFEST_FILE).exists():
            return
        others = [
            p.name
            for p in root.iterdir()
            if not p.name.startswith(".leash") and p.name != SAMPLES_DIR
        ]
        if others:
            raise LeashError(
                f"{root}: exists, is not empty and is not a results folder; choose a new folder"
            )
        (root / SAMPLES_DIR).mkdir(exist_ok=True)
        save_manifest(root, new_manifest())


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for key in DISTRIBUTION_KEYS:
        if key in old and old.get(key) != new.get(key):
            out.append(f"{key}: folder has {old.get(key)!r}, this run {new.get(key)!r}")
    return out


def open_results_folder(plan: RunPlan) -> Manifest:
    """Create or check the folder, register models and benchmarks, merge the questions."""
    config = plan.config
    root = config.output
    _init_folder(root)
    load_manifest(root)  # a folder of another format is refused before anything changes
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

    manifest = update_manifest(root, change)
    rows = [q.to_row() for bench in plan.benchmarks for q in bench.questions]
    merge_questions(root, questions_table(rows))
    clean_stale_files(root)
    return manifest


def existing_samples(root: Path) -> dict[tuple[str, str, str], tuple[int, int, int]]:
    """(benchmark, question_id, model) -> (count, smallest, largest sample index) on disk."""
    shards = sorted((Path(root) / SAMPLES_DIR).glob("part-*.parquet"))
    if not shards:
        return {}
    columns = ["benchmark", "question_id", "model", "sample"]
    try:
        tables = [pq.read_table(p, columns=columns) for p in shards]
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{root}: a samples shard cannot be read ({exc})") from exc
    table = pa.concat_tables(tables)
    table = pa.table(
        {
            c: table.column(c).cast(pa.string()) if c != "sample" else table.column(c)
            for c in columns
        }
    )
    grouped = table.group_by(columns[:3], use_threads=False).aggregate(
        [("sample", "count"), ("sample", "min"), ("sample", "max"), ("sample", "count_distinct")]
    )
    out = {}
    for row in grouped.to_pylist():
        if row["sample_count"] != row["sample_count_distinct"]:
            raise LeashError(
                f"{root}: {row['benchmark']}/{row['question_id']} of model {row['model']!r} has"
                " duplicate sample indices"
            )
        key = (row["benchmark"], row["question_id"], row["model"])
        out[key] = (row["sample_count"], row["sample_min"], row["sample_max"])
    return out


def list_missing_work(plan: RunPlan) -> None:
    """Fill each model's ``items`` with what the folder still lacks in this shard."""
    config = plan.config
    keys = plan.shard_keys()
    manifest = load_manifest(config.output)
    have = existing_samples(config.output)
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
            if count >= config.samples:
                mp.complete += 1
                continue
            ids = mp.prompts[(bench.name, question.question_id)]
            mp.items.append(
                WorkItem(
                    benchmark=bench.name,
                    question_id=question.question_id,
                    prompt_token_ids=ids,
                    first_sample=count,
                    n=config.samples - count,
                    seed=question_seed(
                        config.seed, model_slot[mp.name], bench_slot[bench.name], index
                    ),
                    max_tokens=min(mp.spec.settings.max_tokens, mp.info.context - len(ids)),
                )
            )
