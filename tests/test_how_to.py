"""The how-to of docs/architecture.md names only files, symbols and README sections that exist.

The section "How to add …" tells a newcomer every file and test a change touches. A rename
would make it lie quietly, so each name it gives is checked: a path in backticks (it has a
slash) must exist in the repository; a name in backticks (an identifier, or dotted ones) must
be defined somewhere in the tree (a function, class, assignment, field or module), or be
Textual's; a README section named as README's "TITLE" must be a heading of README.md.
Backticked text with spaces or signs (a command line, ``markup=False``) is not a name.
"""

from __future__ import annotations

import ast
import re
from functools import cache

import pytest

from tests.support.paths import REPO_ROOT

DOC = REPO_ROOT / "docs" / "architecture.md"
PACKAGES = ("sampler", "leash_tui", "tests", "bench")
CODE = re.compile(r"`([^`]+)`")
PATH = re.compile(r"^[\w.][\w./-]*/[\w./-]*$")
NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
README_SECTION = re.compile(r"README's \"([^\"]+)\"")


def how_to() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## How to add")
    end = text.index("\n## ", start + 1)
    return text[start:end]


@cache
def defined_names() -> frozenset[str]:
    """Every name the tree defines: functions, classes, assigned and annotated names
    (fields included), and module and package names."""
    names: set[str] = set()
    for package in PACKAGES:
        for path in (REPO_ROOT / package).rglob("*.py"):
            names.add(path.stem)
            names.update(part for part in path.relative_to(REPO_ROOT).parts[:-1])
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Assign):
                    names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)
    return frozenset(names)


def textual_has(name: str) -> bool:
    """``App.notify`` and the like: a name of Textual's that the how-to mentions."""
    head, _, rest = name.partition(".")
    if head != "App" or not rest:
        return False
    from textual.app import App

    return hasattr(App, rest)


def missing(text: str) -> list[str]:
    """The paths, names and README sections ``text`` gives that do not exist."""
    found = []
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    headings = [line.lstrip("#").strip() for line in readme.splitlines() if line.startswith("#")]
    for section in (" ".join(s.split()) for s in README_SECTION.findall(text)):
        if not any(section in heading for heading in headings):
            found.append(f'README section "{section}"')
    for token in CODE.findall(text):
        if PATH.match(token):
            if not (REPO_ROOT / token).exists():
                found.append(f"path {token}")
        elif NAME.match(token):
            parts = token.split(".")
            if not (all(p in defined_names() for p in parts) or textual_has(token)):
                found.append(f"name {token}")
    return found


def test_every_file_symbol_and_section_of_the_how_to_exists():
    assert missing(how_to()) == []


def test_the_how_to_names_files_and_tests_for_each_kind():
    text = how_to()
    for kind in ("An importer", "A verifier", "A measure", "A report section", "A command"):
        assert f"**{kind}" in text
    for kind in ("A pane or screen", "A key of the explorer"):
        assert f"**{kind}" in text
    assert text.count("Tests:") >= 8  # every kind names its tests


@pytest.mark.parametrize(
    "text, expected",
    [
        ("`sampler/store/no_such_module.py`", ["path sampler/store/no_such_module.py"]),
        ("`NoSuchSymbolAnywhere`", ["name NoSuchSymbolAnywhere"]),
        ('README\'s "No Such Section"', ['README section "No Such Section"']),
        ("`ResultsFolder.open`, `sampler/store/folder.py`, `App.notify`, `--output`", []),
    ],
)
def test_the_check_catches_a_stale_name(text, expected):
    assert missing(text) == expected
