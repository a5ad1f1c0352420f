"""River Crossing, actors and agents (reference-semantics.md §5; prompt wording from
lcrosenbaum/illusion_of_thinking prompts/RiverCrossing_original.yaml).

n actors a_1..a_n and their agents A_1..A_n start on the left bank with the boat. A move is the
list of people in the boat; the boat alternates direction, cannot cross empty and holds at most
k. No actor may be with another agent unless their own agent is present: checked in the boat
and on both banks once the boat has landed. Goal: everyone on the right bank.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from validators.puzzles.base import IllegalMove, ProblemError, positive_int

MAX_PAIRS = 50
SOLVER_MAX_PAIRS = 8
_NAME = re.compile(r"^\s*([aA])\s*_?\s*(\d+)\s*$")
_WORD = re.compile(r"^\s*(actor|agent)\s*_?\s*(\d+)\s*$", re.I)


@dataclass(frozen=True)
class State:
    left: frozenset[str]
    boat_left: bool


def person(value: Any) -> str:
    """Canonical name: `a_3` (actor) or `A_3` (agent); "actor 3"/"agent_3" are accepted too."""
    if isinstance(value, str):
        if m := _NAME.match(value):
            return f"{m.group(1)}_{int(m.group(2))}"
        if m := _WORD.match(value):
            return f"{'a' if m.group(1).lower() == 'actor' else 'A'}_{int(m.group(2))}"
    raise IllegalMove("malformed_move", f"{value!r} is not a person (actors a_1, a_2, ...; agents A_1, A_2, ...)")


def unsafe(group: frozenset[str] | set[str]) -> str | None:
    """Why `group` breaks the rule, or None: an actor with a foreign agent and without their own."""
    agents = {p[2:] for p in group if p[0] == "A"}
    for p in sorted(group):
        if p[0] == "a":
            i = p[2:]
            if i not in agents and agents:
                other = sorted(agents)[0]
                return f"actor a_{i} is with agent A_{other} while agent A_{i} is absent"
    return None


@dataclass(frozen=True)
class RiverCrossing:
    pairs: int
    boat_capacity: int
    name: str = "river_crossing"

    @classmethod
    def from_problem(cls, problem: dict) -> "RiverCrossing":
        pairs = positive_int(problem, "pairs", MAX_PAIRS)
        cap = positive_int(problem, "boat_capacity", 2 * MAX_PAIRS)
        if cap < 1:
            raise ProblemError("problem.boat_capacity must be at least 1")
        return cls(pairs, cap)

    @property
    def people(self) -> frozenset[str]:
        return frozenset([f"a_{i}" for i in range(1, self.pairs + 1)] + [f"A_{i}" for i in range(1, self.pairs + 1)])

    def initial(self) -> State:
        return State(self.people, True)

    def is_goal(self, state: State) -> bool:
        return not state.left and not state.boat_left

    def snapshot(self, state: State) -> Any:
        key = (lambda p: (int(p[2:]), p[0] == "a"))
        return {"left": sorted(state.left, key=key), "right": sorted(self.people - state.left, key=key),
                "boat": "left" if state.boat_left else "right"}

    def describe(self, move: Any) -> str:
        if isinstance(move, (list, tuple)):
            return "boat with " + (", ".join(str(p).strip() for p in move) or "nobody")
        return f"move {move!r}"

    def apply(self, state: State, move: Any) -> State:
        if not isinstance(move, (list, tuple)):
            raise IllegalMove("malformed_move", "a move is the list of people in the boat")
        names = [person(p) for p in move]
        unknown = [p for p in names if p not in self.people]
        if unknown:
            raise IllegalMove("unknown_person", f"{unknown[0]} is not in this puzzle ({self.pairs} pairs)")
        if len(set(names)) != len(names):
            raise IllegalMove("duplicate_person", "someone is listed twice in the boat")
        if not names:
            raise IllegalMove("empty_boat", "the boat cannot cross empty")
        if len(names) > self.boat_capacity:
            raise IllegalMove("boat_over_capacity", f"{len(names)} people in a boat that holds {self.boat_capacity}")
        side = state.left if state.boat_left else self.people - state.left
        away = [p for p in names if p not in side]
        if away:
            bank = "left" if state.boat_left else "right"
            raise IllegalMove("not_on_boat_side", f"{away[0]} is not on the {bank} bank, where the boat is")
        boat = frozenset(names)
        if why := unsafe(boat):
            raise IllegalMove("unsafe_boat", f"in the boat: {why}")
        left = state.left - boat if state.boat_left else state.left | boat
        for bank, group in (("left", left), ("right", self.people - left)):
            if why := unsafe(group):
                raise IllegalMove("unsafe_bank", f"on the {bank} bank: {why}")
        return State(left, not state.boat_left)

    def solve(self) -> list[list[str]] | None:
        """A shortest solution, or None when there is none (breadth-first; up to 8 pairs)."""
        if self.pairs > SOLVER_MAX_PAIRS:
            raise ValueError(f"the solver handles at most {SOLVER_MAX_PAIRS} pairs")
        return _solve(self.pairs, self.boat_capacity)


@lru_cache(maxsize=64)
def _solve(pairs: int, cap: int) -> list[list[str]] | None:
    puzzle = RiverCrossing(pairs, cap)
    start = puzzle.initial()
    parent: dict[State, tuple[State, list[str]] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if puzzle.is_goal(state):
            path: list[list[str]] = []
            while parent[state] is not None:
                state, move = parent[state]  # type: ignore[misc]
                path.append(move)
            return path[::-1]
        side = sorted(state.left if state.boat_left else puzzle.people - state.left)
        for size in range(1, min(cap, len(side)) + 1):
            for group in combinations(side, size):
                try:
                    nxt = puzzle.apply(state, list(group))
                except IllegalMove:
                    continue
                if nxt not in parent:
                    parent[nxt] = (state, list(group))
                    queue.append(nxt)
    return None
