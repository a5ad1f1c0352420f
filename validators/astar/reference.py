"""Reference A* for mazes in both trace dialects, plus maze generation and record writing.

Written from the rules in reference-semantics.md, not from the authors' code:
* SearchFormer (section 1.3; facebookresearch/searchformer `searchformer/astar.py::astar`,
  `searchformer/maze.py::MazeSpec.neighborhood`): `create start` first; pop the minimum of
  (f, then y, then x) when deterministic, any minimum-f node otherwise; children in the order
  up (y+1), down (y-1), left, right (shuffled when nondeterministic); a child already open with
  f <= the new f, or closed with f <= the new f, is skipped; otherwise it is (re)created.
* Beyond Semantics (section 2.2; kstechly/beyond-semantics-maze-visualizer
  `solvers/astar.js::astar.solveSync`): no initial create, the first step closes the start;
  the first open node with strictly smallest f is closed (FIFO ties; an improved node keeps its
  queue position); neighbours (x,y-1), (x+1,y), (x,y+1), (x-1,y); closed cells are never
  reopened; a neighbour is created only when t = g+1 improves its g.

`generate_record` writes a full record-format dict (used by tests, demo data and benchmarks).
A `Run` holds the steps as tuples so faults can be seeded before the text is written
(validators/astar/faults.py).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any

from validators.astar.maze_problem import Cell, MazeProblem

SEARCHFORMER = "searchformer"
BEYOND_SEMANTICS = "beyond_semantics"
DIALECTS = (SEARCHFORMER, BEYOND_SEMANTICS)

# A step: ("create" | "close", x, y, g, h), or ("raw", text) for hand-made broken text.
Op = tuple


@dataclass
class Run:
    """One A* execution: its trace steps and the plan (start..goal cells)."""

    dialect: str
    ops: list[Op]
    plan: list[Cell]
    meta: dict[str, Any] = field(default_factory=dict)


class Unsolvable(Exception):
    """The goal cannot be reached from the start."""


def searchformer_astar(problem: MazeProblem, rng: random.Random | None = None) -> Run:
    """SearchFormer's A*; `rng` None = deterministic (f, y, x) order, else random ties and child order."""
    start, goal = problem.start, problem.goal
    gx, gy = goal
    width, height, walls = problem.width, problem.height, problem.walls
    ops: list[Op] = []
    h0 = abs(start[0] - gx) + abs(start[1] - gy)
    open_g: dict[Cell, int] = {start: 0}
    closed_g: dict[Cell, int] = {}
    parent: dict[Cell, Cell | None] = {start: None}
    heap: list[tuple] = [(h0, _tie(start, rng), start, 0)]
    ops.append(("create", start[0], start[1], 0, h0))
    cur = None
    while heap:
        f, _t, cell, g = heapq.heappop(heap)
        if open_g.get(cell) != g:
            continue  # a stale heap entry of a node that was re-created with a lower cost
        del open_g[cell]
        closed_g[cell] = g
        x, y = cell
        ops.append(("close", x, y, g, f - g))
        cur = cell
        if cell == goal:
            break
        children = [(x, y + 1), (x, y - 1), (x - 1, y), (x + 1, y)]
        if rng is not None:
            rng.shuffle(children)
        cg = g + 1
        for child in children:
            cx, cy = child
            if not (0 <= cx < width and 0 <= cy < height) or child in walls:
                continue
            og = open_g.get(child)
            if og is not None and og <= cg:
                continue
            clg = closed_g.get(child)
            if clg is not None and clg <= cg:
                continue
            ch = abs(cx - gx) + abs(cy - gy)
            open_g[child] = cg
            parent[child] = cell
            heapq.heappush(heap, (cg + ch, _tie(child, rng), child, cg))
            ops.append(("create", cx, cy, cg, ch))
    if cur != goal:
        raise Unsolvable(f"no path from {start} to {goal}")
    return Run(SEARCHFORMER, ops, _chain(parent, goal), {"deterministic": rng is None})


def _tie(cell: Cell, rng: random.Random | None) -> float:
    # SearchFormer's deterministic key after f is hash(GridPos) = x + 100000*y (GridPos.__hash__).
    return rng.random() if rng is not None else cell[0] + 100000 * cell[1]


def beyond_semantics_astar(problem: MazeProblem, rng: random.Random | None = None) -> Run:
    """The Beyond-Semantics generator's A*; `rng` None = FIFO ties (bit-exact order), else random ties."""
    start, goal = problem.start, problem.goal
    gx, gy = goal
    width, height, walls = problem.width, problem.height, problem.walls
    ops: list[Op] = []
    g_of: dict[Cell, int] = {start: 0}
    seq_of: dict[Cell, float] = {start: 0}
    in_open: set[Cell] = {start}
    closed: set[Cell] = set()
    parent: dict[Cell, Cell | None] = {start: None}
    h0 = abs(start[0] - gx) + abs(start[1] - gy)
    heap: list[tuple] = [(h0, 0, start, 0)]
    counter = 1
    cur = None
    while heap:
        f, _seq, cell, g = heapq.heappop(heap)
        if cell not in in_open or g_of[cell] != g:
            continue
        in_open.discard(cell)
        closed.add(cell)
        x, y = cell
        ops.append(("close", x, y, g, f - g))
        cur = cell
        if cell == goal:
            break
        t = g + 1
        for child in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            cx, cy = child
            if not (0 <= cx < width and 0 <= cy < height) or child in walls or child in closed:
                continue
            if t < g_of.get(child, 1 << 60):
                g_of[child] = t
                parent[child] = cell
                ch = abs(cx - gx) + abs(cy - gy)
                ops.append(("create", cx, cy, t, ch))
                if child not in in_open:
                    in_open.add(child)
                    seq_of[child] = counter if rng is None else rng.random()
                    counter += 1
                # An improved node keeps its place in the FIFO order (same sequence key).
                heapq.heappush(heap, (t + ch, seq_of[child], child, t))
    if cur != goal:
        raise Unsolvable(f"no path from {start} to {goal}")
    return Run(BEYOND_SEMANTICS, ops, _chain(parent, goal), {"deterministic": rng is None})


