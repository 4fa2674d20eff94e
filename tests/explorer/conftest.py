"""What every explorer test shares: the report cache kept out of the user's home (autouse),
``fixture_folder``, the fixed small folder built once per test module, and ``theme``, each test
once in the default theme and once under NO_COLOR."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.explorer_helpers import isolated_cache, write_fixture  # noqa: F401 (autouse)


@pytest.fixture(scope="module")
def fixture_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixed small folder (seeded; same every run), shared by one module's tests."""
    return write_fixture(tmp_path_factory.mktemp("explorer-fixture"))


@pytest.fixture(params=["default", "no_color"])
def theme(request, monkeypatch) -> str:
    """The default dark theme, and NO_COLOR (Textual's monochrome conversion)."""
    if request.param == "no_color":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    return request.param
