"""``sampler.store`` is the one door: its names resolve, none is shadowed, the door is narrow."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import sampler.store as store
from sampler.store import ResultsFolder

#: the most public members ``ResultsFolder`` may offer (issue 31: the format's reads and
#: writes, nothing one consumer alone needs)
MAX_PUBLIC_MEMBERS = 30


def test_every_exported_name_resolves_to_its_definition():
    for name in store.__all__:
        value = getattr(store, name)
        module = importlib.import_module(f"sampler.store.{store._EXPORTS[name]}")
        assert value is getattr(module, name), name


def test_no_exported_name_is_also_a_submodule():
    """``from sampler.store import X`` where X is also a submodule would hand out the module
    once anything imported it (the import system sets the attribute)."""
    submodules = {info.name for info in pkgutil.iter_modules(store.__path__)}
    assert not submodules & set(store.__all__)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        store.no_such_name  # noqa: B018


def test_the_door_is_narrow(tmp_path):
    folder = ResultsFolder.create(tmp_path / "r")
    public = [m for m in dir(folder) if not m.startswith("_") and m != "root"]
    assert len(public) <= MAX_PUBLIC_MEMBERS, sorted(public)
    # the format's parts are there; one consumer's query is not
    for part in ("samples", "questions", "key_stats", "perplexity", "adaptive_stops", "locks"):
        assert part in public
    for query in ("agreement_samples", "first_success", "coverage_notes", "compact"):
        assert query not in public
