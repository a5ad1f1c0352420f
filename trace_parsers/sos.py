"""Stream-of-Search Countdown search logs (Gandhi et al. 2024), one event per line.

Grammar (reference-semantics.md §3.2; kanishkg/stream-of-search src/countdown_dfs.py::dfs,
src/countdown_bfs.py::bfs):

    Current State: <target>:[<n1>, ...], Operations: ['a+b=c', ...]
    Exploring Operation: <a><op><b>=<c>, Resulting Numbers: [...]
    Generated Node #0,1,0: <target>:[...] Operation: <a><op><b>=<c>
    Moving to Node #0,1
    <r>,<target> unequal: No Solution
    <r>,<target> equal: Goal Reached
    No solution found.

Line-shaped, so regexes (one pass, no grammar needed). The parser builds the tree shape --
"child" edges from the search node being explored, "backtrack" edges when the log moves back to
a node it had already visited or jumps to a node that is not a child of the current one -- and
leaves every judgement to validators/countdown/replay.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.record import TraceRecord
from core.steps import Step, StepGraph
from core.verdicts import ParseError
from trace_parsers.base import FormatSpec, ParsedTrace
from trace_parsers.lines import numbered_line_spans

NodeId = tuple[int, ...]

_NUMS = r"\[([^\]]*)\]"
_STATE = re.compile(r"Current State: (-?\d+):" + _NUMS + r",? Operations: \[(.*)\]\s*$")
_EXPLORE = re.compile(r"Exploring Operation: (.*?), Resulting Numbers: " + _NUMS + r"\s*$")
_GENERATED = re.compile(r"Generated Node #([\d,\s]+): (?:(-?\d+):)?" + _NUMS + r",? (?:from )?Operation: (.*?)\s*$")
_MOVE = re.compile(r"Moving to Node #([\d,\s]+?)\s*$")
_COMPARE = re.compile(r"(-?\d+),\s*(-?\d+) (unequal: No Solution|equal: Goal Reached)(.*)$")
_EXHAUSTED = re.compile(r"No solution found\.?\s*$")
_END_TOKEN = "<|endoftext|>"
_FIRST_LINE = re.compile(r"\s*Current State: -?\d+:\[[-\d,\s]*\],? Operations: \[")


def parse_numbers(text: str) -> list[int] | None:
    text = text.strip()
    if not text:
        return []
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        return None


def parse_node_id(text: str) -> NodeId | None:
    try:
        parts = tuple(int(p) for p in text.replace(" ", "").split(","))
    except ValueError:
        return None
    return parts if parts else None


_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def parse_op_list(text: str) -> list[str] | None:
    """The `Operations: [...]` list as op strings (spaces removed); None if it is not a list of ops."""
    text = text.strip()
    if not text:
        return []
    items = [a or b for a, b in _QUOTED.findall(text)]
    if not items:
        items = [p.strip() for p in text.split(",")]
    return [item.replace(" ", "") for item in items]


@dataclass
class _Shape:
    """Tree bookkeeping while reading: which step stands for which search node."""

    current: NodeId | None = None
    anchor: dict[NodeId, int] = field(default_factory=dict)
    visited: set[NodeId] = field(default_factory=set)


def _classify(line: str) -> tuple[str, dict]:
    """(kind, payload) of one line; kind "unparsed" when no rule matches."""
    line = line.replace(_END_TOKEN, "").strip()
    if not line:
        return "end_token", {}
    if m := _STATE.match(line):
        return "state", {"target": int(m.group(1)), "numbers": parse_numbers(m.group(2)),
                         "operations": parse_op_list(m.group(3))}
    if m := _EXPLORE.match(line):
        return "explore", {"operation": m.group(1).replace(" ", ""), "numbers": parse_numbers(m.group(2))}
    if m := _GENERATED.match(line):
        return "generate", {"node": parse_node_id(m.group(1)),
                            "target": int(m.group(2)) if m.group(2) is not None else None,
                            "numbers": parse_numbers(m.group(3)), "operation": m.group(4).replace(" ", "")}
    if m := _MOVE.match(line):
        return "move", {"node": parse_node_id(m.group(1))}
    if m := _COMPARE.match(line):
        kind = "goal" if m.group(3).startswith("equal") else "compare"
        payload = {"result": int(m.group(1)), "target": int(m.group(2))}
        if m.group(4).strip():
            payload["trailing"] = m.group(4).strip()
        return kind, payload
    if _EXHAUSTED.match(line):
        return "exhausted", {}
    return "unparsed", {}


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    graph = StepGraph()
    errors: list[ParseError] = []
    shape = _Shape()
    last_explore: int | None = None
    goal_step: int | None = None
    first_state: dict | None = None
    for lineno, (start, end) in numbered_line_spans(text):
        raw = text[start:end]
        kind, payload = _classify(raw)
        if kind == "end_token":
            continue
        idx = len(graph)
        payload["line"] = lineno
        step = Step(idx, kind, (start, end), raw, payload)
        if kind == "unparsed":
            errors.append(ParseError(f"not a Stream-of-Search log line: {raw[:120]!r}", lineno))
        edge = "next"
        if kind == "state":
            if first_state is None:
                first_state = payload
                shape.current = (0,)
                shape.anchor[(0,)] = idx
                shape.visited.add((0,))
            else:
                node = shape.current
                if node is not None and node not in shape.visited:
                    shape.visited.add(node)
                    if node in shape.anchor:
                        step.parent, edge = shape.anchor[node], "child"
                    shape.anchor[node] = idx
                if step.parent is None and idx > 0:
                    step.parent = idx - 1
        elif kind == "explore":
            last_explore = idx
            step.parent = _anchor(shape, idx)
            edge = "child"
        elif kind in ("generate", "compare", "goal"):
            step.parent = last_explore if last_explore is not None else _anchor(shape, idx)
            edge = "child"
            last_explore = None
            node = payload.get("node")
            if kind == "generate" and node is not None and node not in shape.anchor:
                shape.anchor[node] = idx
            if kind == "goal" and goal_step is None:
                goal_step = idx
        elif kind == "move":
            step.parent = _anchor(shape, idx)
            target = payload.get("node")
            back = target is not None and target in shape.visited
            jump = target is not None and shape.current is not None and target[:-1] != shape.current
            graph.add(step, edge_kind="next")
            if target is not None and target in shape.anchor and (back or jump):
                graph.link(idx, shape.anchor[target], "backtrack")
            shape.current = target
            continue
        else:
            step.parent = idx - 1 if idx > 0 else None
        if step.parent is not None and step.parent >= idx:
            step.parent = None
        graph.add(step, edge_kind=edge)
        if kind == "state" and idx > 0 and graph[idx - 1].kind == "move" and step.parent != idx - 1:
            graph.link(idx - 1, idx, "next")
    if first_state is None and text.strip():
        errors.append(ParseError("no 'Current State:' line: this is not a Stream-of-Search log", 1))
    extras = {
        "initial": first_state,
        "goal_step": goal_step,
    }
    return ParsedTrace(format="sos", graph=graph, errors=errors, extras=extras)


def _anchor(shape: _Shape, idx: int) -> int | None:
    node = shape.current
    if node is not None and node in shape.anchor:
        return shape.anchor[node]
    return idx - 1 if idx > 0 else None


def detect(record: TraceRecord) -> float:
    """Only a log whose first non-blank line is a SoS `Current State` line; nothing else."""
    head = record.trace.lstrip()[:2000]
    if not _FIRST_LINE.match(head):
        return 0.0
    return 0.95 if ("Exploring Operation:" in head or "\n" not in head.strip()) else 0.9


FORMAT = FormatSpec(
    name="sos",
    description="Stream-of-Search Countdown search log (Current State / Exploring Operation / Generated Node ...).",
    detect=detect,
    parse=parse,
    priority=10,
)
