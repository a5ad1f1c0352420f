"""Trace formats: each module here that defines `FORMAT = FormatSpec(...)` is registered.

Parsers are pure functions from a record to a `ParsedTrace`; they never raise on bad text,
they report it as parse errors and keep every character reachable through a step.
"""

from trace_parsers.base import FormatSpec, ParsedTrace
from trace_parsers.registry import choose_format, get_format, list_formats, parse_record

__all__ = ["FormatSpec", "ParsedTrace", "choose_format", "get_format", "list_formats", "parse_record"]
