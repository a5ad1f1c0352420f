"""A trace that is a PDDL plan or a series of them: `(unstack b a)` lines, optionally numbered
or timed, with block markers. Detected only in planning domains and only when nearly every line
is a PDDL action line, so thinking text and A* token streams are never taken."""

from __future__ import annotations

from core.record import TraceRecord
from trace_parsers._plan_lines import BLOCK_END, BLOCK_START, PDDL_LINE, PLANNING_DOMAINS, nonblank_texts, \
    parse_plan_lines
from trace_parsers.base import FormatSpec, ParsedTrace


def detect(record: TraceRecord) -> float:
    if record.domain not in PLANNING_DOMAINS or not record.trace.strip():
        return 0.0
    lines = nonblank_texts(record.trace[:200_000])
    actions = sum(1 for t in lines if PDDL_LINE.match(t))
    if actions < 2:
        return 0.0
    markers = sum(1 for t in lines if BLOCK_START.match(t) or BLOCK_END.match(t))
    if actions >= 2 and actions + markers >= 0.9 * len(lines):
        return 0.9
    return 0.0


def parse(record: TraceRecord) -> ParsedTrace:
    return parse_plan_lines(record, "pddl_plan")


FORMAT = FormatSpec(
    name="pddl_plan",
    description="PDDL plan lines (one action per line), possibly several plans split by [PLAN] markers.",
    detect=detect,
    parse=parse,
    priority=10,
)
