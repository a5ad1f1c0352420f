"""Checker Jumping (reference-semantics.md §5): a 1-D board of 2n+1 cells.

Start `R..R _ B..B`, goal `B..B _ R..R`. A move is `[colour, from, to]` (0-based cells). A checker
slides into the adjacent empty cell or jumps over exactly one checker of the other colour into
the empty cell; red moves only rightwards, blue only leftwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from validators.puzzles.base import IllegalMove, as_int, positive_int

State = tuple[str, ...]
MAX_N = 50
_COLOURS = {"r": "R", "red": "R", "b": "B", "blue": "B"}


def colour_of(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in _COLOURS:
        return _COLOURS[value.strip().lower()]
    raise IllegalMove("malformed_move", f"the colour must be R (red) or B (blue), got {value!r}")


@dataclass(frozen=True)
class CheckerJumping:
    n: int
    name: str = "checker_jumping"

    @classmethod
    def from_problem(cls, problem: dict) -> "CheckerJumping":
        return cls(positive_int(problem, "n", MAX_N))

    def initial(self) -> State:
        return ("R",) * self.n + ("_",) + ("B",) * self.n

    def is_goal(self, state: State) -> bool:
        return state == ("B",) * self.n + ("_",) + ("R",) * self.n

    def snapshot(self, state: State) -> Any:
        return "".join(state)

    def describe(self, move: Any) -> str:
        if isinstance(move, (list, tuple)) and len(move) == 3:
            return f"move {move[0]} from {move[1]} to {move[2]}"
        return f"move {move!r}"

    def apply(self, state: State, move: Any) -> State:
        if not isinstance(move, (list, tuple)) or len(move) != 3:
            raise IllegalMove("malformed_move", "a move is [colour, from, to]")
        colour = colour_of(move[0])
        src, dst = as_int(move[1], "the start cell"), as_int(move[2], "the target cell")
        size = len(state)
        for cell in (src, dst):
            if not 0 <= cell < size:
                raise IllegalMove("position_out_of_range", f"cell {cell} is off the board (cells 0..{size - 1})")
        if state[src] != colour:
            found = "empty" if state[src] == "_" else f"holds {state[src]}"
            raise IllegalMove("wrong_checker", f"cell {src} {found}, not {colour}")
        if state[dst] != "_":
            raise IllegalMove("target_occupied", f"cell {dst} is occupied by {state[dst]}")
        step = dst - src
        if (colour == "R" and step < 0) or (colour == "B" and step > 0):
            raise IllegalMove("moves_backward", f"{'red moves right' if colour == 'R' else 'blue moves left'} only")
        if abs(step) > 2:
            raise IllegalMove("too_far", f"a checker moves 1 cell (slide) or 2 (jump), not {abs(step)}")
        if abs(step) == 2:
            middle = state[(src + dst) // 2]
            if middle == colour:
                raise IllegalMove("jump_over_own_colour", f"a checker only jumps over the other colour; cell "
                                  f"{(src + dst) // 2} holds {middle}")
        board = list(state)
        board[src], board[dst] = "_", colour
        return tuple(board)


def solution(n: int) -> list[list[Any]]:
    """A legal n(n+2)-move solution (found by depth-first search, for tests and examples)."""
    puzzle = CheckerJumping(n)
    path: list[list[Any]] = []

    def dfs(state: State) -> bool:
        if puzzle.is_goal(state):
            return True
        empty = state.index("_")
        for src in (empty - 2, empty - 1, empty + 1, empty + 2):
            if 0 <= src < len(state) and state[src] != "_":
                move = [state[src], src, empty]
                try:
                    nxt = puzzle.apply(state, move)
                except IllegalMove:
                    continue
                path.append(move)
                if dfs(nxt):
                    return True
                path.pop()
        return False

    dfs(puzzle.initial())
    return path
