"""Sokoban rules as SearchFormer implements them, and its A* (for tests, traces and optima).

Source: reference-semantics.md section 1.6 (facebookresearch/searchformer `searchformer/sokoban.py`):
* cells: '#' wall, ' ' floor, '.' dock, '@' worker, '+' worker on dock, '$' box, '*' box on dock;
  a state string is the rows joined by '-';
* moves up/down/left/right change y-1 / y+1 / x-1 / x+1 (`Sokoban.move_*`): first a box in the
  moving direction is pushed if the cell behind it is floor or dock, then the worker steps if the
  target is floor or dock; a blocked move leaves the state unchanged;
* h (`Sokoban.heuristic`): 0 if no box is off a dock or no dock is free; infinite if a box off a
  dock is not movable (needs both horizontal or both vertical neighbours to be non-walls, inside
  the grid); else the sum over boxes off docks of the Manhattan distance to the nearest free dock;
* A* children in the order up, down, left, right, children of infinite cost dropped
  (`AStarSokobanState._get_children`); goal: no box off a dock.
The heuristic is not consistent (pushing a box off a dock can lower h by more than one), so
SearchFormer's A* may re-open closed states; the replay allows that when the new path is shorter.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
from dataclasses import dataclass

Cell = tuple[int, int]
DIRECTIONS: tuple[tuple[str, int, int], ...] = (("up", 0, -1), ("down", 0, 1), ("left", -1, 0), ("right", 1, 0))


@dataclass(frozen=True)
class Level:
    width: int
    height: int
    walls: frozenset[Cell]
    docks: frozenset[Cell]


@dataclass(frozen=True)
class State:
    worker: Cell
    boxes: frozenset[Cell]


def parse_rows(rows: list[str]) -> tuple[Level, State] | str:
    """Level and state from rows of cell characters; a message when they are not a level."""
    walls, docks, boxes = set(), set(), set()
    worker = None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                walls.add((x, y))
            elif ch in ".+*":
                docks.add((x, y))
            if ch in "@+":
                if worker is not None:
                    return "the level has more than one worker"
                worker = (x, y)
            if ch in "$*":
                boxes.add((x, y))
            if ch not in "# .@+$*":
                return f"unknown cell character {ch!r}"
    if worker is None:
        return "the level has no worker"
    width = max((len(r) for r in rows), default=0)
    return Level(width, len(rows), frozenset(walls), frozenset(docks)), State(worker, frozenset(boxes))


def parse_state_string(text: str) -> tuple[Level, State] | str:
    return parse_rows(text.split("-"))


def render(level: Level, state: State) -> str:
    rows = []
    for y in range(level.height):
        row = []
        for x in range(level.width):
            c = (x, y)
            if c in level.walls:
                row.append("#")
            elif c == state.worker:
                row.append("+" if c in level.docks else "@")
            elif c in state.boxes:
                row.append("*" if c in level.docks else "$")
            else:
                row.append("." if c in level.docks else " ")
        rows.append("".join(row))
    return "-".join(rows)


def _free(level: Level, state: State, c: Cell) -> bool:
    """Floor or dock: inside the grid, no wall, no box (the worker is never there when asked)."""
    return 0 <= c[0] < level.width and 0 <= c[1] < level.height and c not in level.walls and c not in state.boxes


def move(level: Level, state: State, dx: int, dy: int) -> State:
    """One SearchFormer move; a blocked move returns the same state."""
    wx, wy = state.worker
    boxes = state.boxes
    target = (wx + dx, wy + dy)
    if target in boxes:
        behind = (wx + 2 * dx, wy + 2 * dy)
        if _free(level, state, behind):
            boxes = (boxes - {target}) | {behind}
    if 0 <= target[0] < level.width and 0 <= target[1] < level.height and target not in level.walls \
            and target not in boxes:
        return State(target, boxes)
    return State(state.worker, boxes)


def _can_enter_by_box(level: Level, c: Cell) -> bool:
    return c not in level.walls


def heuristic(level: Level, state: State) -> float:
    unplaced = [b for b in state.boxes if b not in level.docks]
    free_docks = [d for d in level.docks if d not in state.boxes]
    if not unplaced or not free_docks:
        return 0
    for x, y in unplaced:
        horizontal = 0 < x < level.width - 1 and _can_enter_by_box(level, (x - 1, y)) and _can_enter_by_box(level, (x + 1, y))
        vertical = 0 < y < level.height - 1 and _can_enter_by_box(level, (x, y - 1)) and _can_enter_by_box(level, (x, y + 1))
        if not (horizontal or vertical):
            return math.inf
    return sum(min(abs(x - dx) + abs(y - dy) for dx, dy in free_docks) for x, y in unplaced)


def is_goal(level: Level, state: State) -> bool:
    return all(b in level.docks for b in state.boxes)


def children(level: Level, state: State) -> list[State]:
    """Distinct successor states of finite h, in the order up, down, left, right."""
    out = []
    for _name, dx, dy in DIRECTIONS:
        nxt = move(level, state, dx, dy)
        if nxt != state and math.isfinite(heuristic(level, nxt)):
            out.append(nxt)
    return out


def unplaced(level: Level, state: State) -> frozenset[Cell]:
    return frozenset(b for b in state.boxes if b not in level.docks)


@dataclass
class SokobanRun:
    ops: list[tuple[str, State, int, float]]
    plan: list[State]


def astar(level: Level, start: State, rng: random.Random | None = None, limit: int = 200_000) -> SokobanRun | None:
    """SearchFormer's A* on Sokoban (random ties and child order when `rng` is given)."""
    h0 = heuristic(level, start)
    ops: list[tuple[str, State, int, float]] = [("create", start, 0, h0)]
    open_g: dict[State, int] = {start: 0}
    closed_f: dict[State, float] = {}
    parent: dict[State, State | None] = {start: None}
    counter = itertools.count()
    heap = [(0 + h0, rng.random() if rng else next(counter), start, 0)]
    while heap and len(ops) < limit:
        f, _t, state, g = heapq.heappop(heap)
        if open_g.get(state) != g:
            continue
        del open_g[state]
        closed_f[state] = f
        ops.append(("close", state, g, f - g))
        if not math.isfinite(f):
            return None
        if is_goal(level, state):
            path = [state]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return SokobanRun(ops, path[::-1])
        kids = children(level, state)
        if rng is not None:
            rng.shuffle(kids)
        for child in kids:
            ch = heuristic(level, child)
            cf = g + 1 + ch
            og = open_g.get(child)
            if og is not None and og + ch <= cf:
                continue
            if child in closed_f and closed_f[child] <= cf:
                continue
            open_g[child] = g + 1
            parent[child] = state
            heapq.heappush(heap, (cf, rng.random() if rng else next(counter), child, g + 1))
            ops.append(("create", child, g + 1, ch))
    return None


