"""Opening a side table of a results folder the way every folder file is opened.

A side table (``perplexity.parquet``, ``adaptive_stops.parquet``, ``token_detail/part-*``) may
sit in a folder someone else wrote: it is opened without following a link, only when it is a
regular file of a sane size (a FIFO would hang the reader, ``/dev/zero`` fill its memory), and
its directory must lie inside the folder (store.journals.safe_files).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from sampler.store.journals.safe_files import open_regular, within

#: The largest side table a reader opens.
MAX_SIDE_TABLE_BYTES = 16 * 1024**3


@contextmanager
def open_side_table(root: Path, path: Path) -> Iterator[BinaryIO]:
    """A binary handle on side table ``path`` of the folder at ``root`` (see the module)."""
    if path.parent != Path(root):
        within(Path(root), path.parent, "a side-table directory")
    with os.fdopen(open_regular(path, MAX_SIDE_TABLE_BYTES), "rb") as handle:
        yield handle
