"""What an Arrow IPC stream claims it decodes to, read from its messages before decoding.

Issue 33 item 7: the shard index holds lz4-compressed IPC streams, and a compressed
buffer carries the length it decodes to, so a 2.5 MB ``shard-index.arrow`` crafted as
an lz4 bomb raised ``leash report``'s peak from 108 MB to 702 MB. Here each record
batch's flatbuffer header (its row count, field nodes and buffers) and the first eight
bytes of each compressed buffer (the decoded length) are read, nothing decompressed,
and checked against the layout the stream's schema gives its rows: validity bitmaps,
offsets and fixed-width values at most what the rows need, each stream's rows and
all streams' decoded bytes (strings included) within the caller's budget. A stream that
claims more, or a layout this does not know (nested or dictionary types, which leash
never writes there), raises ValueError: the caller treats the file as damaged.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.ipc as ipc

#: slack a writer may add to a buffer (64-byte padding of Arrow allocations)
_PAD = 64


@dataclass
class Budget:
    """What streams may claim: rows per stream, and decoded bytes in all."""

    rows: int
    bytes: int


def _u16(buf: bytes, at: int) -> int:
    return struct.unpack_from("<H", buf, at)[0]


def _u32(buf: bytes, at: int) -> int:
    return struct.unpack_from("<I", buf, at)[0]


def _field(buf: bytes, table: int, index: int) -> int | None:
    """The position of field ``index`` of the flatbuffer table at ``table`` (None: absent)."""
    vtable = table - struct.unpack_from("<i", buf, table)[0]
    size = _u16(buf, vtable)
    slot = 4 + 2 * index
    if slot + 2 > size:
        return None
    offset = _u16(buf, vtable + slot)
    return table + offset if offset else None


def _structs(buf: bytes, at: int | None) -> list[tuple[int, int]]:
    """A flatbuffer vector of 16-byte structs of two int64 (FieldNode, Buffer)."""
    if at is None:
        return []
    vector = at + _u32(buf, at)
    count = _u32(buf, vector)
    return [struct.unpack_from("<qq", buf, vector + 4 + 16 * i) for i in range(count)]


@dataclass(frozen=True)
class BatchHeader:
    rows: int
    nodes: list[tuple[int, int]]
    buffers: list[tuple[int, int]]
    compressed: bool


def batch_header(message: ipc.Message) -> BatchHeader:
    """The row count, field nodes and body buffers of a record batch message."""
    buf = message.metadata.to_pybytes()
    root = _u32(buf, 0)
    header_at = _field(buf, root, 2)
    if header_at is None:
        raise ValueError("a record batch message without a header")
    header = header_at + _u32(buf, header_at)
    length_at = _field(buf, header, 0)
    rows = struct.unpack_from("<q", buf, length_at)[0] if length_at is not None else 0
    nodes = _structs(buf, _field(buf, header, 1))
    buffers = _structs(buf, _field(buf, header, 2))
    return BatchHeader(rows, nodes, buffers, _field(buf, header, 3) is not None)


def _decoded_length(body: pa.Buffer, offset: int, length: int, compressed: bool) -> int:
    if length == 0:
        return 0
    if offset < 0 or length < 0 or offset + length > body.size:
        raise ValueError("a buffer outside its message body")
    if not compressed:
        return length
    if length < 8:
        raise ValueError("a compressed buffer without its length")
    claimed = struct.unpack("<q", body.slice(offset, 8).to_pybytes())[0]
    return length - 8 if claimed == -1 else claimed


def _layout(kind: pa.DataType, rows: int) -> list[int | None]:
    """The most each buffer of a column of ``kind`` may decode to at ``rows`` rows (None:
    variable-width data, bounded by the budget)."""
    bits = (rows + 7) // 8
    if pa.types.is_null(kind):
        return []
    if pa.types.is_boolean(kind):
        return [bits, bits]
    if pa.types.is_string(kind) or pa.types.is_binary(kind):
        return [bits, (rows + 1) * 4, None]
    if pa.types.is_large_string(kind) or pa.types.is_large_binary(kind):
        return [bits, (rows + 1) * 8, None]
    if pa.types.is_dictionary(kind) or pa.types.is_nested(kind):
        raise ValueError(f"a column of type {kind} in a stream")
    try:
        width = kind.bit_width // 8
    except ValueError:
        raise ValueError(f"a column of type {kind} in a stream") from None
    return [bits, rows * width]


def check_batch(schema: pa.Schema, message: ipc.Message, budget: Budget) -> None:
    """Raise ValueError when the record batch ``message`` of a stream of ``schema`` claims
    more than its rows allow or ``budget`` has left (which it spends)."""
    header = batch_header(message)
    if header.rows < 0 or header.rows > budget.rows:
        raise ValueError(f"a batch of {header.rows} rows")
    if len(header.nodes) != len(schema):
        raise ValueError("a batch whose field nodes do not match its schema")
    bounds: list[int | None] = []
    for field, (length, _nulls) in zip(schema, header.nodes, strict=True):
        if length != header.rows:
            raise ValueError(f"column {field.name!r} of {length} rows in a batch of {header.rows}")
        bounds.extend(_layout(field.type, header.rows))
    if len(bounds) != len(header.buffers):
        raise ValueError("a batch whose buffers do not match its schema")
    body = message.body
    for bound, (offset, length) in zip(bounds, header.buffers, strict=True):
        decoded = _decoded_length(body, offset, length, header.compressed)
        if decoded < 0:
            raise ValueError("a buffer of negative length")
        if bound is not None and decoded > bound + _PAD:
            raise ValueError(f"a buffer of {decoded} bytes where {bound} fit")
        budget.bytes -= decoded
        if budget.bytes < 0:
            raise ValueError("streams that decode to more than the budget")


def check_stream(data: pa.Buffer, budget: Budget) -> None:
    """Raise ValueError unless every message of the IPC stream ``data`` is a schema or a
    record batch within ``budget``: its bytes are spent by what the stream claims, its
    rows bound this stream's batches together (each stream starts from them again)."""
    stream = Budget(budget.rows, budget.bytes)
    reader = ipc.MessageReader.open_stream(data)
    schema = None
    while (message := _next(reader)) is not None:
        if message.type == "schema":
            schema = ipc.read_schema(message)
        elif message.type == "record batch" and schema is not None:
            check_batch(schema, message, stream)
            stream.rows -= batch_header(message).rows
        else:
            raise ValueError(f"a {message.type} message in a stream")
    budget.bytes = stream.bytes