def shortest_plan_moves(level: Level, start: State, limit: int = 300_000) -> int | None:
    """Fewest moves to the goal by breadth-first search (None: unsolvable or over the state limit)."""
    if is_goal(level, start):
        return 0
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier and len(seen) < limit:
        depth += 1
        nxt = []
        for state in frontier:
            for _n, dx, dy in DIRECTIONS:
                child = move(level, state, dx, dy)
                if child in seen:
                    continue
                if is_goal(level, child):
                    return depth
                seen.add(child)
                nxt.append(child)
        frontier = nxt
    return None


# --- generation (tests, demo data) ----------------------------------------------------------

def random_level(rng: random.Random, width: int = 7, height: int = 7, n_walls: int = 2,
                 n_boxes: int = 2) -> tuple[Level, State]:
    """A level drawn like SearchFormer's `generate_level`: boundary walls, interior walls, boxes two
    cells from the boundary, a worker and as many docks as boxes."""
    walls = {(x, y) for x in range(width) for y in range(height) if x in (0, width - 1) or y in (0, height - 1)}
    inner = [(x, y) for x in range(width) for y in range(height) if (x, y) not in walls]
    rng.shuffle(inner)
    walls |= set(inner[:n_walls])
    box_cells = [c for c in inner[n_walls:] if 2 <= c[0] < width - 2 and 2 <= c[1] < height - 2]
    boxes = set(box_cells[:n_boxes])
    rest = [c for c in inner[n_walls:] if c not in boxes]
    worker = rest[0]
    docks = set(rest[1:1 + n_boxes])
    return Level(width, height, frozenset(walls), frozenset(docks)), State(worker, frozenset(boxes))


def _sorted_cells(cells) -> list[Cell]:
    # WithBoxSokobanTokenizer sorts positions by the string "x-y".
    return sorted(cells, key=lambda c: f"{c[0]}-{c[1]}")


def prompt_tokens(level: Level, state: State) -> str:
    parts = [f"worker {state.worker[0]} {state.worker[1]}"]
    parts += [f"box {x} {y}" for x, y in _sorted_cells(unplaced(level, state))]
    parts += [f"dock {x} {y}" for x, y in _sorted_cells(d for d in level.docks if d not in state.boxes)]
    parts += [f"wall {x} {y}" for x, y in _sorted_cells(level.walls)]
    return " ".join(parts)


def step_tokens(level: Level, op: str, state: State, g: int, h: float) -> str:
    boxes = "".join(f" box {x} {y}" for x, y in _sorted_cells(unplaced(level, state)))
    return f"{op} worker {state.worker[0]} {state.worker[1]}{boxes} c{g} c{int(h)}"


def token_record(level: Level, start: State, run: SokobanRun) -> dict:
    """A record in SearchFormer's Sokoban token form (prompt in problem, bos ... eos trace)."""
    steps = " ".join(step_tokens(level, op, s, g, h) for op, s, g, h in run.ops)
    plan = " ".join(f"plan {s.worker[0]} {s.worker[1]}" for s in run.plan)
    return {"domain": "sokoban", "format": "searchformer", "problem": {"prompt": prompt_tokens(level, start)},
            "trace": f"bos {steps} {plan} eos", "answer": ""}


def json_record(level: Level, start: State, run: SokobanRun) -> dict:
    """A record in the JSON fixture form (full states as '-'-joined rows)."""
    items = [{"action": op, "state": render(level, s), "cost_from_start": g, "heuristic": h}
             for op, s, g, h in run.ops]
    items += [{"action": "plan", "state": render(level, s), "cost_from_start": 0, "heuristic": 0} for s in run.plan]
    rows = render(level, start).split("-")
    return {"domain": "sokoban", "format": "searchformer", "problem": {"rows": rows}, "trace": items,
            "answer": [render(level, s) for s in run.plan]}
