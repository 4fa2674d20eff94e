"""The verifiers, one module each, and the registry that finds them by name.

Every module of this package that defines ``VERIFIER`` (an instance of
``base.Verifier``) is registered under ``VERIFIER.name``: ``math`` (the default),
``choice``, ``exact``, ``reasoning-gym``, ``code``. Modules are imported when the
registry is first asked, and must be cheap to import: a verifier that needs a
heavy package imports it inside its methods.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from sampler.errors import LeashError
from sampler.store.schema import DEFAULT_VERIFIER
from sampler.verify.answers.verdict import Verdict, VerifyTask
from sampler.verify.verifiers.base import Verifier, judge_safely

_NOT_VERIFIERS = {"base", "grading", "specs", "sandbox"}

__all__ = ["DEFAULT_VERIFIER", "Verifier", "get_verifier", "judge_in_worker", "verifiers"]


@cache
def verifiers() -> dict[str, Verifier]:
    """Every registered verifier by name, the default first."""
    found: dict[str, Verifier] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name in _NOT_VERIFIERS or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        verifier = getattr(module, "VERIFIER", None)
        if isinstance(verifier, Verifier):
            found[verifier.name] = verifier
    return dict(sorted(found.items(), key=lambda kv: kv[0] != DEFAULT_VERIFIER))


def get_verifier(name: str, where: str = "verifier") -> Verifier:
    """The verifier called ``name``; a LeashError naming ``where`` and the choices if none is."""
    table = verifiers()
    if name not in table:
        raise LeashError(f"{where}: unknown verifier {name!r}; choose from {', '.join(table)}")
    return table[name]


def judge_in_worker(task: VerifyTask) -> Verdict:
    """A worker's verdict for a task of a verifier other than math (see ``worker.serve``)."""
    verifier = verifiers().get(task.verifier)
    if verifier is None:
        from sampler.store.statuses import STATUS_ERROR

        return Verdict(STATUS_ERROR, None, f"unknown verifier {task.verifier!r}")
    return judge_safely(verifier, task.gold, task.span)
