"""Fixtures the sandbox tests share: ``budget`` runs a test once with a cgroup budget and once
without one (a normal user's machine), skipping where this machine cannot give that case."""

from __future__ import annotations

import pytest

from sampler.verify.verifiers import sandbox


@pytest.fixture(params=["cgroup", "single-process"])
def budget(request, monkeypatch):
    """Each test with a cgroup budget and without one (a normal user's machine)."""
    if request.param == "single-process":
        monkeypatch.setattr(sandbox, "budget_available", lambda: False)
        monkeypatch.setattr(sandbox, "make_budget", lambda *args: None)
        problem = sandbox._probe.__wrapped__(sandbox.BWRAP)
        if problem is not None:  # e.g. root drops to nobody, who cannot read the interpreter
            pytest.skip(f"no sandbox without a cgroup here: {problem}")
    elif not sandbox.budget_available():
        pytest.skip("no writable cgroup here (needs root or a delegated cgroup)")
    return request.param
