"""Line steps of a plan-shaped trace, shared by the `plan_text` and `pddl_plan` formats.

Each non-blank line is a step; block markers (`[PLAN]`, `[PLAN END]`, `### plan:`, `Round 3`)
split the trace into candidate plans (`extras["plan_blocks"]`), e.g. the rounds of an
LLM-Modulo generate/critique loop. Resolving lines to actions needs the problem, so it is done
by the planning validator (validators/planning/trace_plans.py).
"""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.steps import Step, StepGraph
from trace_parsers.base import ParsedTrace

PLANNING_DOMAINS = {"blocksworld", "mystery_blocksworld", "logistics", "pddl", "blocksworld_3",
                    "mystery_blocksworld_3", "blocksworld_hard"}
BLOCK_START = re.compile(r"^\s*(?:\[\s*(?:pddl\s+)?plan\s*\]|#+\s*plan\s*:|\**\s*round\s+\d+\b)", re.I)
BLOCK_END = re.compile(r"^\s*\[\s*(?:pddl\s+)?plan[\s_]*end\s*\]", re.I)
PDDL_LINE = re.compile(r"^\s*(?:\d+(?:\.\d+)?\s*[.:)]\s*)?\(\s*[A-Za-z][\w\-]*(?:\s+[^\s()]+)*\s*\)\s*(?:\[\d+\])?\s*$")


def nonblank_lines(text: str) -> list[tuple[int, int, str]]:
    out = []
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.strip():
            lead = len(body) - len(body.lstrip())
            out.append((pos + lead, pos + len(body.rstrip()), body.strip()))
        pos += len(line)
    return out


def nonblank_texts(text: str) -> list[str]:
    """The texts of `nonblank_lines`, for detectors that need no positions: a line's ending is
    white space, so stripping the line without its ending gives the same text."""
    return [t for line in text.splitlines() if (t := line.strip())]


def parse_plan_lines(record: TraceRecord, fmt: str) -> ParsedTrace:
    graph = StepGraph()
    blocks: list[list[int]] = [[]]
    lines = nonblank_lines(record.trace)
    marked = any(BLOCK_START.match(t) for _, _, t in lines)
    inside = not marked
    for start, end, text in lines:
        if BLOCK_START.match(text):
            kind, inside = "marker", True
            if blocks[-1]:
                blocks.append([])
        elif BLOCK_END.match(text):
            kind, inside = "marker", not marked
        else:
            kind = "plan_line" if inside else "text"
        idx = len(graph)
        graph.add(Step(idx, kind, (start, end), text, {}, parent=idx - 1 if idx else None))
        if kind == "plan_line":
            blocks[-1].append(idx)
    return ParsedTrace(format=fmt, graph=graph, extras={"plan_blocks": [b for b in blocks if b]})
