"""Puzzle candidates in thinking text, replayed with the puzzles' own simulators.

Every move list the trace writes (trace_parsers/move_extract.py) is a whole attempt, simulated
from the start ("The Illusion of Thinking" method); the first illegal move makes its step invalid
(`candidate_moves_invalid`), later moves are unchecked consequences.

The family's own module, so the shared thinking analysis (validators/thinking) depends on no
domain and the puzzles depend on it one way only.
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from core.verdicts import StepVerdict
from trace_parsers.base import ParsedTrace
from validators.puzzles import Puzzle, extract_move_lists, simulate
from validators.thinking.analysis import STATING_KINDS, Candidate


def puzzle_candidates(parsed: ParsedTrace, text: str, domain: str, puzzle: Puzzle) -> list[Candidate]:
    """Every move list in the thinking, each simulated from the start state."""
    starts = [s.span[0] for s in parsed.graph]

    def step_at(pos: int) -> int:
        return max(0, bisect.bisect_right(starts, pos) - 1)

    out: list[Candidate] = []
    for k, lst in enumerate(extract_move_lists(text, domain)):
        result = simulate(puzzle, lst.moves)
        verdicts: list[StepVerdict] = []
        states: dict[int, Any] = {}
        failed: int | None = None
        where = f"move list {k + 1}"
        for i, span in enumerate(lst.move_spans):
            step = step_at(span[0])
            if i < len(result.results):
                res = result.results[i]
                states[step] = res.state  # the explorer's picture of the step: the last move in it wins
                if res.legal:
                    verdicts.append(StepVerdict(step, "valid", None, f"{where}, move {i + 1}: {res.message}"))
                else:
                    failed = step
                    verdicts.append(StepVerdict(step, "invalid", "candidate_moves_invalid",
                                                f"{where}, move {i + 1}: {res.message}", found=res.rule))
            else:
                verdicts.append(StepVerdict(step, "unchecked", None, f"{where}, move {i + 1}: after an illegal move",
                                            consequence_of=failed))
        steps = sorted({step_at(a) for a, _ in lst.move_spans}) or [step_at(lst.start)]
        summary = ("solves the puzzle" if result.solved else
                   f"illegal at move {result.first_illegal + 1}" if result.first_illegal is not None else
                   f"{len(lst.moves)} legal moves that do not solve the puzzle")
        out.append(Candidate(steps, f"the moves {moves_label(lst.moves)}", True, result.solved,
                             moves_key(lst.moves), summary, verdicts,
                             stated=any(parsed.graph[s].kind in STATING_KINDS for s in steps), states=states))
    return out


def moves_key(moves: list[Any] | None) -> str | None:
    """A move list compared with another regardless of spacing and case; None for no list."""
    if moves is None:
        return None
    return json.dumps(moves, sort_keys=True, default=str).lower().replace(" ", "")


def moves_label(moves: list[Any]) -> str:
    """A move list as the verdicts quote it, cut to 120 characters."""
    text = json.dumps(moves, default=str)
    return text if len(text) <= 120 else text[:117] + "..."
