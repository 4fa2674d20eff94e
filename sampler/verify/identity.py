"""Which verifier graded a folder: leash's and math-verify's versions and the options.

math-verify's own verdicts change between releases, and so do leash's rules, so a
verdict is only reproducible with the verifier that gave it. ``verifier_identity`` is
that verifier: the versions of leash, math-verify and latex2sympy2_extended, the
extraction config and the per-answer deadline. Every ``leash verify`` run that writes
verdicts records it in the manifest's ``verification.graders`` (``record_grader``): a
``--force`` run replaces the list, any other adds to it, so a folder whose verdicts come
from two verifiers says so (``grader_note``, shown by ``leash info`` and ``leash report``).
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

_LIBRARIES = ("math-verify", "latex2sympy2_extended")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def verifier_identity(extraction: dict[str, Any], deadline_s: float) -> dict[str, Any]:
    """The identity of this verifier with these options (a JSON object)."""
    from sampler import __version__

    versions = {"leash": __version__, **{d: _version(d) for d in _LIBRARIES}}
    return {"versions": versions, "extraction": extraction, "deadline_s": deadline_s}


def _comparable(identity: dict[str, Any]) -> dict[str, Any]:
    return {k: identity.get(k) for k in ("versions", "extraction", "deadline_s")}


def record_grader(
    verification: dict[str, Any], identity: dict[str, Any], *, replace: bool, when: str
) -> None:
    """Add ``identity`` to ``verification["graders"]`` (or make it the only one)."""
    graders = [] if replace else list(verification.get("graders") or [])
    for entry in graders:
        if isinstance(entry, dict) and _comparable(entry) == _comparable(identity):
            entry["last_used"] = when
            break
    else:
        graders.append({**identity, "first_used": when, "last_used": when})
    verification["graders"] = graders


def _describe(entry: dict[str, Any]) -> str:
    versions = entry.get("versions") or {}
    return ", ".join(f"{k} {v}" for k, v in sorted(versions.items()))


def grader_note(verification: dict[str, Any]) -> str | None:
    """A one-line note when the folder's verdicts come from more than one verifier."""
    graders = [g for g in verification.get("graders") or [] if isinstance(g, dict)]
    if len(graders) < 2:
        return None
    kinds = {_describe(g) for g in graders}
    what = "versions" if len(kinds) > 1 else "options (extraction or deadline)"
    listing = "; ".join(f"{_describe(g)} (from {g.get('first_used', '?')})" for g in graders[:4])
    return (
        f"verdicts come from {len(graders)} verifiers with different {what}: {listing};"
        " run `leash verify --force` to grade every sample with one"
    )
