"""Fallback format: one step per paragraph, so any text can be stored and viewed."""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.steps import Step, StepGraph
from trace_parsers.base import FormatSpec, ParsedTrace

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_NON_SPACE = re.compile(r"\S")


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each blank-line-separated paragraph, trailing whitespace trimmed: from a
    non-space character to the next blank line after it. Found by two searches a paragraph, as
    a single pattern with a lazy run would try the blank-line test at every character."""
    spans = []
    found = _NON_SPACE.search(text)
    while found is not None:
        start = found.start()
        blank = _BLANK_LINE.search(text, start + 1)
        stop = end = blank.start() if blank else len(text)
        while end > start and text[end - 1].isspace():
            end -= 1
        spans.append((start, end))
        found = _NON_SPACE.search(text, stop)
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
