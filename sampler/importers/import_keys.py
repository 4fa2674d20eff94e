"""Which samples an import holds, kept small: one 64-bit key and one location per sample.

A key packs (group id << SAMPLE_BITS) | sample, the group being (benchmark, question_id,
model); a location packs (file index << LINE_BITS) | line or row number. A duplicate is
found as soon as it is read, with one bit per sample index and group (a set above
``BITMAP_LIMIT``), and once the pass is over ``clashes_with`` finds the samples a results
folder already holds, reading only its key columns.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyarrow as pa

SAMPLE_BITS = 31  # sample indices are int32 >= 0
LINE_BITS = 40  # a location packs (file index << LINE_BITS) | line or row number
#: Sample indices below this are tracked in a per-question bitmap, larger ones in a set.
BITMAP_LIMIT = 1 << 20

GroupKey = tuple[str, str, str]  # (benchmark, question_id, model)
_KEY_COLUMNS = ["benchmark", "question_id", "model"]


class SampleKeys:
    """The keys and locations of an import's samples, in the order they were read."""

    def __init__(self) -> None:
        self._groups: dict[GroupKey, int] = {}
        self._group_keys: list[GroupKey] = []
        self._next_sample: dict[int, int] = {}
        self._seen_bits: dict[int, bytearray] = {}
        self._seen_large: dict[int, set[int]] = {}
        self._keys = array("q")
        self._locations = array("q")

    def add(self, group: GroupKey, sample: int, file_index: int, number: int) -> int | None:
        """Record a sample read at (file, line); the packed location of an earlier sample
        with the same key when it is a duplicate (then nothing is recorded), else None."""
        gid = self._group_id(group)
        key = (gid << SAMPLE_BITS) | sample
        if self._seen_before(gid, sample):
            first = int(np.flatnonzero(np.frombuffer(self._keys, dtype=np.int64) == key)[0])
            return int(self._locations[first])
        self._keys.append(key)
        self._locations.append((file_index << LINE_BITS) | number)
        if sample >= self._next_sample.get(gid, 0):
            self._next_sample[gid] = sample + 1
        return None

    def next_sample(self, group: GroupKey) -> int:
        """The next free sample index of a group in this import (0, 1, ...)."""
        return self._next_sample.get(self._group_id(group), 0)

    def describe(self, key: int) -> str:
        benchmark, question_id, model = self._group_keys[key >> SAMPLE_BITS]
        sample = key & ((1 << SAMPLE_BITS) - 1)
        return f"(benchmark={benchmark}, question_id={question_id}, model={model}, sample={sample})"

    def clashes_with(self, batches: Iterable[tuple[Path, pa.Table]]) -> tuple[int, int] | None:
        """(key, location) of the first sample read that the folder already holds, or None;
        ``batches``: (shard, table of its key columns and ``sample``, keys as strings), as
        ``ResultsFolder.iter_key_batches`` gives them."""
        keys = np.frombuffer(self._keys, dtype=np.int64)
        if keys.size == 0:
            return None
        groups = pa.table(
            {
                "benchmark": [k[0] for k in self._group_keys],
                "question_id": [k[1] for k in self._group_keys],
                "model": [k[2] for k in self._group_keys],
                "gid": pa.array(range(len(self._group_keys)), pa.int64()),
            }
        )
        wanted = np.unique(keys)
        clashes: list[np.ndarray] = []
        for _, table in batches:
            joined = table.join(groups, keys=_KEY_COLUMNS, join_type="inner")
            if joined.num_rows == 0:
                continue
            gid = joined.column("gid").to_numpy()
            sample = joined.column("sample").to_numpy().astype(np.int64)
            packed = (gid << SAMPLE_BITS) | sample
            hit = packed[np.isin(packed, wanted)]
            if hit.size:
                clashes.append(hit)
        if not clashes:
            return None
        position = int(np.argmax(np.isin(keys, np.concatenate(clashes))))
        return int(keys[position]), int(self._locations[position])

    def _seen_before(self, gid: int, sample: int) -> bool:
        """Mark ``sample`` of group ``gid`` as seen; True if it already was."""
        if sample >= BITMAP_LIMIT:
            large = self._seen_large.setdefault(gid, set())
            if sample in large:
                return True
            large.add(sample)
            return False
        bits = self._seen_bits.get(gid)
        if bits is None:
            bits = self._seen_bits[gid] = bytearray()
        byte, mask = sample >> 3, 1 << (sample & 7)
        if byte >= len(bits):
            bits.extend(bytes(max(byte + 1 - len(bits), len(bits))))
        if bits[byte] & mask:
            return True
        bits[byte] |= mask
        return False

    def _group_id(self, key: GroupKey) -> int:
        gid = self._groups.get(key)
        if gid is None:
            gid = self._groups[key] = len(self._group_keys)
            self._group_keys.append(key)
        return gid
