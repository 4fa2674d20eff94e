"""The one shape every import format takes: ``read_source(source) -> models``.

``leash import --from FORMAT`` finds the module of FORMAT in ``format_table.FORMATS`` and
hands it each ``MODEL=PATH`` source as one ``SourceRead``: the import's ``ImportSession``,
the model, the path and the options that apply to every format (``--bench``,
``--source-metric``). A format module (``ImportFormat``) holds only what is its own: where
its files are and how one record reads. What formats share is elsewhere:

* ``source_fields.HarnessFiles`` is the ``read_source`` of an evaluation output read file by
  file (qwen-eval, lighteval, lm-eval, NeMo-Skills...): the module names the files it reads,
  the task (benchmark) of a file and how one file is read;
* ``record_file.RecordFile`` reads one file record by record: errors name the record, a bad
  record is skipped and counted under ``--skip-bad-records``, and what a record stages
  (samples, questions) reaches the session only once the whole record has been read.

A module that reads a trainer's checkpoint series (models ``MODEL@STEP``) sets ``SERIES =
True``: a new folder's base is then ``MODEL@0`` unless ``--base`` names one. Either way the
module streams checked rows into the session; nothing writes: the session commits all or
nothing. ``jsonl`` (interchange JSONL, whose lines name their models) is the one format
read outside this shape.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, runtime_checkable

from sampler.importers.core import ImportSession


@dataclass(frozen=True)
class SourceRead:
    """One ``MODEL=PATH`` source of an import, as a format reads it."""

    session: ImportSession
    model: str
    path: Path
    bench: str | None = None
    source_metric: str | None = None

    def as_model(self, model: str) -> SourceRead:
        """The same source read as another model (``MODEL@STEP`` of a checkpoint series)."""
        return replace(self, model=model)

    def refuse_source_metric(self, fmt: str, why: str) -> None:
        """Refuse ``--source-metric`` for a format whose verdict is fixed (``why``)."""
        from sampler.errors import LeashError

        if self.source_metric is not None:
            raise LeashError(f"--source-metric does not apply to --from {fmt} ({why})")


@runtime_checkable
class ImportFormat(Protocol):
    """An import format: reads every sample of one source (see the module docstring)."""

    def read_source(self, source: SourceRead) -> list[str]:
        """Stream every sample under ``source.path`` into ``source.session``; return the
        models read (``source.model`` itself, or ``MODEL@STEP`` for a checkpoint series)."""
        ...