def _next(reader: ipc.MessageReader) -> ipc.Message | None:
    try:
        return reader.read_next_message()
    except StopIteration:
        return None


def check_uncompressed_file(data: pa.Buffer) -> None:
    """Raise ValueError unless every block the footer of the IPC file ``data`` names is an
    uncompressed record batch inside the file (as leash writes the index file: mapped, it
    then costs no more than its size), and it names no dictionary."""
    size = data.size
    magic = b"ARROW1"
    if size < 18 or data.slice(size - 6, 6).to_pybytes() != magic:
        raise ValueError("not an Arrow IPC file")
    length = struct.unpack("<i", data.slice(size - 10, 4).to_pybytes())[0]
    if length <= 0 or length > size - 18:
        raise ValueError("an Arrow IPC footer outside its file")
    footer = data.slice(size - 10 - length, length).to_pybytes()
    root = _u32(footer, 0)
    for field, kind in ((2, "dictionary"), (3, "record batch")):
        at = _field(footer, root, field)
        if at is None:
            continue
        vector = at + _u32(footer, at)
        for i in range(_u32(footer, vector)):
            offset, meta, body = struct.unpack_from("<qi4xq", footer, vector + 4 + 24 * i)
            if kind == "dictionary":
                raise ValueError("a dictionary in the index file")
            if offset < 0 or meta < 0 or body < 0 or offset + meta + body > size:
                raise ValueError("a record batch outside the index file")
            message = ipc.read_message(data.slice(offset, meta + body))
            if message.type != kind or batch_header(message).compressed:
                raise ValueError("a compressed record batch in the index file")
