"""One input, whatever its source, as units: the path from bytes to records that `cli.py audit`
and the upload page share, so a file reads the same way in both (the same source detected, the
same conversion, the same refusal of binary data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterator

from records_io.binary import SAMPLE_BYTES, binary_message, binary_reason
from records_io.intake import InputUnit, guess_format, iter_json_document, iter_jsonl, iter_parquet, text_unit, unit_from_line
from sources.base import Options, Plan, Probe, SourceError
from sources.registry import plan_input

PROBE_BYTES = 1 << 20


def head(stream: IO[bytes], n: int) -> bytes:
    """The first `n` bytes without consuming them (a buffered stream's peek)."""
    return stream.peek(n)[:n] if hasattr(stream, "peek") else b""


def input_format(stream: IO[bytes], name: str, chosen: str = "auto") -> str:
    """jsonl, json, text, parquet or eval (an Inspect log archive): as chosen, else by the name's
    extension and the first bytes."""
    if chosen != "auto":
        return chosen
    if name.lower().endswith(".eval"):
        return "eval"
    return guess_format(name if name != "<stdin>" else "", head(stream, 4096))


def refusal(stream: IO[bytes], name: str, fmt: str) -> str | None:
    """The message for an input that is binary data: read as records it would be junk."""
    if fmt in ("parquet", "eval"):
        return None
    reason = binary_reason(head(stream, SAMPLE_BYTES), line_based=fmt == "jsonl")
    return binary_message(name, reason) if reason else None


def probe(stream: IO[bytes] | None, name: str, path: Path | None, fmt: str) -> Probe:
    """What source detection looks at: the first JSONL line (or JSON document, when it is short),
    a table's columns, the first bytes."""
    first = None
    columns: tuple[str, ...] = ()
    opening = head(stream, 4096) if stream is not None and fmt in ("jsonl", "json", "eval") else b""
    if fmt in ("jsonl", "json") and stream is not None:
        text = head(stream, PROBE_BYTES).lstrip(b"\xef\xbb\xbf").lstrip()
        try:
            first = json.loads(text.split(b"\n", 1)[0] if fmt == "jsonl" else text)
        except (ValueError, RecursionError):  # hostile nesting: intake reports the line, the probe sees no record
            first = None
        if isinstance(first, list):
            first = first[0] if first else None
    elif fmt in ("parquet", "dataset"):
        import pyarrow.parquet as pq

        from sources.hf_dataset import dataset_columns

        try:
            columns = tuple(dataset_columns(path) if fmt == "dataset" else pq.ParquetFile(stream).schema_arrow.names)
        except Exception:  # noqa: BLE001 - the reader reports what is wrong with the file
            columns = ()
        if stream is not None:
            stream.seek(0)
        first = dict.fromkeys(columns) if columns else None  # an unreadable table is no record
    return Probe(name, path, fmt, first, columns, opening.lstrip(b"\xef\xbb\xbf"), stream)


def read_units(stream: IO[bytes] | None, name: str, path: Path | None, fmt: str, options: Options,
               forced: str | None = None, default_domain: str | None = None) -> tuple[Plan, Iterator[InputUnit]]:
    """The plan for this input (which source, why) and its units, read lazily. Raises SourceError
    for an input the chosen source cannot read at all; one bad line is one error unit."""
    plan = plan_input(probe(stream, name, path, fmt), options, forced)
    domain = default_domain if default_domain is not None else options.domain
    if plan.lines is not None:
        return plan, (unit_from_line(line, domain, plan.convert) for line in plan.lines())
    if stream is None:
        raise SourceError(f"{name} is a folder or Arrow file: only --source hf_dataset reads it")
    if fmt == "eval":
        raise SourceError(f"{name} is an Inspect log archive (.eval): only --source inspect reads it")
    return plan, _units(stream, name, fmt, domain, plan)


def _units(stream: IO[bytes], name: str, fmt: str, domain: str | None, plan: Plan) -> Iterator[InputUnit]:
    if fmt == "jsonl":
        return iter_jsonl(stream, default_domain=domain, convert=plan.convert)
    if fmt == "parquet":
        return iter_parquet(stream, default_domain=domain, convert=plan.convert)  # seekable: the probe read its footer
    data = stream.read()
    if fmt == "json":
        return iter_json_document(data, default_domain=domain, convert=plan.convert)
    return iter([text_unit(data, domain or "freeform", name)])
