"""Which maze records pose the same maze: the maze domain's problem identity hook.

A maze is its start, goal and set of walls (plus the size when given), however a record writes
it: a structured problem, a SearchFormer-token prompt (`start X Y goal X Y wall X Y ...`), or the
`query ...` prompt a Beyond-Semantics trace starts with. The text returned here is what
`metrics.problem_key.problem_hash` hashes for a maze, so it must not change once hashes are
stored (db/rows.py writes them; migration 8 fills them in)."""

from __future__ import annotations

import json
import re
from typing import Any

from core.cells import cell_of

_MAZE_TOKENS = re.compile(r"\b(start|goal|wall)\s+(-?\d+)\s+(-?\d+)")
_FIRST_SEARCH_STEP = re.compile(r"\b(create|close|plan|end)\b")
PROMPT_HEAD_CHARS = 200_000  # a prompt is a few hundred tokens; a hostile trace is not scanned whole


def _maze_from_tokens(text: str) -> dict[str, Any] | None:
    cells: dict[str, Any] = {"walls": set()}
    for kind, x, y in _MAZE_TOKENS.findall(text):
        if kind == "wall":
            cells["walls"].add((int(x), int(y)))
        else:
            cells.setdefault(kind, (int(x), int(y)))
    return cells if "start" in cells and "goal" in cells else None


def _prompt_in_trace(trace: str) -> str:
    head = trace.lstrip()[:PROMPT_HEAD_CHARS]
    if not head.startswith("query"):
        return ""
    end = _FIRST_SEARCH_STEP.search(head)
    return head[: end.start()] if end else head


def maze_identity(problem: dict[str, Any], trace: str) -> str | None:
    """The canonical text of the maze a record poses; None when no maze can be read from it
    (the generic JSON identity is used then)."""
    maze: dict[str, Any] | None = None
    start, goal = cell_of(problem.get("start")), cell_of(problem.get("goal"))
    if start is not None and goal is not None:
        walls = {c for c in (cell_of(w) for w in problem.get("walls") or []) if c is not None}
        maze = {"start": start, "goal": goal, "walls": walls}
    elif isinstance(problem.get("prompt"), str):
        maze = _maze_from_tokens(problem["prompt"])
    elif not problem:
        maze = _maze_from_tokens(_prompt_in_trace(trace))
    if maze is None:
        return None
    size = [problem.get(k) for k in ("width", "height", "size") if problem.get(k) is not None]
    return "maze:" + json.dumps({"start": list(maze["start"]), "goal": list(maze["goal"]),
                                 "walls": sorted(map(list, maze["walls"])), "size": size}, separators=(",", ":"))
