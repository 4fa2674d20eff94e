"""Check a model before any engine starts: its files, tokenizer, context length, vocabulary.

``load_model_info`` reads only the config and tokenizer (with transformers, imported
here lazily), so a wrong path, a missing tokenizer or a too-small context is reported
in a second, naming the model, instead of after minutes of engine start-up.
"""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sampler.errors import LeashError
from sampler.sample.config import ModelSpec

CONTEXT_KEYS = (
    "max_position_embeddings",
    "max_sequence_length",
    "seq_length",
    "n_positions",
    "max_seq_len",
)


@dataclass
class ModelInfo:
    """What the parent needs to prepare a model's prompts."""

    tokenizer: Any
    context: int
    vocab_size: int


def check_model_source(name: str, path: str, what: str = "model") -> None:
    """A local folder must exist and hold config.json; anything else must look like a hub id."""
    local = Path(path).expanduser()
    if local.exists():
        if not local.is_dir():
            raise LeashError(f"{what} {name!r}: {path} is a file; give the checkpoint folder")
        if what == "model" and not (local / "config.json").is_file():
            raise LeashError(
                f"{what} {name!r}: {path} has no config.json (not a checkpoint folder)"
            )
        return
    looks_local = path.startswith(("/", ".", "~")) or path.count("/") != 1 or "\\" in path
    if looks_local:
        raise LeashError(f"{what} {name!r}: no such folder {path}")


@contextlib.contextmanager
def _quiet() -> Any:
    """Silence transformers' chatter while loading configs and tokenizers."""
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    with contextlib.redirect_stderr(io.StringIO()):
        yield


def _transformers() -> Any:
    try:
        import transformers
    except ImportError as exc:
        raise LeashError(
            "leash sample needs the transformers package to prepare prompts"
            " (pip install transformers, or install vllm which brings it)"
        ) from exc
    return transformers


def context_from_config(config: Any) -> int | None:
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    for key in CONTEXT_KEYS:
        value = getattr(text, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def load_model_info(spec: ModelSpec, server_context: int | None = None) -> ModelInfo:
    """Load ``spec``'s config and tokenizer; raise LeashError naming the model on failure.

    ``server_context`` is the context an OpenAI-compatible server reports (it wins
    over the config's, as the server may have been started with a smaller one).
    """
    s = spec.settings
    tokenizer_path = s.tokenizer or spec.path
    if s.engine != "openai" or Path(spec.path).expanduser().exists():
        check_model_source(spec.name, spec.path)
    if s.tokenizer:
        check_model_source(spec.name, s.tokenizer, what="tokenizer of model")
    transformers = _transformers()
    config = None
    try:
        with _quiet():
            config = transformers.AutoConfig.from_pretrained(
                spec.path, trust_remote_code=s.trust_remote_code
            )
    except Exception as exc:  # transformers raises OSError, ValueError, hub errors...
        if s.engine != "openai":
            raise LeashError(
                f"model {spec.name!r}: cannot read the model config from {spec.path}"
                f" ({_first_line(exc)})"
            ) from exc
    try:
        with _quiet():
            tokenizer = transformers.AutoTokenizer.from_pretrained(
                tokenizer_path, trust_remote_code=s.trust_remote_code
            )
    except Exception as exc:
        raise LeashError(
            f"model {spec.name!r}: cannot load a tokenizer from {tokenizer_path}"
            f" ({_first_line(exc)})"
        ) from exc
    context = server_context or (context_from_config(config) if config is not None else None)
    if s.max_model_len:
        if context and s.max_model_len > context:
            raise LeashError(
                f"model {spec.name!r}: max_model_len {s.max_model_len} is larger than the"
                f" model's context ({context} tokens)"
            )
        context = s.max_model_len
    if not context:
        raise LeashError(f"model {spec.name!r}: cannot tell its context length; set max_model_len")
    vocab = None
    if config is not None:
        text = config.get_text_config() if hasattr(config, "get_text_config") else config
        vocab = getattr(text, "vocab_size", None)
    return ModelInfo(
        tokenizer=tokenizer, context=int(context), vocab_size=int(vocab or len(tokenizer))
    )


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
