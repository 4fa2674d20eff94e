"""The two shapes an importer module takes, written down as ``typing.Protocol`` classes.

``leash import --from FORMAT`` finds the module of FORMAT in ``run_import.FORMATS`` and
hands it each ``MODEL=PATH`` source with the one ``ImportSession`` of the import:

* a ``HarnessFormat`` (qwen-eval, lighteval, lm-eval, NeMo-Skills...) is read file by file
  through the shared skeleton ``source_fields.read_harness_source``: it names the files it
  reads (``FILE_PATTERN``, ``FILES_ARE``), the task (benchmark) of a file, and reads one file;
* a ``SourceFormat`` (verl, TRL...) reads a whole source itself, because the source's
  layout says more than which files to read (verl's ``STEP.jsonl`` files are one model
  each, ``NAME@STEP``).

Either streams checked rows into the session (``add_sample``, ``note_question``); neither
writes anything: the session commits all or nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from sampler.importers.core import ImportSession


@runtime_checkable
class HarnessFormat(Protocol):
    """An evaluation output read one file at a time (see the module docstring)."""

    FILE_PATTERN: str
    FILES_ARE: str

    def task_of(self, path: Path) -> str | None:
        """The task (benchmark before naming) a file belongs to, None when the file does not say."""
        ...

    def read_file(
        self,
        session: ImportSession,
        model: str,
        path: Path,
        bench: str | None,
        task: str | None,
        source_metric: str | None,
    ) -> None:
        """Stream the samples of one file of ``model`` into ``session``."""
        ...


@runtime_checkable
class SourceFormat(Protocol):
    """A trainer's dump read as a whole source (see the module docstring)."""

    def read_source(
        self,
        session: ImportSession,
        model: str,
        path: Path,
        bench: str | None,
        source_metric: str | None,
    ) -> list[str]:
        """Stream every sample under ``path`` into ``session``; return the models read
        (``model`` itself, or ``model@STEP`` for a checkpoint series)."""
        ...
