"""The store is the only door to a results folder's Parquet: no other module imports
``pyarrow.parquet``, except readers of *input* files, which may read but never write."""

from __future__ import annotations

import ast

from tests.support.paths import REPO_ROOT

#: the store: the results-folder format, whole
STORE = "sampler/store/"
#: readers of input files in other tools' formats (benchmark files, an evaluation tool's
#: Parquet): they may read Parquet, never write it
INPUT_READERS = ("sampler/benchmarks/", "sampler/importers/formats/")
#: the pyarrow calls that write Parquet
WRITERS = ("write_table", "ParquetWriter", "write_to_dataset", "write_dataset", "write_metadata")


def parquet_imports(source: str) -> list[int]:
    """Lines of ``source`` that import pyarrow.parquet (any spelling), or load it by name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            if any(a.name == "pyarrow.parquet" or a.name.startswith("pyarrow.parquet.")
                   for a in node.names):  # fmt: skip
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.startswith("pyarrow.parquet") or (
                module == "pyarrow" and any(a.name == "parquet" for a in node.names)
            ):
                lines.append(node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value == "pyarrow.parquet":  # importlib.import_module("pyarrow.parquet")
                lines.append(node.lineno)
    return lines


def parquet_writes(source: str) -> list[int]:
    """Lines of ``source`` that call or name a Parquet writer (``pq.write_table``, ...)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in WRITERS:
            lines.append(node.lineno)
        elif isinstance(node, ast.Name) and node.id in WRITERS:
            lines.append(node.lineno)
    return lines


def modules() -> list[tuple[str, str]]:
    out = []
    for package in ("sampler", "leash_tui"):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            out.append((path.relative_to(REPO_ROOT).as_posix(), path.read_text(encoding="utf-8")))
    return out


def breaches(files: list[tuple[str, str]]) -> list[str]:
    """Every import of pyarrow.parquet outside the store and the input readers, and every
    Parquet write in an input reader, as ``path:line``."""
    found = []
    for name, source in files:
        if name.startswith(STORE):
            continue
        if name.startswith(INPUT_READERS):
            found += [f"{name}:{line} writes Parquet" for line in parquet_writes(source)]
            continue
        found += [f"{name}:{line} imports pyarrow.parquet" for line in parquet_imports(source)]
    return found


def test_no_module_outside_the_store_opens_the_folders_parquet():
    assert breaches(modules()) == []


def test_the_input_readers_are_still_there():
    """The exemption names real folders (a rename would make it exempt nothing)."""
    for folder in INPUT_READERS:
        assert (REPO_ROOT / folder).is_dir(), folder
    assert any(parquet_imports(s) for n, s in modules() if n.startswith(INPUT_READERS))


def test_the_check_bites():
    """Each spelling of the import is caught in a stage, and a write in an input reader."""
    spellings = [
        "import pyarrow.parquet as pq\n",
        "from pyarrow import parquet\n",
        "from pyarrow.parquet import ParquetFile\n",
        "def f():\n    import pyarrow.parquet\n",
        "import importlib\nimportlib.import_module('pyarrow.parquet')\n",
    ]
    for source in spellings:
        assert breaches([("sampler/verify/probe.py", source)]), source
        assert not breaches([("sampler/store/probe.py", source)]), source
    reader = "import pyarrow.parquet as pq\nt = pq.ParquetFile('x').read()\n"
    assert not breaches([("sampler/importers/formats/probe.py", reader)])
    writer = reader + "pq.write_table(t, 'y')\n"
    assert breaches([("sampler/importers/formats/probe.py", writer)]) == [
        "sampler/importers/formats/probe.py:3 writes Parquet"
    ]
    assert breaches([("sampler/benchmarks/probe.py", "w = pq.ParquetWriter\n")])
