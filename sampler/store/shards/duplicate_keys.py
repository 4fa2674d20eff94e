"""A sample key is held once in a results folder: find one held twice, cheaply.

Every shard's statistics (its footer summary, or a scan) carry the smallest and
largest sample index of each (benchmark, question_id, model) group, and leash's
writers refuse a key repeated inside one shard (key_stats.sample_ranges). Across
shards a key can repeat only where two shards' ranges of one group overlap, so
only the shards holding such groups are read again, key columns only; usually
none are. Counting a folder where a key repeats (two imports of the same samples
committed at once by an older leash, a shard copied in twice) would count those
samples twice: it is refused instead, naming the key and both shards.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sampler.errors import LeashError
from sampler.store.shards.key_groups import GROUP_KEYS, Chunk, group_samples, read_chunk
from sampler.store.shards.key_stats import SampleStats

KEY_COLUMNS = (*GROUP_KEYS, "sample")
_LOWEST, _HIGHEST = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def duplicate_error(key: tuple[str, str, str, int], shards: Sequence[Path | str]) -> LeashError:
    """The one-line refusal for a sample key found twice (in ``shards``)."""
    benchmark, question_id, model, sample = key
    where = Path(shards[0])
    also = (
        f"also in {Path(shards[1]).name}"
        if len(shards) > 1 and Path(shards[1]) != where
        else "twice in this shard"
    )
    return LeashError(
        f"{where}: sample (benchmark={benchmark}, question_id={question_id}, model={model},"
        f" sample={sample}) is {also}; a folder holding a sample twice would count it twice,"
        " so it is not read: remove the shard that repeats samples"
    )


def overlapping_groups(parts: Sequence[SampleStats]) -> tuple[pa.Table, list[str]]:
    """Groups whose sample ranges overlap in two parts, and the shards holding them."""
    parts = [p for p in parts if p.groups]
    empty = pa.table({k: pa.array([], pa.string()) for k in GROUP_KEYS})
    if len(parts) < 2:
        return empty, []
    grouped = group_samples(pa.concat_tables([p.keys for p in parts]), GROUP_KEYS)
    codes = grouped.codes
    lows = np.concatenate(
        [p.sample_min if p.sample_min is not None else np.full(p.groups, _LOWEST) for p in parts]
    )
    highs = np.concatenate(
        [p.sample_max if p.sample_max is not None else np.full(p.groups, _HIGHEST) for p in parts]
    )
    if np.unique(codes).size == codes.size:
        return empty, []  # no group in two parts: the common case, decided here
    order = np.lexsort((lows, codes))
    c, lo, hi = codes[order], lows[order], highs[order]
    # sorted by start, ranges of a group are disjoint iff each ends before the next starts
    clash = (c[1:] == c[:-1]) & (lo[1:] <= hi[:-1])
    if not clash.any():
        return empty, []
    suspects = np.unique(c[1:][clash])
    owner = np.repeat(np.arange(len(parts)), [p.groups for p in parts])
    holders = np.unique(owner[np.isin(codes, suspects)])
    sources = sorted({str(parts[i].source) for i in holders if parts[i].source is not None})
    return grouped.keys.take(pa.array(suspects)), sources


def check_unique_samples(parts: Sequence[SampleStats]) -> None:
    """Raise LeashError when a sample key is held twice across ``parts`` (see module doc)."""
    suspects, sources = overlapping_groups(parts)
    if suspects.num_rows == 0:
        return
    pieces = []
    for index, source in enumerate(sources):
        path = Path(source)
        chunk = Chunk(path, tuple(range(_row_groups(path))))
        table = read_chunk(chunk, KEY_COLUMNS)
        plain = pa.table(
            {
                **{k: table.column(k).cast(pa.string()) for k in GROUP_KEYS},
                "sample": table.column("sample"),
            }
        )
        rows = plain.join(suspects, keys=list(GROUP_KEYS), join_type="inner")
        pieces.append(rows.append_column("shard", pa.array(np.full(rows.num_rows, index))))
    table = pa.concat_tables(pieces)
    counted = table.group_by(list(KEY_COLUMNS), use_threads=False).aggregate([("shard", "count")])
    repeated = counted.filter(pc.greater(counted.column("shard_count"), 1))
    if repeated.num_rows == 0:
        return  # ranges overlap (interleaved samples), keys do not
    first = repeated.slice(0, 1).to_pylist()[0]
    mask = pc.and_(
        pc.and_(
            pc.equal(table.column("benchmark"), first["benchmark"]),
            pc.equal(table.column("question_id"), first["question_id"]),
        ),
        pc.and_(
            pc.equal(table.column("model"), first["model"]),
            pc.equal(table.column("sample"), first["sample"]),
        ),
    )
    shards = [sources[i] for i in table.filter(mask).column("shard").to_pylist()]
    key = (first["benchmark"], first["question_id"], first["model"], int(first["sample"]))
    raise duplicate_error(key, shards)


def _row_groups(path: Path) -> int:
    try:
        return pq.ParquetFile(path).metadata.num_row_groups
    except (pa.ArrowException, OSError) as exc:
        raise LeashError(f"{path}: not a readable Parquet file ({exc})") from exc
