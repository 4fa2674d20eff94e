"""The question list's column filters and its remembered view (sort and filters) per folder.

A search of the form ``COLUMN:TEXT`` keeps the rows whose column holds TEXT (``benchmark:alg``,
``id:12``, ``cat:S``, ``tag:real``, ``problem:triangle``), and ``COLUMN OP NUMBER`` compares
a numeric column (``base>=2``, ``target<1``, ``p<0.05``; ``base`` and ``target`` are the
successes c of c/n, OP one of < <= > >= =). Several are joined with spaces and all must hold;
anything else searches problem text and ids as before.

The last sort and filters of each folder are saved in the user's cache folder
(``LEASH_CACHE_DIR``, else ``$XDG_CACHE_HOME/leash`` or ``~/.cache/leash``), under
``explorer-views/`` in one JSON file per folder, written atomically; the next explorer of
that folder opens with them. A file that cannot be read is ignored (the defaults apply).
"""

from __future__ import annotations

import hashlib
import json
import operator
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from leash_tui.explorer.model.pair_view import SUPPORT_ORDER
from sampler.store import TAGS, atomic_text_writer

#: Columns a text filter reads, and the numeric ones a comparison reads.
TEXT_COLUMNS = ("benchmark", "id", "cat", "tag", "problem")
NUMBER_COLUMNS = ("base", "target", "p")
_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "=": operator.eq}
_TERM = re.compile(
    rf"^(?P<column>{'|'.join(TEXT_COLUMNS + NUMBER_COLUMNS)})"
    r"(?:(?P<op><=|>=|<|>|=)(?P<number>-?\d+(?:\.\d*)?(?:e-?\d+)?)|:(?P<text>.+))$",
    re.IGNORECASE,
)
VIEW_VERSION = 1


@dataclass(frozen=True)
class ColumnFilter:
    """One ``COLUMN:TEXT`` or ``COLUMN OP NUMBER`` term."""

    column: str
    text: str | None = None
    op: str | None = None
    number: float | None = None

    def holds(self, value: Any) -> bool:
        if self.text is not None:
            return self.text.lower() in str(value or "").lower()
        if value is None or self.op is None or self.number is None:
            return False
        return bool(_OPS[self.op](float(value), self.number))


def parse_column_filters(search: str) -> list[ColumnFilter] | None:
    """The column filters ``search`` is made of, or None when it is a plain text search
    (some word is not a column term)."""
    words = search.split()
    if not words:
        return None
    out = []
    for word in words:
        match = _TERM.match(word)
        if match is None:
            return None
        column = match["column"].lower()
        if match["text"] is not None:
            if column not in TEXT_COLUMNS:
                return None
            out.append(ColumnFilter(column, text=match["text"]))
        else:
            if column not in NUMBER_COLUMNS:
                return None
            out.append(ColumnFilter(column, op=match["op"], number=float(match["number"])))
    return out


def column_values(pair: Any, tags: np.ndarray, column: str) -> list[Any]:
    """One column of the question list (``pair``: a PairView; ``tags``: its tag codes,
    -1 untagged), one value a row, as the filters compare it."""
    table = pair.table
    if column == "benchmark":
        return table.column("benchmark").cast(pa.string()).to_pylist()
    if column == "id":
        return table.column("question_id").cast(pa.string()).to_pylist()
    if column == "problem":
        return pair.problem.to_pylist()
    if column == "cat":
        letters = {code: letter for letter, code in SUPPORT_ORDER.items()}
        return [letters.get(int(c), "") for c in pair.category]
    if column == "tag":
        names = list(TAGS)
        return [TAGS[names[t]][0] if t >= 0 else "" for t in tags]
    if column == "base":
        return pair.c_base.tolist()
    if column == "target":
        return pair.c_target.tolist()
    return [None if np.isnan(v) else float(v) for v in pair.fisher_p]


def column_mask(pair: Any, tags: np.ndarray, term: ColumnFilter) -> np.ndarray:
    """Which rows of ``pair`` the term keeps."""
    values = column_values(pair, tags, term.column)
    return np.fromiter((term.holds(v) for v in values), bool, len(values))


def views_dir() -> Path:
    override = os.environ.get("LEASH_CACHE_DIR")
    if override:
        return Path(override) / "explorer-views"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "leash" / "explorer-views"


def view_path(root: Path) -> Path:
    name = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:32]
    return views_dir() / f"{name}.json"


def load_view(root: Path) -> dict[str, Any]:
    """The saved sort and filters of the folder at ``root`` ({} when none or unreadable)."""
    try:
        payload = json.loads(view_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(payload, dict) or payload.get("version") != VIEW_VERSION:
        return {}
    if payload.get("folder") != str(Path(root).resolve()):
        return {}  # a hash collision, or a copied cache
    return payload


def save_view(root: Path, view: dict[str, Any]) -> None:
    """Save the folder's sort and filters (atomically; a cache that cannot be written is
    not an error: the explorer works on, it only forgets)."""
    payload = {"version": VIEW_VERSION, "folder": str(Path(root).resolve()), **view}
    try:
        view_path(root).parent.mkdir(parents=True, exist_ok=True)
        with atomic_text_writer(view_path(root)) as handle:
            json.dump(payload, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    except OSError:
        return
