"""Spare leash's commands the pandas import that pyarrow makes only to look.

On its first conversion, pyarrow imports pandas (about 0.3 s, more than a whole
report of 3 million samples from shard summaries) just to learn whether pandas
objects may be passed to it. leash never passes any. ``skip_pandas_probe`` lets
that first check see pandas as absent; anything that explicitly asks for pandas
later (``Table.to_pandas``, ``Table.from_pandas``) imports it as usual.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec


class _HidePandas:
    """A meta-path finder under which ``import pandas`` fails."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("hidden from pyarrow's probe", name=name)
        return None  # type: ignore[return-value]  # not ours: the next finder decides


def skip_pandas_probe() -> None:
    """Let pyarrow's pandas check run now, with pandas hidden (no-op if already imported)."""
    if "pandas" in sys.modules:
        return
    import pyarrow as pa

    finder = _HidePandas()
    sys.meta_path.insert(0, finder)
    try:
        pa.array([0])  # pyarrow's first conversion runs its pandas check
    finally:
        sys.meta_path.remove(finder)
