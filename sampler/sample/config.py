"""What one ``leash sample`` run does: models, benchmarks and sampling settings.

Settings come from command-line options and an optional TOML file (``--config``).
Precedence, most specific first: a model's own table in the TOML file, then the
command line, then the TOML file's top level, then leash's defaults. The file may
hold everything (the command line then needs only ``--config``):

    output = "runs/qwen-math"
    samples = 1024
    temperature = 0.6
    base = "base"

    [models.base]
    path = "Qwen/Qwen2.5-Math-7B"
    template = "plain"
    chat_template = false

    [models.rlvr]
    path = "ckpts/rlvr-step-500"
    max_tokens = 8192
    tensor_parallel_size = 2

    [benchmarks.aime24]
    path = "data/aime24.jsonl"

    [benchmarks.mine]
    path = "data/mine.jsonl"
    problem_field = "question"
    gold_field = "answer"

Unknown keys are errors naming the file and key. ``sampling_record`` gives the
parameters that go into the manifest.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from pathlib import Path
from typing import Any

from sampler.benchmarks.presets import PRESETS, FieldMapping, custom_mapping
from sampler.benchmarks.prompts import DEFAULT_TEMPLATE, ChatSetting, parse_chat_setting
from sampler.errors import LeashError
from sampler.sample.run_checks import RUN_CHECKS
from sampler.sample.setting_fields import field_default, flag_fields, setting
from sampler.store import check_name

ENGINES = ("vllm", "openai", "hf")
DEFAULT_ENGINE = "vllm"


@dataclass(frozen=True)
class ModelSettings:
    """How one model is loaded and prompted; every field may differ between models.

    A field made with ``setting`` is also a flag of ``leash sample`` (setting_fields)."""

    engine: str = setting(DEFAULT_ENGINE, "Sampling engine.", choices=ENGINES, section="engine")
    template: str = setting(
        DEFAULT_TEMPLATE, "Prompt template: boxed, r1, plain, or a file with {problem}."
    )
    chat_template: ChatSetting = setting(
        "auto", "Wrap prompts in the tokenizer's chat template.", choices=("auto", "on", "off")
    )
    max_tokens: int = setting(
        4096, "Generated tokens at most; clamped to the model's context minus the prompt."
    )
    stop: tuple[str, ...] = setting((), "Stop string (repeatable).")
    stop_token_ids: tuple[int, ...] = setting(
        (), "Stop token id (repeatable).", names=("--stop-token-id",)
    )
    dtype: str = setting(
        "auto", "Weights dtype (auto, bfloat16, float16, float32).", section="engine"
    )
    tensor_parallel_size: int = setting(1, "GPUs per model (vllm).", section="engine")
    data_parallel_size: int = setting(1, "Model copies sampling at once (vllm).", section="engine")
    gpu_memory_utilization: float = setting(0.9, "Share of GPU memory for vLLM.", section="engine")
    max_model_len: int | None = setting(
        None, "Context length to use (default: the model's).", section="engine"
    )
    enforce_eager: bool = setting(False, "No CUDA graphs (vllm).", section="engine")
    max_num_seqs: int | None = setting(
        None, "Sequences vLLM runs at once (memory).", section="engine"
    )
    trust_remote_code: bool = setting(
        False, "Allow model code from the checkpoint.", section="engine"
    )
    tokenizer: str | None = None
    url: str | None = setting(
        None,
        "Base URL of an OpenAI-compatible server (openai engine), e.g. http://127.0.0.1:8000/v1.",
        section="engine",
    )
    served_name: str | None = setting(
        None, "Model name on the server (default: the model PATH).", section="engine"
    )
    concurrency: int = setting(8, "Requests in flight (openai engine).", section="engine")
    request_timeout_s: float = 600.0
    retries: int = 5
    hf_batch_size: int = 16


@dataclass(frozen=True)
class ModelSpec:
    name: str
    path: str
    role: str
    settings: ModelSettings


@dataclass(frozen=True)
class BenchSpec:
    name: str
    path: str
    mapping: FieldMapping | None = None
    domain: str | None = None


@dataclass(frozen=True)
class Shard:
    """``--shard I/N``: this process samples the questions whose position % N == I."""

    index: int = 0
    count: int = 1

    def holds(self, position: int) -> bool:
        return position % self.count == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


@dataclass(frozen=True)
class RunConfig:
    """One run; a field made with ``setting`` is also a flag of ``leash sample`` and a key of
    the ``--config`` file's top level (``RUN_OPTION_KEYS``), its default the one default."""

    output: Path
    models: tuple[ModelSpec, ...]
    benchmarks: tuple[BenchSpec, ...]
    samples: int = setting(64, "Samples per question.", names=("-k", "--samples"))
    temperature: float = setting(0.6, "Sampling temperature.")
    top_p: float = setting(0.95, "Nucleus sampling.")
    top_k: int = setting(-1, "Top-k sampling, -1 = off.")
    seed: int = setting(0, "Run seed; each (model, question) derives its own.")
    logprobs: int = setting(
        20, "Top-k log-probabilities per token for the token entropy; 0 = none."
    )
    token_detail: int = setting(
        0,
        "Also keep per-token entropies of the first M samples of each question.",
        metavar="M",
        show_default=False,
    )
    shard: Shard = setting(
        default_factory=Shard,
        help="Sample only questions whose position % N == I (N machines can fill one folder).",
        metavar="I/N",
        section="run",
        show_default=False,
    )
    verify: bool = setting(True, "Do not verify after sampling.", section="run")
    flush_seconds: float = setting(
        60.0, "Write finished questions at least this often, in seconds.", section="run"
    )
    ray: bool = setting(
        False,
        "Run the engines (and verification) on a Ray cluster: RAY_ADDRESS, else a local one.",
        section="run",
    )
    ray_address: str | None = setting(
        None, "Address of the Ray cluster (implies --ray).", section="run"
    )
    #: ``--adaptive``: after ``min_samples`` per (model, question), doubling rounds; a pair
    #: stops at the round in which it has a verified success (sample.adaptive)
    adaptive: bool = setting(
        False,
        "Draw --min-samples per question, then in doubling rounds verified as they come;"
        " a (model, question) stops at its first verified success, the others go on to k.",
        section="run",
    )
    min_samples: int = setting(
        32, "Samples every (model, question) gets with --adaptive.", metavar="N", section="run"
    )
    #: ``--risk DELTA`` (with --adaptive): an unsolved pair may stop early (sample.risk_stop)
    risk: float | None = setting(
        None,
        "With --adaptive: stop a (model, question) without a success once the bound on its"
        " chance of one in the samples left is below DELTA (0 < DELTA < 1).",
        metavar="DELTA",
        section="run",
    )
    config_file: str | None = None

    base_name: str = ""

    @property
    def base(self) -> ModelSpec | None:
        """The base model when this run samples it (else it is already in the folder)."""
        return next((m for m in self.models if m.role == "base"), None)


