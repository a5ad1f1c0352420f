"""The one registry of trace formats."""

from __future__ import annotations

from functools import lru_cache

from core.discovery import iter_plugin_modules
from core.record import TraceRecord
from core.verdicts import ParseError
from trace_parsers.base import FormatSpec, ParsedTrace

FALLBACK_FORMAT = "plain_text"


@lru_cache(maxsize=1)
def _formats() -> dict[str, FormatSpec]:
    found: dict[str, FormatSpec] = {}
    for module in iter_plugin_modules("trace_parsers"):
        spec = getattr(module, "FORMAT", None)
        if isinstance(spec, FormatSpec):
            if spec.name in found:
                raise RuntimeError(f"format {spec.name!r} registered twice")
            found[spec.name] = spec
    if FALLBACK_FORMAT not in found:
        raise RuntimeError("the plain-text fallback format is missing")
    return found


def list_formats() -> list[FormatSpec]:
    return sorted(_formats().values(), key=lambda s: s.name)


def get_format(name: str) -> FormatSpec | None:
    return _formats().get(name)


@lru_cache(maxsize=1)
def _detection_order() -> tuple[FormatSpec, ...]:
    """Detectors by priority, then name (ties in score go to the earlier one)."""
    return tuple(sorted((s for s in _formats().values() if s.name != FALLBACK_FORMAT),
                        key=lambda s: (-s.priority, s.name)))


def choose_format(record: TraceRecord) -> FormatSpec:
    """The record's own `format` hint wins when known; else the most confident detector."""
    formats = _formats()
    if record.format and record.format in formats:
        return formats[record.format]
    best, best_score = formats[FALLBACK_FORMAT], 0.0
    for spec in _detection_order():
        try:
            score = float(spec.detect(record))
        except Exception:  # a detector must never sink a record
            score = 0.0
        if score > best_score:
            best, best_score = spec, score
    return best


def parse_record(record: TraceRecord) -> ParsedTrace:
    """Parse with the chosen format; a crashing parser degrades to plain text plus an error."""
    spec = choose_format(record)
    try:
        return spec.parse(record)
    except Exception as exc:  # noqa: BLE001 - reported on the record, never raised past it
        fallback = _formats()[FALLBACK_FORMAT].parse(record)
        fallback.errors.insert(
            0, ParseError(f"{spec.name} parser failed ({type(exc).__name__}: {exc}); shown as plain text")
        )
        fallback.extras["failed_format"] = spec.name
        return fallback
