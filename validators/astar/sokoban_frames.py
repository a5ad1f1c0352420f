"""The Sokoban state each stored step stands for: the domain's `step_state` hook, so the
explorer draws a level without re-simulating Sokoban itself.

Built from what the audit stored: each SearchFormer step's node (a state string, or worker and
boxes), the level in the replay notes (`notes.layout`); SearchFormer's own move function
(sokoban_core.move) fills in plan steps that give only the worker's cell."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from validators.astar.sokoban_core import Level, State, move, parse_state_string

Event = tuple[int, str, "str | None", "str | None"]  # (idx, kind, payload JSON, status)


@dataclass(frozen=True)
class SokobanFrame:
    """The state a Sokoban step stands for, in its level, and the worker's move into it (None:
    a node being expanded, or the first state)."""

    step: int
    kind: str
    level: Level
    state: State
    status: str | None
    came_from: tuple[int, int] | None


def sokoban_level(layout: dict[str, Any]) -> tuple[Level, State]:
    level = Level(int(layout["width"]), int(layout["height"]), frozenset(map(tuple, layout.get("walls") or ())),
                  frozenset(map(tuple, layout.get("docks") or ())))
    start = State(tuple(layout.get("worker") or (0, 0)), frozenset(map(tuple, layout.get("boxes") or ())))
    return level, start  # type: ignore[arg-type]


def _node(payload: dict[str, Any]) -> State | None:
    """The search node a create/close/plan step names: a state string, or worker and boxes."""
    if isinstance(payload.get("state"), str):
        found = parse_state_string(payload["state"])
        return found[1] if not isinstance(found, str) else None
    worker, boxes = payload.get("worker"), payload.get("boxes")
    if isinstance(worker, list) and len(worker) == 2 and isinstance(boxes, list):
        try:
            return State((int(worker[0]), int(worker[1])), frozenset((int(b[0]), int(b[1])) for b in boxes))
        except (TypeError, ValueError, IndexError):
            return None
    return None


def sokoban_frame(layout: dict[str, Any], events: Sequence[Event], selected: int) -> SokobanFrame | None:
    """The state after the selected step (or after the last step before it that names one).
    A created node came from the node last closed (A* expands one node at a time); a plan step
    from the plan step before it, or the start."""
    level, start = sokoban_level(layout)
    expanding: State | None = None
    plan_at: State | None = None
    frame: SokobanFrame | None = None
    for idx, kind, raw, status in events:
        if idx > selected:
            break
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {}
        if not isinstance(payload, dict):
            continue
        state = _node(payload)
        came: State | None = None
        if kind == "plan":
            came = plan_at
            if state is None and "x" in payload and "y" in payload:
                prev = plan_at or start
                x, y = int(payload["x"]), int(payload["y"])
                dx, dy = x - prev.worker[0], y - prev.worker[1]
                state = move(level, prev, dx, dy) if abs(dx) + abs(dy) == 1 else State((x, y), prev.boxes)
            plan_at = state or plan_at
        elif kind == "create":
            came = expanding
        elif kind == "close" and state is not None:
            expanding = state
        if state is not None:
            frame = SokobanFrame(idx, kind, level, state, status, came.worker if came is not None else None)
    return frame


def step_state(notes: dict[str, Any], events: Sequence[Event], selected: int) -> SokobanFrame | None:
    """The hook: the frame of the selected step, when the replay notes hold the level."""
    layout = notes.get("layout")
    if not isinstance(layout, dict):
        return None
    try:
        return sokoban_frame(layout, events, selected)
    except (KeyError, TypeError, ValueError):  # a layout stored by an older version, or damaged
        return None
