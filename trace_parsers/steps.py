"""Steps-list traces: a trace given as a list of step strings is read one step per element.

Step-labelled datasets (BIG-Bench Mistake, ProcessBench, PRM800K) label step i of a list, so
the list is never re-segmented: step i of the verdict is element i. The record renders a list
one JSON item per line (core/record.py), so each step's span is its line in `trace`; a record
rebuilt from stored text (no list beside it) is read back line by line the same way.
"""

from __future__ import annotations

import json

from core.record import TraceRecord
from records_io.step_rows import STEPS_FORMAT
from core.steps import Step, StepGraph
from core.verdicts import ParseError
from trace_parsers.base import FormatSpec, ParsedTrace


def _is_step_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(s, str) for s in value)


def _line_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for line in text.split("\n"):
        spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans


def _element(line: str) -> str | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    errors: list[ParseError] = []
    if not text:
        return ParsedTrace(format=STEPS_FORMAT, graph=StepGraph())
    spans = _line_spans(text)
    if _is_step_list(record.trace_data) and len(record.trace_data) == len(spans):
        elements = list(record.trace_data)
    else:
        elements = []
        for n, (a, b) in enumerate(spans):
            value = _element(text[a:b])
            if value is None:
                errors.append(ParseError("not a JSON string; the line is kept as the step's text", line=n + 1))
                value = text[a:b]
            elements.append(value)
    steps = [Step(index=i, kind="step", span=span, text=value) for i, (span, value) in enumerate(zip(spans, elements))]
    return ParsedTrace(format=STEPS_FORMAT, graph=StepGraph.chain(steps), errors=errors)


def detect(record: TraceRecord) -> float:
    """A list of step strings is surely this format; nothing else claims lists of plain strings."""
    return 0.8 if _is_step_list(record.trace_data) else 0.0


FORMAT = FormatSpec(
    name=STEPS_FORMAT,
    description="A list of step strings (BIG-Bench Mistake, ProcessBench, PRM800K); one step per element.",
    detect=detect,
    parse=parse,
)
