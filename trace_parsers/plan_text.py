"""A trace made of plan blocks in words: the rounds of an LLM-Modulo loop, each a
[PLAN] ... [PLAN END] block of steps in the domain's wording, with short critique lines between.
Detected only in planning domains with at least one complete [PLAN] block and no long prose
lines (thinking traces are paragraphs), so R1-style thinking stays on the plain-text format."""

from __future__ import annotations

from core.record import TraceRecord
from trace_parsers._plan_lines import BLOCK_END, BLOCK_START, PLANNING_DOMAINS, nonblank_lines, parse_plan_lines
from trace_parsers.base import FormatSpec, ParsedTrace

_MAX_LINE = 300


def detect(record: TraceRecord) -> float:
    if record.domain not in PLANNING_DOMAINS or not record.trace.strip():
        return 0.0
    lines = [t for _, _, t in nonblank_lines(record.trace[:200_000])]
    starts = sum(1 for t in lines if BLOCK_START.match(t))
    ends = sum(1 for t in lines if BLOCK_END.match(t))
    if starts and ends and all(len(t) <= _MAX_LINE for t in lines):
        return 0.6
    return 0.0


def parse(record: TraceRecord) -> ParsedTrace:
    return parse_plan_lines(record, "plan_text")


FORMAT = FormatSpec(
    name="plan_text",
    description="Plans in a domain's words inside [PLAN] ... [PLAN END] blocks (e.g. LLM-Modulo rounds).",
    detect=detect,
    parse=parse,
    priority=5,
)
