"""Puzzles of "The Illusion of Thinking" (Shojaee et al. 2025): the `hanoi`, `checker_jumping`
and `river_crossing` domains.

What is checked: every move list in the trace and the answer, move by move, on pure simulators of
the paper's rules (reference-semantics.md §5). The lists are found by the parsers' shared
extractor (trace_parsers/move_extract.py, re-exported here).

Public API: `make_puzzle(domain, problem)`, `simulate(puzzle, moves)`, `extract_move_lists(text,
domain)` and the puzzle classes; `replay.py` replays a record, `domains.py` registers the domains.
"""

from validators.puzzles.base import ListReplay, MoveResult, Puzzle, ProblemError, simulate
from validators.puzzles.checker_jumping import CheckerJumping
from trace_parsers.move_extract import ExtractedList, extract_move_lists, parse_list_literal
from validators.puzzles.hanoi import Hanoi
from validators.puzzles.river_crossing import RiverCrossing

PUZZLES = {"hanoi": Hanoi, "checker_jumping": CheckerJumping, "river_crossing": RiverCrossing}


def make_puzzle(domain: str, problem: dict) -> Puzzle:
    """The simulator for `domain` built from the record's problem; ProblemError if it is unusable."""
    try:
        cls = PUZZLES[domain]
    except KeyError:
        raise ProblemError(f"no puzzle simulator for domain {domain!r}") from None
    return cls.from_problem(problem)


__all__ = [
    "PUZZLES", "CheckerJumping", "ExtractedList", "Hanoi", "ListReplay", "MoveResult", "ProblemError", "Puzzle",
    "RiverCrossing", "extract_move_lists", "make_puzzle", "parse_list_literal", "simulate",
]
