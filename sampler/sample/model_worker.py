"""The child process that samples one model: load it, draw, write shards, report progress.

Each model runs in its own process (started with ``spawn``), so all of its GPU memory
is released when the process ends, before the next model loads. The process dies
with its parent (``PR_SET_PDEATHSIG``) and leads a process group that a small forked
reaper kills when it dies, so killing ``leash sample`` (even with kill -9) never leaves
an engine or its helper processes running. It writes finished questions itself
(``ShardBuffer``) and sends small progress events to the parent through a queue:

    (worker, "loading") (worker, "ready", seconds) (worker, "question", samples, tokens)
    (worker, "finished", rows, seconds writing, seconds sampling and writing)
    (worker, "error", message)

With a ``commands`` queue (``sample.engine_session``: one engine for a whole adaptive
run) the worker keeps its engine loaded and samples one batch of items per command,
``(batch, items)``, flushing its shards and reporting ``(worker, "batch", batch)`` after
each, until it gets ``None``; it then reports ``finished`` as above.

On an engine failure the questions already finished are still written.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from sampler.errors import LeashError
from sampler.sample.config import ModelSpec
from sampler.sample.engines.base import Engine, SamplingOptions, WorkItem, describe_exception
from sampler.sample.shard_buffer import ShardBuffer
from sampler.store import ResultsFolder


@dataclass
class ModelJob:
    """Everything a worker process needs (pickled to it)."""

    root: str
    model: ModelSpec
    options: SamplingOptions
    max_model_len: int
    vocab_size: int
    items: list[WorkItem]
    worker: int = 0
    devices: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    flush_rows: int = 8192
    flush_seconds: float = 60.0


def build_engine(job: ModelJob) -> Engine:
    s = job.model.settings
    if s.engine == "vllm":
        from sampler.sample.engines.vllm_engine import VllmEngine

        return VllmEngine(job.model.path, s, job.options, job.max_model_len)
    if s.engine == "hf":
        from sampler.sample.engines.hf_engine import HfEngine

        return HfEngine(job.model.path, s, job.options, job.vocab_size)
    if s.engine == "openai":
        from sampler.sample.engines.openai_engine import OpenAIEngine

        return OpenAIEngine(job.model.path, s, job.options, job.vocab_size)
    raise LeashError(f"model {job.model.name!r}: unknown engine {s.engine!r}")


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (no-op elsewhere)."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


#: Quieter engines, unless the user's environment says otherwise.
QUIET_ENVIRONMENT = {
    "VLLM_LOGGING_LEVEL": "WARNING",
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def start_group_reaper() -> None:
    """Put this process and all it will start in a new process group, watched by a reaper.

    vLLM starts its own processes (engine core, GPU workers) that outlive a killed
    parent. A forked watchdog polls for this process's death (by kill -9 too) and
    then kills the whole group, so no engine is left holding the GPU.
    """
    os.setpgid(0, 0)
    watched = os.getpid()
    if os.fork() != 0:
        return
    try:  # the reaper: no Python-level cleanup, no inherited handlers
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while os.getppid() == watched:
            time.sleep(0.25)
        os.killpg(watched, signal.SIGKILL)
    finally:
        os._exit(0)


def worker_main(job: ModelJob, events: Any, commands: Any = None) -> None:
    """Entry point of a model's worker process: samples ``job.items``, then, with
    ``commands``, each batch it is sent until ``None``."""
    die_with_parent()
    start_group_reaper()
    for key, value in QUIET_ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    os.environ.update(job.env)
    if job.devices is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = job.devices

    def send(*message: Any) -> None:
        events.put((job.worker, *message))

    code = 0
    engine: Engine | None = None
    buffer = ShardBuffer(
        ResultsFolder.open(job.root), job.model.name, job.flush_rows, job.flush_seconds
    )
    try:
        send("loading")
        started = time.monotonic()
        engine = build_engine(job)
        engine.start()
        send("ready", time.monotonic() - started)

        def on_done(item: WorkItem, records: list) -> None:
            buffer.add(item, records)
            send("question", len(records), sum(r.n_tokens for r in records))

        sampling_started = time.monotonic()
        engine.run(job.items, on_done)
        buffer.flush()
        while commands is not None and (command := commands.get()) is not None:
            batch, items = command
            engine.run(items, on_done)
            buffer.flush()  # the parent verifies a batch as soon as it is reported
            send("batch", batch)
        run_seconds = time.monotonic() - sampling_started
        send("finished", buffer.rows_written, buffer.write_seconds, run_seconds)
    except LeashError as exc:
        code = 1
        send("error", str(exc))
    except BaseException as exc:  # report any engine failure to the parent, then exit
        code = 1
        traceback.print_exc(file=sys.stderr)
        send(
            "error",
            f"model {job.model.name!r}: the {job.model.settings.engine} engine failed"
            f" ({describe_exception(exc)})",
        )
    finally:
        if code:
            with contextlib.suppress(Exception):
                buffer.flush()  # questions that finished before the failure are kept
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.close()
        events.close()
        events.join_thread()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