#: Run-level settings that the command line and the top of --config share, by the same name:
#: RunConfig's flag fields (``verify`` is ``--no-verify``).
RUN_OPTION_KEYS = tuple(f.name for f in flag_fields(RunConfig))
#: Keys accepted at the top level of the TOML file besides [models.*] / [benchmarks.*].
RUN_KEYS = ("output", "base", *RUN_OPTION_KEYS)
#: The default of each run-level setting: RunConfig's own field defaults, the one source.
RUN_DEFAULTS: dict[str, Any] = {
    f.name: field_default(f)
    for f in fields(RunConfig)
    if f.name in RUN_KEYS and field_default(f) is not MISSING
}
MODEL_KEYS = tuple(f.name for f in fields(ModelSettings))
BENCH_KEYS = ("path", "problem_field", "gold_field", "id_field", "gold_from_solution", "domain")


def parse_shard(text: str) -> Shard:
    index, sep, count = str(text).partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        shard = None
    if not sep or shard is None or shard.count < 1 or not 0 <= shard.index < shard.count:
        raise LeashError(f"--shard {text!r}: expected I/N with 0 <= I < N, e.g. 0/4")
    return shard


def parse_named(spec: str, what: str, example: str) -> tuple[str, str]:
    name, sep, value = spec.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise LeashError(f"{what} {spec!r}: expected NAME=PATH, e.g. {example}")
    try:
        check_name(what, name)
    except ValueError as exc:
        raise LeashError(str(exc)) from exc
    return name, value


