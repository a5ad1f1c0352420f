"""The maze task: grid, start, goal, walls; read from whichever form the record gives.

Accepted forms (record-format.md section 1): structured JSON (`width`, `height`, `start`,
`goal`, `walls`), a prompt string (SearchFormer tokens `start X Y goal X Y wall X Y ...` or
prose such as "3x3, start (0,0), goal (2,2), walls (0,1),(1,1)"), or a prompt embedded in the
trace (Beyond Semantics `query ...`). Conventions (reference-semantics.md section 0): x is the
column, y the row, 4-connected unit moves, h = Manhattan distance to the goal.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from core.cells import cell_of
from trace_parsers.astar_common import MazePrompt, parse_prompt_text

Cell = tuple[int, int]


@dataclass(frozen=True)
class MazeProblem:
    width: int
    height: int
    start: Cell
    goal: Cell
    walls: frozenset[Cell]

    def in_bounds(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def free(self, cell: Cell) -> bool:
        return self.in_bounds(cell) and cell not in self.walls

    def h(self, cell: Cell) -> int:
        return abs(cell[0] - self.goal[0]) + abs(cell[1] - self.goal[1])

    def walls_row_major(self) -> list[Cell]:
        return sorted(self.walls, key=lambda c: (c[1], c[0]))

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "start": list(self.start),
                "goal": list(self.goal), "walls": [list(c) for c in self.walls_row_major()]}

    def shortest_path_cells(self) -> int | None:
        """Number of cells on a shortest start-goal path (breadth-first search), None if unreachable."""
        if not (self.free(self.start) and self.free(self.goal)):
            return None
        dist = {self.start: 1}
        queue = deque([self.start])
        while queue:
            cell = queue.popleft()
            if cell == self.goal:
                return dist[cell]
            x, y = cell
            for nxt in ((x, y + 1), (x, y - 1), (x - 1, y), (x + 1, y)):
                if nxt not in dist and self.free(nxt):
                    dist[nxt] = dist[cell] + 1
                    queue.append(nxt)
        return None


@dataclass
class ProblemResolution:
    problem: MazeProblem | None
    source: str
    notes: list[str]
    error: str | None = None


def _size_of(spec: dict[str, Any]) -> tuple[int | None, int | None]:
    size = spec.get("size")
    if isinstance(size, int):
        return size, size
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return int(size[0]), int(size[1])
    w, h = spec.get("width"), spec.get("height")
    return (int(w) if isinstance(w, int) else None), (int(h) if isinstance(h, int) else None)


def _prompt_from_json(spec: dict[str, Any]) -> MazePrompt | None:
    start, goal = cell_of(spec.get("start")), cell_of(spec.get("goal"))
    if start is None or goal is None:
        return None
    raw = spec.get("walls") or []
    if raw and type(raw[0]) is tuple:
        return MazePrompt(start=start, goal=goal, walls=raw)  # already read by a parser
    try:
        walls = [(int(a), int(b)) for a, b in raw]
    except (TypeError, ValueError):
        walls = [c for c in (cell_of(w) for w in raw) if c is not None]
    return MazePrompt(start=start, goal=goal, walls=walls)


MAX_CELLS = 4_000_000


def resolve_problem(problem_spec: dict[str, Any], embedded: dict[str, Any] | None,
                    read_prompt: dict[str, Any] | None = None) -> ProblemResolution:
    """The record's problem (structured, then prompt string), else the prompt inside the trace.

    `read_prompt` is problem.prompt as the parser already read it (ParsedTrace.extras["problem_prompt"]).
    """
    notes: list[str] = []
    prompt: MazePrompt | None = None
    source = ""
    error: str | None = None
    if isinstance(problem_spec, dict) and problem_spec:
        prompt = _prompt_from_json(problem_spec)
        source = "problem (structured)"
        if prompt is None and read_prompt is not None:
            prompt, source = _prompt_from_json(read_prompt), "problem.prompt"
            if prompt is not None:
                prompt.width, prompt.height = read_prompt.get("width"), read_prompt.get("height")
        if prompt is None and isinstance(problem_spec.get("prompt"), str):
            prompt, error = parse_prompt_text(problem_spec["prompt"])
            source = "problem.prompt"
    embedded_prompt = _prompt_from_json(embedded) if embedded else None
    if prompt is None and embedded_prompt is not None:
        prompt, source, error = embedded_prompt, "prompt inside the trace", None
    elif prompt is not None and embedded_prompt is not None:
        if (prompt.start, prompt.goal, set(prompt.walls)) != (
                embedded_prompt.start, embedded_prompt.goal, set(embedded_prompt.walls)):
            notes.append("the trace embeds a prompt that differs from the record's problem; the record's problem was used")
    if prompt is None or prompt.start is None or prompt.goal is None:
        return ProblemResolution(None, source or "none", notes,
                                 error or "no maze given: need problem.prompt, structured start/goal/walls, or a 'query' prompt in the trace")
    width, height = _size_of(problem_spec if isinstance(problem_spec, dict) else {})
    width = width or prompt.width
    height = height or prompt.height
    if width is None or height is None:
        cells = [prompt.start, prompt.goal, *prompt.walls]
        side = max(max(c[0] for c in cells), max(c[1] for c in cells)) + 1
        width = width or side
        height = height or side
        notes.append(f"grid size {width}x{height} inferred from the largest coordinate in the prompt "
                     "(give problem.width/height to set it)")
    if width <= 0 or height <= 0 or width * height > MAX_CELLS:
        # A corrupt or hostile coordinate (c999999...) must not make the replay allocate a
        # grid of that size; the largest published mazes are 30x30.
        return ProblemResolution(None, source, notes,
                                 f"the maze would be {width}x{height} cells, outside what Stepscope replays "
                                 f"(1 to {MAX_CELLS:,} cells); check the coordinates in the prompt")
    problem = MazeProblem(width, height, prompt.start, prompt.goal, frozenset(prompt.walls))
    for name, cell in (("start", problem.start), ("goal", problem.goal)):
        if not problem.in_bounds(cell):
            error = f"the {name} {cell} is outside the {width}x{height} grid"
        elif cell in problem.walls:
            error = f"the {name} {cell} is a wall"
    return ProblemResolution(problem, source, notes, error)
