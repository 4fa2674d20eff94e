"""Tests build results folders one way (issue 20): through tests/support/folder_builders.py,
so that a change of the store's writer is adapted in one place."""

from __future__ import annotations

import re

from tests.support.paths import REPO_ROOT

#: creating a folder (its manifest and layout) outside the one builder
_CREATES = re.compile(r"\b(create_results|new_manifest)\(")


def test_only_the_folder_builder_creates_results_folders():
    tests = REPO_ROOT / "tests"
    builder = tests / "support" / "folder_builders.py"
    offenders = [
        str(path.relative_to(REPO_ROOT))
        for path in sorted(tests.rglob("*.py"))
        if path != builder and _CREATES.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
