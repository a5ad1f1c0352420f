"""The complete entries of a ZIP archive that was cut short.

A zip's directory is written last, so a copy that stopped early (a crashed run, an interrupted
download) cannot be opened by `zipfile` at all, though every entry before the cut is whole. Its
local headers still say where each entry's data lies: read them in order and stop at the first
entry that the cut reached. Entries written with a data descriptor (sizes after the data) end the
walk, since their size is not known in front.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Iterator

_LOCAL = b"PK\x03\x04"
_HEADER = struct.Struct("<4sHHHHHIIIHH")
_STORED, _DEFLATED, _ZSTD = 0, 8, 93
_DATA_DESCRIPTOR = 0x08
_ENCRYPTED = 0x01


@dataclass(frozen=True)
class Entry:
    name: str
    data: bytes | None
    error: str | None = None


def _inflate(method: int, raw: bytes, size: int) -> bytes:
    if method == _STORED:
        return raw
    if method == _DEFLATED:
        return zlib.decompressobj(-15).decompress(raw, size + 1)
    if method == _ZSTD:
        import zstandard  # a dependency of inspect-ai, whose logs use it

        return zstandard.ZstdDecompressor().decompressobj().decompress(raw)
    raise ValueError(f"compression method {method} is not supported")


def local_entries(data: bytes) -> Iterator[Entry]:
    """Each entry from the start whose bytes are all there, decompressed and checked against its
    CRC (a damaged one has `error` set); the walk ends at the cut or at the directory."""
    at = 0
    while data[at:at + 4] == _LOCAL and at + _HEADER.size <= len(data):
        _, _, flags, method, _, _, crc, csize, usize, nlen, elen = _HEADER.unpack_from(data, at)
        start = at + _HEADER.size + nlen + elen
        if flags & (_DATA_DESCRIPTOR | _ENCRYPTED) or start + csize > len(data):
            return
        name = data[at + _HEADER.size:at + _HEADER.size + nlen].decode("utf-8", "replace")
        try:
            body = _inflate(method, data[start:start + csize], usize)
            if len(body) != usize or zlib.crc32(body) != crc:
                raise ValueError("its size or CRC does not match the header")
            yield Entry(name, body)
        except Exception as exc:  # noqa: BLE001 - one damaged entry, the others still read
            yield Entry(name, None, f"{type(exc).__name__}: {exc}")
        at = start + csize
