"""``leash import --from prime-rl``: prime-rl's episode records (``traces.jsonl``), a series.

Checked against PrimeIntellect-ai/prime-rl ``src/prime_rl/monitors/file.py`` at commit
559b44772e471d1538537b8805cc77f3824a5e64 (``FileMonitor.log_episodes``: one
``orjson.dumps(episode.to_record())`` line per episode, appended to
``OUTPUT_DIR/rollouts/step_<N>/<kind>/<subset>/traces.jsonl``, kind train or eval, subset
all or effective). The records are verifiers' v1 ``Episode`` records, read by
``formats.episodes`` (its docstring holds the fields and the writer's commit).

Each ``step_<N>`` folder becomes model ``MODEL@N`` (``MODEL@0`` the base of a new folder). Of
the kinds and subsets, ``eval/all`` is read when present (the evaluations), else the only
one there is; a PATH with several others is refused, naming them. A ``traces.jsonl`` that is
not under a ``step_<N>`` folder (a verifiers 0.4 ``vf-eval`` run,
``outputs/<env>--<model>--<harness>--<id>/``) is read as model ``MODEL`` itself. The
benchmark is ``--bench``, else the episode's ``env.id``. A failed episode (``ok`` false, no
traces) is a sample of status ``error``.
"""

from __future__ import annotations

import re
from pathlib import Path

from sampler.errors import LeashError
from sampler.importers.formats.episodes import read_episodes
from sampler.importers.protocol import SourceRead
from sampler.importers.trainer_samples import read_series

FORMAT = "prime-rl"
SERIES = True
STEP_DIR = re.compile(r"^step_(\d+)$")
PREFERRED = ("eval", "all")


def read_source(source: SourceRead) -> list[str]:
    source.refuse_source_metric(FORMAT, "the reward is it")
    path = source.path
    candidates = [path] if path.is_file() else sorted(path.rglob("traces.jsonl"))
    steps = _step_files(path, candidates)
    if steps:
        return read_series(source, steps, lambda at, file, _: read_episodes(at, file, FORMAT))
    if not candidates:
        raise LeashError(
            f"{path}: no prime-rl rollouts/step_<N>/<kind>/<subset>/traces.jsonl files (nor"
            " verifiers traces.jsonl) found"
        )
    from sampler.importers.formats.verifiers import run_files

    for file in run_files(path, candidates):
        read_episodes(source, file, FORMAT)
    return [source.model]


def _step_files(path: Path, candidates: list[Path]) -> list[tuple[int, Path]]:
    """The step-numbered files of the preferred kind (module docstring); [] when none."""
    found: dict[tuple[str, str], list[tuple[int, Path]]] = {}
    for file in candidates:
        match = STEP_DIR.match(file.parent.parent.parent.name)
        if match is None:
            continue
        kind = (file.parent.parent.name, file.parent.name)
        found.setdefault(kind, []).append((int(match.group(1)), file))
    if not found:
        return []
    if PREFERRED in found:
        return sorted(found[PREFERRED])
    if len(found) > 1:
        kinds = ", ".join(f"{k}/{s}" for k, s in sorted(found))
        raise LeashError(
            f"{path}: episodes of several kinds ({kinds}) and no eval/all: point PATH at the"
            " files of one (e.g. a single step's folder)"
        )
    return sorted(next(iter(found.values())))