def _chain(parent: dict[Cell, Cell | None], goal: Cell) -> list[Cell]:
    path = [goal]
    node = parent[goal]
    while node is not None:
        path.append(node)
        node = parent[node]
    path.reverse()
    return path


def run_astar(problem: MazeProblem, dialect: str, rng: random.Random | None = None) -> Run:
    if dialect == SEARCHFORMER:
        return searchformer_astar(problem, rng)
    if dialect == BEYOND_SEMANTICS:
        return beyond_semantics_astar(problem, rng)
    raise ValueError(f"unknown dialect {dialect!r}")


# --- mazes --------------------------------------------------------------------------------

def random_maze(rng: random.Random, width: int, height: int, min_plan: int | None = None,
                attempts: int = 200) -> MazeProblem:
    """A SearchFormer-style maze: 30%-50% random walls, start/goal on free cells, solvable,
    plan of at least `min_plan` cells (default max(width, height), as MazeTraceDataset.generate)."""
    n = width * height
    need = max(width, height) if min_plan is None else min_plan
    for _ in range(attempts):
        cells = list(range(n))
        rng.shuffle(cells)
        n_walls = rng.randint(n // 10 * 3, n // 10 * 5)
        walls = frozenset((i % width, i // width) for i in cells[:n_walls])
        free = cells[n_walls:]
        for _ in range(20):
            a, b = rng.sample(free, 2)
            problem = MazeProblem(width, height, (a % width, a // width), (b % width, b // width), walls)
            length = problem.shortest_path_cells()
            if length is not None and length >= need:
                return problem
    raise Unsolvable(f"no {width}x{height} maze with a plan of {need} cells after {attempts} attempts")


# --- text ---------------------------------------------------------------------------------

def op_text(op: Op) -> str:
    if op[0] == "raw":
        return op[1]
    return f"{op[0]} {op[1]} {op[2]} c{op[3]} c{op[4]}"


def prompt_tokens(problem: MazeProblem) -> str:
    """`start X Y goal X Y wall X Y ...`, walls row-major (both dialects list them that way)."""
    parts = [f"start {problem.start[0]} {problem.start[1]}", f"goal {problem.goal[0]} {problem.goal[1]}"]
    parts.extend(f"wall {x} {y}" for x, y in problem.walls_row_major())
    return " ".join(parts)


def plan_text(plan: list[Cell]) -> str:
    return " ".join(f"plan {x} {y}" for x, y in plan)


def beyond_semantics_text(problem: MazeProblem, run: Run) -> str:
    """serializeExample's layout: query <prompt> reasoning <steps> solution <plan> end."""
    steps = " ".join(op_text(op) for op in run.ops)
    return f"query {prompt_tokens(problem)} reasoning {steps} solution {plan_text(run.plan)} end"


def searchformer_text(run: Run) -> str:
    """The decoder side of a SearchFormer sequence: bos <steps> <plan> eos."""
    return f"bos {' '.join(op_text(op) for op in run.ops)} {plan_text(run.plan)} eos"


def record_for(problem: MazeProblem, run: Run, record_id: str | None = None,
               meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A record-format dict for a run (answer left empty: the plan is read from the trace)."""
    rec: dict[str, Any] = {"domain": "maze", "format": run.dialect}
    if record_id is not None:
        rec["id"] = record_id
    if run.dialect == BEYOND_SEMANTICS:
        # The prompt is inside the trace; the size is given because a prompt alone only bounds it.
        rec["problem"] = {"width": problem.width, "height": problem.height}
        rec["trace"] = beyond_semantics_text(problem, run)
    else:
        rec["problem"] = {"prompt": prompt_tokens(problem), "width": problem.width, "height": problem.height}
        rec["trace"] = searchformer_text(run)
    rec["answer"] = ""
    rec["meta"] = {"source": "stepscope reference A*", "dialect": run.dialect, **run.meta, **(meta or {})}
    return rec


def generate_record(seed: int, width: int = 30, height: int = 30, dialect: str = BEYOND_SEMANTICS,
                    deterministic: bool = True, record_id: str | None = None) -> dict[str, Any]:
    """A full record for a freshly generated maze and its reference trace (valid by construction)."""
    rng = random.Random(seed)
    problem = random_maze(rng, width, height)
    run = run_astar(problem, dialect, None if deterministic else random.Random(seed + 1))
    rec = record_for(problem, run, record_id, {"seed": seed, "width": width, "height": height})
    rec["expected"] = {"answer_correct": True, "trace_valid": True}
    return rec


def first_step_offset(dialect: str) -> int:
    """Index of the first search step in the parsed step list of a `record_for` record."""
    return 1 if dialect == BEYOND_SEMANTICS else 0
