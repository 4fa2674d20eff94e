"""Joining a Ray cluster for ``--ray`` runs: the one place leash calls ``ray.init``.

``ray`` is an optional extra (``leash-rlvr[ray]``): it is imported here, inside
``connect``, and nowhere at module level, so ``leash --help`` and every run without
``--ray`` never load it. The cluster is the one ``--ray-address`` names, else the one
``RAY_ADDRESS`` names, else a local one started for this run (and stopped with it). A local
cluster is bound to the loopback address (``LOCAL_NODE_IP``): it serves this run alone, and
nothing of it listens on the machine's network address.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sampler import install_hint
from sampler.errors import LeashError

#: Engine and verification processes on the cluster inherit these (quieter logs).
WORKER_ENVIRONMENT = {
    "VLLM_LOGGING_LEVEL": "WARNING",
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}

#: The address a local cluster started by ``connect`` binds to.
LOCAL_NODE_IP = "127.0.0.1"
#: Ray's own switch for a loopback-only node: with it off (read when ray is first imported),
#: Ray takes 127.0.0.1 as the node's address instead of resolving it to the machine's.
LOOPBACK_ONLY = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


@dataclass(frozen=True)
class Cluster:
    """What leash needs to know of the cluster it joined."""

    address: str
    cpus: float
    gpus: float
    nodes: int
    started_here: bool


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise LeashError(f"--ray needs Ray: {install_hint('ray')} (or pip install ray)") from None
    return ray


def connect(address: str | None = None) -> Cluster:
    """Join the cluster at ``address`` (or ``RAY_ADDRESS``), or start a local one bound to
    127.0.0.1."""
    address = address or os.environ.get("RAY_ADDRESS") or None
    if not address or _on_loopback(address):
        for name, value in LOOPBACK_ONLY.items():
            os.environ.setdefault(name, value)
    ray = import_ray()
    if not ray.is_initialized():
        runtime_env = {"env_vars": {**WORKER_ENVIRONMENT, **_python_path()}}
        try:
            if address:
                ray.init(
                    address=address,
                    log_to_driver=False,
                    runtime_env=runtime_env,
                    configure_logging=False,
                )
            else:
                ray.init(
                    _node_ip_address=LOCAL_NODE_IP,
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env=runtime_env,
                    configure_logging=False,
                )
        except ConnectionError as exc:
            raise LeashError(f"--ray: cannot reach the Ray cluster at {address} ({exc})") from None
    resources = ray.cluster_resources()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return Cluster(
        address=address or "local",
        cpus=float(resources.get("CPU", 0)),
        gpus=float(resources.get("GPU", 0)),
        nodes=len(nodes),
        started_here=not address,
    )


def disconnect() -> None:
    """Leave the cluster (a local one started by ``connect`` stops with it)."""
    ray = import_ray()
    if ray.is_initialized():
        ray.shutdown()


def _on_loopback(address: str) -> bool:
    """Whether a cluster address (``HOST:PORT`` or ``ray://HOST:PORT``) is this machine's
    loopback, where the driver must take 127.0.0.1 as its own node address too."""
    host = address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _python_path() -> dict[str, str]:
    """Workers import leash as the driver does: pass PYTHONPATH on when it is set."""
    value = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": value} if value else {}
