"""A folder of one benchmark from per-question success counts, for the report's tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tests.support.folder_builders import build_folder, counts_spec


def counts_folder(root: Path, counts: Mapping[str, tuple[int, int]], samples: int) -> Path:
    """Benchmark ``alg``: question q has ``counts[q]`` = (base, rlvr) correct of ``samples``."""
    spec = {
        ("alg", q): {"base": counts_spec(b, samples), "rlvr": counts_spec(t, samples)}
        for q, (b, t) in counts.items()
    }
    return build_folder(root, spec)