OPTIONS = {"model": "--model", "benchmark": "--bench"}


def parse_named_options(specs: Sequence[str], what: str, example: str) -> list[tuple[str, str]]:
    """``parse_named`` of each ``--model``/``--bench`` given; a name given twice is a LeashError."""
    out = [parse_named(spec, what, example) for spec in specs]
    names = [name for name, _ in out]
    for name in (n for i, n in enumerate(names) if n in names[:i]):
        raise LeashError(f"{OPTIONS[what]} {name!r} given twice")
    return out


def load_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise LeashError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise LeashError(f"{path}: not valid TOML ({exc})") from exc
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read ({exc})") from exc


def _check_keys(table: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise LeashError(f"{where}: unknown key {key!r} (known: {', '.join(allowed)})")


def _coerce(value: Any, kind: Any, where: str) -> Any:
    """Check/convert a TOML or CLI value to the type of a settings field."""
    if kind in ("int", int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LeashError(f"{where}: expected an integer, got {value!r}")
        return value
    if kind in ("float", float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LeashError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if kind in ("bool", bool):
        if not isinstance(value, bool):
            raise LeashError(f"{where}: expected true or false, got {value!r}")
        return value
    return value


_FIELD_TYPES = {f.name: f.type for f in fields(ModelSettings)}


def settings_from_table(base: ModelSettings, table: dict[str, Any], where: str) -> ModelSettings:
    """Apply the keys of a TOML table (or CLI overrides) to ``base``."""
    changes: dict[str, Any] = {}
    for key, value in table.items():
        if value is None:
            continue
        here = f"{where}: {key}"
        kind = _FIELD_TYPES.get(key)
        if key == "chat_template":
            changes[key] = parse_chat_setting(value, here)
        elif key == "stop":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list | tuple) or not all(isinstance(s, str) for s in items):
                raise LeashError(f"{here}: expected a list of strings")
            changes[key] = tuple(items)
        elif key == "stop_token_ids":
            if not isinstance(value, list | tuple) or not all(
                isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value
            ):
                raise LeashError(f"{here}: expected a list of token ids (integers >= 0)")
            changes[key] = tuple(value)
        elif key in ("max_model_len", "max_num_seqs"):
            changes[key] = _coerce(value, int, here) or None
        elif kind in ("int", "float", "bool"):
            changes[key] = _coerce(value, kind, here)
        else:
            if not isinstance(value, str):
                raise LeashError(f"{here}: expected text, got {value!r}")
            changes[key] = value
    settings = replace(base, **changes)
    _check_settings(settings, where)
    return settings


def _check_settings(s: ModelSettings, where: str) -> None:
    if s.engine not in ENGINES:
        raise LeashError(f"{where}: engine {s.engine!r}: use one of {', '.join(ENGINES)}")
    positive = (
        "max_tokens",
        "tensor_parallel_size",
        "data_parallel_size",
        "concurrency",
        "hf_batch_size",
    )
    for key in positive:
        if getattr(s, key) < 1:
            raise LeashError(f"{where}: {key} must be at least 1, got {getattr(s, key)}")
    if not 0.0 < s.gpu_memory_utilization <= 1.0:
        raise LeashError(f"{where}: gpu_memory_utilization must be in (0, 1]")
    if s.retries < 0 or s.request_timeout_s <= 0:
        raise LeashError(f"{where}: retries must be >= 0 and request_timeout_s > 0")
    if s.engine == "openai" and not s.url:
        raise LeashError(f"{where}: the openai engine needs the server's URL (--url or url = ...)")


def _bench_from_table(name: str, table: dict[str, Any], where: str) -> BenchSpec:
    _check_keys(table, BENCH_KEYS, where)
    if not isinstance(table.get("path"), str) or not table["path"].strip():
        raise LeashError(f"{where}: missing 'path' (the benchmark file)")
    mapping = bench_mapping(
        name,
        table.get("problem_field"),
        table.get("gold_field"),
        table.get("id_field"),
        table.get("gold_from_solution"),
    )
    return BenchSpec(name, table["path"], mapping, table.get("domain"))


def bench_mapping(
    name: str,
    problem: str | None,
    gold: str | None,
    id_field: str | None,
    gold_from_solution: str | None = None,
) -> FieldMapping | None:
    """The field mapping of a benchmark: its preset's (or the generic one) with overrides."""
    if not (problem or gold or id_field or gold_from_solution):
        return None
    preset = PRESETS.get(name)
    return custom_mapping(
        problem=problem,
        gold=gold,
        id=id_field,
        gold_from_solution=gold_from_solution,
        base=preset.mapping if preset else None,
    )


def _named_table(kind: str, name: str, table: Any, here: str) -> dict[str, Any]:
    """A ``[models.NAME]`` or ``[benchmarks.NAME]`` table of the file, its name checked."""
    try:
        check_name(kind, name)
    except ValueError as exc:
        raise LeashError(f"{here}: {exc}") from exc
    if not isinstance(table, dict):
        raise LeashError(f"{here}: expected a table with at least 'path'")
    return table


@dataclass(frozen=True)
class _ConfigFile:
    """The ``--config`` file split into its top level and its named tables (all empty: none)."""

    where: str
    top: dict[str, Any]
    models: dict[str, Any]
    benchmarks: dict[str, Any]


def _read_config_file(config_file: Path | None) -> _ConfigFile:
    data = load_toml(config_file) if config_file else {}
    where = str(config_file) if config_file else "command line"
    top_models = data.get("models", {})
    top_benches = data.get("benchmarks", {})
    if not isinstance(top_models, dict) or not isinstance(top_benches, dict):
        raise LeashError(f"{where}: 'models' and 'benchmarks' must be tables ([models.NAME])")
    top = {k: v for k, v in data.items() if k not in ("models", "benchmarks")}
    _check_keys(top, RUN_KEYS + MODEL_KEYS, where)
    return _ConfigFile(where, top, top_models, top_benches)


def build_run_config(
    *,
    config_file: Path | None = None,
    cli: dict[str, Any],
    cli_models: list[str] = (),  # type: ignore[assignment]
    cli_benches: list[str] = (),  # type: ignore[assignment]
    cli_model_settings: dict[str, Any] | None = None,
    cli_bench_fields: dict[str, str | None] | None = None,
) -> RunConfig:
    """Merge the TOML file (if any) and command-line values into a checked RunConfig.

    ``cli`` holds run-level options (None = not given), ``cli_model_settings`` the
    model settings given on the command line (None = not given).
    """
    file = _read_config_file(config_file)

    def run_value(key: str) -> Any:
        if cli.get(key) is not None:
            return cli[key]
        return file.top.get(key, RUN_DEFAULTS.get(key))

    paths, tables = _model_paths(file, cli_models)
    base_name = _base_name(run_value("base"), paths)
    models = _model_specs(file, paths, tables, cli_model_settings or {}, base_name)
    benchmarks = _bench_specs(file, cli_benches, cli_bench_fields or {})
    output = run_value("output")
    if not output:
        raise LeashError("no results folder: give -o RESULTS (or output = ... in --config)")
    settings = _run_settings(run_value, file.where)
    return RunConfig(
        output=Path(output).expanduser(),
        models=models,
        benchmarks=benchmarks,
        **settings,
        config_file=str(config_file) if config_file else None,
        base_name=base_name,
    )


# -- models -----------------------------------------------------------------------------
def _model_paths(
    file: _ConfigFile, cli_models: list[str]
) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Each model's path and its own settings table, from [models.NAME] and ``--model``."""
    paths: dict[str, str] = {}
    tables: dict[str, dict[str, Any]] = {}
    for name, table in file.models.items():
        here = f"{file.where}: [models.{name}]"
        table = dict(_named_table("model", name, table, here))
        _check_keys(table, ("path", *MODEL_KEYS), here)
        path = table.pop("path", None)
        if path is not None:
            paths[name] = str(path)
        tables[name] = table
    for name, path in parse_named_options(cli_models, "model", "base=Qwen/Qwen2.5-Math-1.5B"):
        paths[name] = path
        tables.setdefault(name, {})
    if not paths:
        raise LeashError(
            "no model to sample: give --model NAME=PATH (or [models.NAME] in --config)"
        )
    for name in tables:
        if name not in paths:
            raise LeashError(f"{file.where}: [models.{name}] has no 'path'")
    return paths, tables


def _base_name(value: Any, paths: dict[str, str]) -> str:
    """``--base`` (or ``base = ...``); the only model when there is one."""
    if value is None:
        if len(paths) > 1:
            raise LeashError(
                f"several models ({', '.join(paths)}): name the base model with --base NAME"
            )
        value = next(iter(paths))
    try:
        check_name("model", value)
    except ValueError as exc:
        raise LeashError(f"--base: {exc}") from exc
    # a --base that is not sampled here must already be in the results folder (checked there)
    return value


def _model_specs(
    file: _ConfigFile,
    paths: dict[str, str],
    tables: dict[str, dict[str, Any]],
    cli_settings: dict[str, Any],
    base_name: str,
) -> tuple[ModelSpec, ...]:
    """Settings per model: defaults <- file top level <- command line <- [models.NAME]."""
    where = file.where
    settings = settings_from_table(
        ModelSettings(), {k: v for k, v in file.top.items() if k in MODEL_KEYS}, where
    )
    settings = settings_from_table(settings, dict(cli_settings), "command line")
    models = []
    for name, path in paths.items():
        here = f"{where}: [models.{name}]" if name in file.models else f"model {name!r}"
        own = settings_from_table(settings, tables.get(name, {}), here)
        models.append(ModelSpec(name, path, "base" if name == base_name else "target", own))
    models.sort(key=lambda m: m.role != "base")  # base first, then targets in given order
    return tuple(models)


# -- benchmarks -------------------------------------------------------------------------
def _bench_specs(
    file: _ConfigFile, cli_benches: list[str], fields_: dict[str, str | None]
) -> tuple[BenchSpec, ...]:
    """[benchmarks.NAME] of the file, then ``--bench`` (which may point one elsewhere)."""
    benches: dict[str, BenchSpec] = {}
    for name, table in file.benchmarks.items():
        here = f"{file.where}: [benchmarks.{name}]"
        benches[name] = _bench_from_table(name, _named_table("benchmark", name, table, here), here)
    for name, path in parse_named_options(cli_benches, "benchmark", "aime24=data/aime24.jsonl"):
        if name in benches:  # the command line points a benchmark of the file elsewhere
            benches[name] = replace(benches[name], path=path)
            continue
        mapping = bench_mapping(
            name,
            fields_.get("problem_field"),
            fields_.get("gold_field"),
            fields_.get("id_field"),
            fields_.get("gold_from_solution"),
        )
        benches[name] = BenchSpec(name, path, mapping, fields_.get("domain"))
    if not benches:
        raise LeashError("no benchmark: give --bench NAME=PATH (or [benchmarks.NAME] in --config)")
    return tuple(benches.values())


# -- run-level settings (sampling, engine placement, output) ----------------------------
def _run_setting(name: str, kind: str, value: Any, where: str) -> Any:
    """A run-level value converted to its field's type (``kind``) and checked."""
    if kind.removesuffix(" | None") in ("int", "float", "bool") and value is not None:
        value = _coerce(value, kind.removesuffix(" | None"), name)
    elif kind == "Shard":
        value = value if isinstance(value, Shard) else parse_shard(value) if value else Shard()
    elif kind == "str | None" and value is not None and not isinstance(value, str):
        raise LeashError(f"{where}: {name} must be a string, got {value!r}")
    check = RUN_CHECKS.get(name)
    return check(value) if check else value


def _run_settings(run_value: Callable[[str], Any], where: str) -> dict[str, Any]:
    """Every run-level flag field of RunConfig: command line > file top level > default."""
    settings = {
        f.name: _run_setting(f.name, str(f.type), run_value(f.name), where)
        for f in flag_fields(RunConfig)
    }
    settings["ray"] = settings["ray"] or settings["ray_address"] is not None
    settings["min_samples"] = min(settings["min_samples"], settings["samples"])
    return settings
