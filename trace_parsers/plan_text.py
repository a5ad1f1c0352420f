"""A trace made of plan blocks in words: the rounds of an LLM-Modulo loop, each a
[PLAN] ... [PLAN END] block of steps in the domain's wording, with short critique lines between.
Detected only in planning domains with at least one complete [PLAN] block and no long prose
lines (thinking traces are paragraphs), so R1-style thinking stays on the plain-text format."""

from __future__ import annotations

from core.record import TraceRecord
from trace_parsers._plan_lines import BLOCK_END, BLOCK_START, PLANNING_DOMAINS, nonblank_texts, parse_plan_lines
from trace_parsers.base import FormatSpec, ParsedTrace

_MAX_LINE = 300


def detect(record: TraceRecord) -> float:
    if record.domain not in PLANNING_DOMAINS or not record.trace.strip():
        return 0.0
    head = record.trace[:200_000]
    if "]" not in head:  # a block's end marker is bracketed
        return 0.0
    # a prose line is the common answer, found before any marker is matched
    if any(len(t) > _MAX_LINE for t in map(str.strip, head.splitlines())):
        return 0.0
    lines = nonblank_texts(head)
    starts = sum(1 for t in lines if BLOCK_START.match(t))
    ends = sum(1 for t in lines if BLOCK_END.match(t))
    return 0.6 if starts and ends else 0.0


def parse(record: TraceRecord) -> ParsedTrace:
    return parse_plan_lines(record, "plan_text")


FORMAT = FormatSpec(
    name="plan_text",
    description="Plans in a domain's words inside [PLAN] ... [PLAN END] blocks (e.g. LLM-Modulo rounds).",
    detect=detect,
    parse=parse,
    priority=5,
)
