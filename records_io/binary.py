"""Telling binary files from text before they are read as records.

Read line by line, 200 KB of random bytes named `.jsonl` became hundreds of malformed records,
and 50 KB named `.txt` one 47k-character trace: junk that stays in the corpus. A file whose head
is binary is refused whole instead, with the reason; a single binary line among JSON records is
still one malformed record (the rest of that file is fine).
"""

from __future__ import annotations

import codecs

SAMPLE_BYTES = 1 << 16
# Bytes that text does not hold: C0 controls but tab, newline, vertical tab, form feed, carriage
# return and escape (ANSI colours in logs), and DEL. Random bytes hold about 11% of them.
_CONTROL = frozenset(range(0x00, 0x09)) | frozenset(range(0x0E, 0x1B)) | frozenset(range(0x1C, 0x20)) | {0x7F}
MAX_CONTROL_SHARE = 0.05
_MAGIC = ((b"\x89PNG", "a PNG image"), (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive"),
          (b"\x1f\x8b", "a gzip archive"), (b"\x7fELF", "an executable"), (b"\xff\xd8\xff", "a JPEG image"),
          (b"GIF8", "a GIF image"), (b"PAR1", "a Parquet file"), (b"SQLite format 3", "an SQLite database"))


def _binary_chunk(chunk: bytes) -> bool:
    if not chunk:
        return False
    if b"\x00" in chunk:
        return True
    return sum(b in _CONTROL for b in chunk) / len(chunk) > MAX_CONTROL_SHARE


def _as_utf8(head: bytes) -> bytes:
    """UTF-16 text (with its BOM) holds NUL bytes; judge it by its characters instead."""
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return head.decode("utf-16", errors="replace").encode("utf-8")
    return head


def binary_reason(head: bytes, line_based: bool) -> str | None:
    """Why the file starting with `head` is binary, or None when it is text. `line_based`: a
    JSONL file, binary when most of its lines in the sample are (one bad line is its own record)."""
    head = head[:SAMPLE_BYTES]
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return f"it is {name}"
    text = _as_utf8(head)
    if line_based:
        lines = [ln for ln in text.split(b"\n") if ln.strip()]
        if len(head) == SAMPLE_BYTES and len(lines) > 1:
            lines = lines[:-1]  # cut by the sample
        bad = sum(_binary_chunk(ln) for ln in lines)
        if lines and bad * 2 > len(lines):
            return f"{bad:,} of its first {len(lines):,} lines are binary (NUL or control bytes)"
        return None
    if _binary_chunk(text):
        return "its first bytes hold NUL or control bytes that text does not"
    return None


def binary_message(name: str, reason: str) -> str:
    """The one message the upload page and the CLI give for a refused file."""
    return (f"{name}: binary data, not trace records ({reason}); nothing from it was stored. "
            "Upload a JSONL, JSON or text export instead.")
