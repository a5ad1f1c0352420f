"""Reading uploaded or piped input into records, one input unit at a time, in bounded memory.

An input unit is a JSONL line, one element of a JSON document, or a whole text file. Each
unit keeps its raw bytes so it can be stored verbatim before anything else can fail.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import json
import re
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterator, Literal

from core.limits import current_limits
from core.record import RecordError, TraceRecord, record_from_json

InputFormat = Literal["auto", "jsonl", "json", "text", "parquet"]

_ID_PREFIX = re.compile(rb'"id"\s*:\s*"((?:[^"\\]|\\.){1,200})"')


@dataclass
class InputUnit:
    """One unit of input: its raw bytes and either a record or the reason it is not one."""

    line: int
    raw: bytes
    record: TraceRecord | None = None
    error: str | None = None
    raw_truncated: bool = False

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def guessed_id(self) -> str | None:
        """The record id of a broken line when its start is still readable (truncated JSON)."""
        if self.record is not None:
            return self.record.id
        match = _ID_PREFIX.search(self.raw[:4096])
        if match:
            try:
                return json.loads(b'"' + match.group(1) + b'"')
            except ValueError:
                return None
        return None


def chat_completion_to_record(obj: dict[str, Any]) -> dict[str, Any]:
    """OpenAI/litellm chat-completion response -> record (record-format §1, last paragraph)."""
    choice = (obj.get("choices") or [{}])[0] or {}
    message = choice.get("message") or choice.get("delta") or {}
    reasoning = message.get("reasoning_content") or message.get("reasoning") or ""
    if not reasoning and message.get("thinking_blocks"):
        reasoning = "\n\n".join(b.get("thinking", "") for b in message["thinking_blocks"] if isinstance(b, dict))
    meta = {"source": "chat_completion"}
    if obj.get("id"):
        meta["completion_id"] = obj["id"]
    if obj.get("usage"):
        meta["usage"] = obj["usage"]
    record = {
        "domain": obj.get("domain"),
        "trace": reasoning,
        "answer": message.get("content") or "",
        "model": obj.get("model"),
        "meta": meta,
    }
    for key in ("problem", "format"):
        if key in obj:
            record[key] = obj[key]
    return record


# Turns a decoded object of another layout into a record object, or returns it unchanged; raises
# RecordError with the reason. The layers above own the layouts (e.g. rewards/rollouts.py for RL
# rollout dumps): the intake knows none of them.
Converter = Callable[[Any], Any]


def object_to_record(obj: Any, default_domain: str | None = None, convert: Converter | None = None) -> TraceRecord:
    if convert is not None:
        obj = convert(obj)
    if isinstance(obj, dict) and "choices" in obj and "trace" not in obj:
        obj = chat_completion_to_record(obj)
    if isinstance(obj, dict) and default_domain and not obj.get("domain"):
        obj = {**obj, "domain": default_domain}
    return record_from_json(obj)


def _decode_line(raw: bytes, first: bool) -> str:
    if first and raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8 and upload it again"
        ) from None


def unit_from_json_bytes(line_no: int, raw: bytes, first: bool = False,
                         default_domain: str | None = None, convert: Converter | None = None) -> InputUnit:
    unit = InputUnit(line=line_no, raw=raw)
    try:
        text = _decode_line(raw, first)
        if "\x00" in text:
            raise RecordError("contains NUL bytes; this is binary data, not a JSON record")
        try:
            obj = json.loads(text)
        except RecursionError:
            raise RecordError("JSON nested too deeply to read") from None
        except json.JSONDecodeError as exc:
            where = f"column {exc.colno}" if exc.lineno == 1 else f"line {exc.lineno}, column {exc.colno}"
            body = text.rstrip()
            truncated = body[:1] in "{[" and body[-1:] not in "}]"
            hint = "; the record looks truncated" if truncated else ""
            raise RecordError(f"not valid JSON: {exc.msg} ({where}){hint}") from None
        unit.record = object_to_record(obj, default_domain, convert)
    except RecordError as exc:
        unit.error = str(exc)
    except Exception as exc:  # noqa: BLE001 - one bad unit never stops the rest
        unit.error = f"unreadable record: {type(exc).__name__}: {exc}"
    return unit


def _utf16_lines(stream: IO[bytes]) -> Iterator[bytes]:
    reader = io.TextIOWrapper(stream, encoding="utf-16", errors="replace", newline=None)
    for line in reader:
        yield line.rstrip("\r\n").encode("utf-8")


@dataclass
class RawLine:
    """One non-blank JSONL line before it is decoded: what the Ray engine ships from its readers
    to its workers, and what `iter_jsonl` decodes in place. `first` is the file's first line (a
    UTF-8 BOM may open it); `error` is set when the line is over the size limit, and `raw` then
    holds only its first 64 KiB."""

    line: int
    raw: bytes
    first: bool = False
    error: str | None = None


def iter_jsonl_lines(stream: IO[bytes], max_line_bytes: int | None = None) -> Iterator[RawLine]:
    """The non-blank lines of a JSONL stream (UTF-8, or UTF-16 with a BOM), numbered from 1;
    lines over the limit are reported, not loaded."""
    limit = max_line_bytes if max_line_bytes is not None else current_limits().max_line_bytes
    head = stream.peek(4)[:4] if hasattr(stream, "peek") else b""
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        for n, raw in enumerate(_utf16_lines(stream), start=1):
            if raw.strip():
                yield RawLine(n, raw)
        return
    line_no = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        line_no += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            total = len(raw)
            prefix = raw[: 1 << 16]
            while True:
                chunk = stream.readline(1 << 20)
                total += len(chunk)
                if not chunk or chunk.endswith(b"\n"):
                    break
            yield RawLine(line_no, prefix, line_no == 1,
                          error=(f"line is {total:,} bytes, over the limit of {limit:,} "
                                 "(STEPSCOPE_MAX_LINE_BYTES); its first 64 KiB are stored"))
            continue
        raw = raw.rstrip(b"\r\n")
        body = raw[len(codecs.BOM_UTF8):] if line_no == 1 and raw.startswith(codecs.BOM_UTF8) else raw
        if not body.strip():
            continue
        yield RawLine(line_no, raw, line_no == 1)


def unit_from_line(line: RawLine, default_domain: str | None = None, convert: Converter | None = None) -> InputUnit:
    """The input unit of one JSONL line: decoded and validated, or the reason it is not a record."""
    if line.error is not None:
        return InputUnit(line=line.line, raw=line.raw, raw_truncated=True, error=line.error)
    return unit_from_json_bytes(line.line, line.raw, line.first, default_domain, convert)


def iter_jsonl(stream: IO[bytes], default_domain: str | None = None,
               max_line_bytes: int | None = None, convert: Converter | None = None) -> Iterator[InputUnit]:
    """One unit per non-blank line; lines over the limit are reported, not loaded."""
    for line in iter_jsonl_lines(stream, max_line_bytes):
        yield unit_from_line(line, default_domain, convert)


# Columns of a table of records (Parquet input) that hold JSON objects: as JSON text (exact), or
# as Arrow structs, whose fields absent from a row read back as nulls and are dropped here.
_OBJECT_COLUMNS = ("problem", "meta")


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def line_from_columns(row_no: int, row: dict[str, Any]) -> RawLine:
    """One row of a table with the record columns (id, domain, format, problem, trace, answer,
    model, meta) as the JSONL line that holds the same record: null columns are left out, and
    `problem`/`meta` given as JSON text are decoded. Both engines read Parquet through this."""
    obj: dict[str, Any] = {}
    for key, value in row.items():
        if value is None:
            continue
        if key in _OBJECT_COLUMNS:
            if isinstance(value, str) and value.lstrip()[:1] == "{":
                try:
                    value = json.loads(value)
                except ValueError:
                    pass  # kept as text: the record reader says what is wrong with it
            else:
                value = _drop_nulls(value)
        obj[key] = value
    raw = json.dumps(obj, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")
    return RawLine(row_no, raw)


def iter_parquet_lines(source: Any, batch_rows: int = 2000) -> Iterator[RawLine]:
    """The rows of a Parquet file (a path or a seekable binary file) as JSONL lines, numbered
    from 1; a file that cannot be read (not Parquet, cut short) ends with one line saying so."""
    import pyarrow.parquet as pq

    n = 0
    try:
        for batch in pq.ParquetFile(source).iter_batches(batch_size=batch_rows):
            for row in batch.to_pylist():
                n += 1
                yield line_from_columns(n, row)
    except Exception as exc:  # noqa: BLE001 - say so, keep what was read
        yield RawLine(n + 1, b"", error=f"not a readable Parquet file: {type(exc).__name__}: {exc}")


def iter_parquet(source: Any, default_domain: str | None = None, convert: Converter | None = None
                 ) -> Iterator[InputUnit]:
    """One unit per row of a Parquet file with the record columns."""
    for line in iter_parquet_lines(source):
        yield unit_from_line(line, default_domain, convert)


def iter_json_document(data: bytes, default_domain: str | None = None, convert: Converter | None = None
                       ) -> Iterator[InputUnit]:
    """A single JSON object, or an array of them (each element becomes a unit)."""
    try:
        text = _decode_line(data, True) if not data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) \
            else data.decode("utf-16")
        doc = json.loads(text)
    except (RecordError, ValueError, RecursionError) as exc:
        yield InputUnit(line=1, raw=data[: 1 << 20], raw_truncated=len(data) > 1 << 20,
                        error=f"not a valid JSON document: {exc}")
        return
    items = doc if isinstance(doc, list) else [doc]
    for n, item in enumerate(items, start=1):
        raw = json.dumps(item, ensure_ascii=False).encode("utf-8")
        unit = InputUnit(line=n, raw=raw)
        try:
            unit.record = object_to_record(item, default_domain, convert)
        except RecordError as exc:
            unit.error = f"element {n}: {exc}"
        except Exception as exc:  # noqa: BLE001 - one bad element never stops the rest
            unit.error = f"element {n}: unreadable record: {type(exc).__name__}: {exc}"
        yield unit


def text_unit(data: bytes, domain: str, name: str = "", problem: dict | None = None) -> InputUnit:
    """A plain-text file is one trace of the chosen domain."""
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        text = data.decode("utf-8", errors="replace")
    obj = {"domain": domain, "trace": text, "answer": "", "problem": problem or {},
           "meta": {"source_file": name} if name else {}}
    unit = InputUnit(line=1, raw=data)
    try:
        unit.record = record_from_json(obj)
    except RecordError as exc:
        unit.error = str(exc)
    return unit


def guess_format(name: str, head: bytes) -> InputFormat:
    """By extension first, then by content: a JSON-looking first line means JSONL."""
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    if lower.endswith((".txt", ".md", ".log")):
        return "text"
    if lower.endswith(".parquet"):
        return "parquet"
    first = head.lstrip(codecs.BOM_UTF8).lstrip()
    if first.startswith(b"{"):
        line = first.split(b"\n", 1)[0]
        try:
            json.loads(line)
            return "jsonl"
        except ValueError:
            return "json"
    if first.startswith(b"["):
        return "json"
    return "jsonl"
