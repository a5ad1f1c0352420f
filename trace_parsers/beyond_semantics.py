"""Beyond-Semantics maze traces: `query ... reasoning ... solution ... end` in one string.

Format: reference-semantics.md section 2.1 (kstechly/beyond-semantics-maze-visualizer,
`headless_gen/serializer.js::serializeExample`). The prompt, the A* trace and the plan share one
string; the parser splits them into a `prompt` step, `create`/`close` steps and `plan` steps.

extras read by validators/astar/maze.py: `dialect`, `prompt` (start/goal/walls found in the trace,
or None), `markers` (which section words were present).
"""

from __future__ import annotations

import re

from core.record import TraceRecord
from trace_parsers.astar_common import link_search_graph, scan_tokens
from trace_parsers.base import FormatSpec, ParsedTrace

NAME = "beyond_semantics"
_OP = re.compile(r"(?<!\S)(create|close)\s+-?\d+\s+-?\d+\s+c")
_SECTION = re.compile(r"(?<!\S)(reasoning|solution)(?!\S)")
_QUERY = re.compile(r"^\s*query\s+start(?!\S)")


def detect(record: TraceRecord) -> float:
    if record.domain not in ("maze", "freeform") or record.trace_data is not None:
        return 0.0
    head = record.trace[:20000]
    if _QUERY.match(head) or _SECTION.search(head):
        return 0.95
    first = _OP.search(head)
    if first is not None and first.group(1) == "close":
        return 0.6  # the Beyond-Semantics trace starts by closing the start, SearchFormer's by creating it
    return 0.0


def parse(record: TraceRecord) -> ParsedTrace:
    scan = scan_tokens(record.trace)
    graph = link_search_graph(scan.steps)
    return ParsedTrace(
        format=NAME,
        graph=graph,
        errors=scan.errors,
        extras={
            "dialect": NAME,
            "prompt": scan.prompt.to_json() if scan.prompt else None,
            "markers": sorted(scan.markers),
            "ops": scan.ops,
        },
    )


FORMAT = FormatSpec(
    name=NAME,
    description="Beyond-Semantics A* maze sequence: query (prompt) reasoning (create/close) solution (plan) end.",
    detect=detect,
    parse=parse,
    priority=10,
)
