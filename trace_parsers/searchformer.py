"""SearchFormer A* traces (maze and Sokoban): tokens `bos create ... close ... plan ... eos`,
or the JSON list form of SearchFormer's test fixtures.

Formats: reference-semantics.md sections 1.1 (maze tokens; facebookresearch/searchformer
`searchformer/maze.py::SimpleMazeTokenizer`), 1.6 (Sokoban tokens; `searchformer/sokoban.py::
WithBoxSokobanTokenizer`) and the fixtures `test/trace_maze*.json`, `test/trace_sokoban.json`
(items `{action, state, cost_from_start, heuristic}`). When the record held a list,
`record.trace` is one JSON item per line (core/record.py), so a step's span is its line.

extras read by validators/astar/maze.py and validators/astar/sokoban.py: `dialect` ("searchformer"),
`game` ("maze" or "sokoban"), `prompt` (a prompt found inside the trace, or None), `source`
("tokens" or "json").
"""

from __future__ import annotations

import json
import re

from core.cells import cell_of
from core.record import TraceRecord
from core.steps import Step, StepGraph
from core.verdicts import ParseError
from trace_parsers.astar_common import line_of, link_search_graph, parse_prompt_text, scan_tokens
from trace_parsers.sokoban_common import json_items_payload, number, scan_sokoban_tokens, state_string
from trace_parsers.base import FormatSpec, ParsedTrace

NAME = "searchformer"
_OP = re.compile(r"(?<!\S)(create|close)\s+(?:worker\s+)?-?\d+\s+-?\d+\s")
_BOS = re.compile(r"(?<!\S)(bos|eos)(?!\S)")
_WORKER = re.compile(r"(?<!\S)(create|close)\s+worker(?!\S)")


def _is_json_list(record: TraceRecord) -> bool:
    return isinstance(record.trace_data, list) or record.trace.lstrip().startswith("{")


def _is_sokoban(record: TraceRecord) -> bool:
    if record.domain == "sokoban":
        return True
    if record.domain == "maze":
        return False
    if _WORKER.search(record.trace[:20000]):
        return True
    data = record.trace_data
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) and isinstance(data[0].get("state"), str)


def detect(record: TraceRecord) -> float:
    if record.domain not in ("maze", "sokoban", "freeform"):
        return 0.0
    data = record.trace_data
    if isinstance(data, list) and data and isinstance(data[0], dict) and "action" in data[0]:
        return 0.9
    head = record.trace[:20000]
    if _BOS.search(head) or _WORKER.search(head):
        return 0.9
    first = _OP.search(head)
    if first is not None and first.group(1) == "create":
        return 0.6
    return 0.0


def _json_steps(record: TraceRecord, sokoban: bool) -> tuple[list[Step], list[ParseError]]:
    text = record.trace
    steps: list[Step] = []
    errors: list[ParseError] = []
    pos = 0
    for raw in text.split("\n"):
        lo, hi = pos, pos + len(raw)
        pos = hi + 1
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except ValueError as exc:
            item, problem = None, f"line is not JSON ({exc.msg})"
        else:
            problem = None
        payload: dict | None = None
        kind = "unparsed"
        if problem is None:
            got = json_items_payload(item)
            if isinstance(got, str):
                problem = got
            else:
                kind, data = got
                payload, problem = (_sokoban_payload if sokoban else _maze_payload)(kind, data)
        if problem is not None:
            kind, payload = "unparsed", {"error": problem}
            errors.append(ParseError(problem, line_of(text, lo)))
        steps.append(Step(len(steps), kind, (lo, hi), raw, payload or {}))
    return steps, errors


def _maze_payload(kind: str, item: dict) -> tuple[dict | None, str | None]:
    cell = cell_of(item.get("state"))
    if cell is None:
        return None, f"{kind} item has no cell state {{'x': X, 'y': Y}}"
    payload = {"x": cell[0], "y": cell[1]}
    return _with_costs(kind, item, payload)


def _with_costs(kind: str, item: dict, payload: dict) -> tuple[dict | None, str | None]:
    """Plan items carry a position only; create/close items also carry g and h."""
    if kind == "plan":
        return payload, None
    g, h = number(item.get("cost_from_start")), number(item.get("heuristic"))
    if g is None or h is None:
        return None, f"{kind} item needs numeric cost_from_start and heuristic"
    payload.update(g=g, h=h)
    return payload, None


def _sokoban_payload(kind: str, item: dict) -> tuple[dict | None, str | None]:
    state = state_string(item.get("state"))
    if state is None:
        return None, f"{kind} item has no Sokoban level state (rows of '# .@+$*')"
    payload: dict = {"state": state}
    return _with_costs(kind, item, payload)


def parse(record: TraceRecord) -> ParsedTrace:
    sokoban = _is_sokoban(record)
    extras: dict = {"dialect": NAME, "game": "sokoban" if sokoban else "maze", "prompt": None}
    if _is_json_list(record):
        steps, errors = _json_steps(record, sokoban)
        extras["source"] = "json"
    elif sokoban:
        steps, errors, prompt = scan_sokoban_tokens(record.trace)
        extras.update(source="tokens", prompt=prompt)
    else:
        scan = scan_tokens(record.trace)
        steps, errors = scan.steps, scan.errors
        extras.update(source="tokens", prompt=scan.prompt.to_json() if scan.prompt else None,
                      markers=sorted(scan.markers), ops=scan.ops)
    prompt_text = record.problem.get("prompt") if isinstance(record.problem, dict) else None
    if not sokoban and isinstance(prompt_text, str):
        read, problem = parse_prompt_text(prompt_text)
        if read is not None and problem is None:
            extras["problem_prompt"] = read.to_json()
    if sokoban:
        graph = _link_sokoban(steps)
    else:
        graph = link_search_graph(steps)
    return ParsedTrace(format=NAME, graph=graph, errors=errors, extras=extras)


def _link_sokoban(steps: list[Step]):
    """Sokoban states are not cells; link creates to the last close, closes in order."""
    kinds: list[str] = []
    last_close = prev = None
    for step in steps:
        edge = "next"
        if step.kind == "create" and last_close is not None:
            step.parent, edge = last_close, "child"
        elif step.kind == "close":
            step.parent = last_close if last_close is not None else prev
            last_close = step.index
        else:
            step.parent = prev
        kinds.append(edge)
        prev = step.index
    return StepGraph.from_parents(steps, kinds)


FORMAT = FormatSpec(
    name=NAME,
    description="SearchFormer A* trace (maze or Sokoban): bos create/close ... plan ... eos, or the JSON fixture list.",
    detect=detect,
    parse=parse,
    priority=10,
)
