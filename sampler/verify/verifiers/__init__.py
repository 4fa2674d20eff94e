"""The verifiers, one module each, and the registry table that names them.

``VERIFIER_MODULES`` is the one list of verifiers: name -> the module whose ``VERIFIER``
(an instance of ``base.Verifier``) grades it, the default (``math``) first. Adding a
verifier is a module and a row here (tests/verify/test_verifiers.py checks that every
module defining ``VERIFIER`` has its row). Modules are imported when the registry is
first asked, and must be cheap to import: a verifier that needs a heavy package imports
it inside its methods.
"""

from __future__ import annotations

import importlib
from functools import cache

from sampler.errors import LeashError
from sampler.store import DEFAULT_VERIFIER
from sampler.verify.answers.verdict import Verdict, VerifyTask
from sampler.verify.verifiers.base import Verifier, judge_safely

#: verifier name -> module defining ``VERIFIER``; the default first
VERIFIER_MODULES: dict[str, str] = {
    DEFAULT_VERIFIER: "sampler.verify.verifiers.math",
    "choice": "sampler.verify.verifiers.choice",
    "code": "sampler.verify.verifiers.code",
    "exact": "sampler.verify.verifiers.exact",
    "reasoning-gym": "sampler.verify.verifiers.reasoning_gym",
}

__all__ = [
    "DEFAULT_VERIFIER",
    "VERIFIER_MODULES",
    "Verifier",
    "get_verifier",
    "judge_in_worker",
    "verifiers",
]


@cache
def verifiers() -> dict[str, Verifier]:
    """Every registered verifier by name, the default first."""
    found: dict[str, Verifier] = {}
    for name, module_name in VERIFIER_MODULES.items():
        verifier = importlib.import_module(module_name).VERIFIER
        if not isinstance(verifier, Verifier) or verifier.name != name:
            raise TypeError(f"{module_name}.VERIFIER is not the Verifier named {name!r}")
        found[name] = verifier
    return found


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
        from sampler.store import STATUS_ERROR

        return Verdict(STATUS_ERROR, None, f"unknown verifier {task.verifier!r}")
    return judge_safely(verifier, task.gold, task.span)
