"""Fallback format: one step per paragraph, so any text can be stored and viewed."""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.steps import Step, StepGraph
from trace_parsers.base import FormatSpec, ParsedTrace

_PARAGRAPH = re.compile(r"\S(?:.*?)(?=\n[ \t]*\n|\Z)", re.S)


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each blank-line-separated paragraph, trailing whitespace trimmed."""
    spans = []
    for match in _PARAGRAPH.finditer(text):
        start, end = match.start(), match.end()
        while end > start and text[end - 1].isspace():
            end -= 1
        spans.append((start, end))
    return spans


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    steps = [
        Step(index=i, kind="text", span=span, text=text[span[0]:span[1]])
        for i, span in enumerate(paragraph_spans(text))
    ]
    return ParsedTrace(format="plain_text", graph=StepGraph.chain(steps))


FORMAT = FormatSpec(
    name="plain_text",
    description="Any text; one step per paragraph.",
    detect=lambda record: 0.01,
    parse=parse,
    priority=-100,
)
