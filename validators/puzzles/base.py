"""What every puzzle simulator provides, and the replay of one move list."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")


class ProblemError(ValueError):
    """A problem spec the simulator cannot use; the message is shown to users."""


class IllegalMove(ValueError):
    """A move the rules forbid (or one that cannot be read); `rule` is a stable snake_case id."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class Puzzle(Protocol[S]):
    name: str

    def initial(self) -> S: ...

    def apply(self, state: S, move: Any) -> S:
        """The state after `move`; raise IllegalMove when the move breaks a rule."""
        ...

    def is_goal(self, state: S) -> bool: ...

    def snapshot(self, state: S) -> Any:
        """A small JSON-able picture of the state for the explorer."""
        ...

    def describe(self, move: Any) -> str: ...


@dataclass
class MoveResult:
    index: int
    legal: bool
    rule: str | None = None
    message: str = ""
    state: Any = None


@dataclass
class ListReplay(Generic[S]):
    """Per-move verdicts up to and including the first illegal move (later ones are not judged:
    the state they would apply to does not exist)."""

    results: list[MoveResult] = field(default_factory=list)
    first_illegal: int | None = None
    solved: bool = False
    final: Any = None

    @property
    def legal_prefix(self) -> int:
        return len(self.results) if self.first_illegal is None else self.first_illegal


def simulate(puzzle: Puzzle, moves: list[Any]) -> ListReplay:
    state = puzzle.initial()
    out = ListReplay()
    for i, move in enumerate(moves):
        try:
            state = puzzle.apply(state, move)
        except IllegalMove as exc:
            out.results.append(MoveResult(i, False, exc.rule, f"{puzzle.describe(move)}: {exc.message}",
                                          puzzle.snapshot(state)))
            out.first_illegal = i
            out.final = puzzle.snapshot(state)
            return out
        out.results.append(MoveResult(i, True, None, puzzle.describe(move), puzzle.snapshot(state)))
    out.solved = puzzle.is_goal(state)
    out.final = puzzle.snapshot(state)
    return out


def as_int(value: Any, what: str) -> int:
    """Integers as JSON or text gives them ("2", 2); anything else is a malformed move."""
    if isinstance(value, bool):
        raise IllegalMove("malformed_move", f"{what} must be a whole number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise IllegalMove("malformed_move", f"{what} must be a whole number, got {value!r}")


def positive_int(problem: dict, key: str, limit: int) -> int:
    value = problem.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise ProblemError(f"problem.{key} must be a whole number from 1 to {limit}, got {value!r}")
    return value
