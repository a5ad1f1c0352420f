"""Candidate solutions in thinking text for Countdown and the puzzles, replayed with their
domains' own checkers (planning has its own finder: validators/planning/thinking.py).

Countdown: an arithmetic claim that ends at the target is a candidate. It is judged as one
expression over the given numbers (_countdown_answer.check_expression); if it uses a number the
problem does not give, it is read together with the step's other `a op b = c` claims as a chain
of operations on given and derived numbers (check_operations, as SoS paths). A compound
expression (two or more operators) that needs a number the problem does not give, and is no
chain either, is invalid (`candidate_solution_invalid`); a lone `a op b = target` that uses a
derived number is left unjudged (its operands may come from earlier steps).

Puzzles: every move list the trace writes (validators/puzzles/extract.py) is a whole attempt,
simulated from the start ("The Illusion of Thinking" method); the first illegal move makes its
step invalid (`candidate_moves_invalid`), later moves are unchecked consequences.
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from core.verdicts import StepVerdict
from trace_parsers.base import ParsedTrace
from validators.countdown.answer import AnswerCheck, check_expression, check_operations
from validators.countdown.arith import fmt_num, parse_operation
from validators.puzzles import Puzzle, extract_move_lists, simulate
from validators.thinking.analysis import Candidate
from validators.thinking.arith import find_claims

_STATING_KINDS = ("conclude", "answer")


def countdown_key(check: AnswerCheck) -> tuple[Any, ...] | None:
    if check.value is None:
        return None
    return fmt_num(check.value), tuple(sorted(check.numbers_used))


def countdown_candidates(parsed: ParsedTrace, text: str, numbers: list[int], target: int,
                         use_all: bool = False) -> list[Candidate]:
    out: list[Candidate] = []
    for step in parsed.graph:
        claims = [c for c in find_claims(text, 0, step.span[0], step.span[1]) if c.holds]
        for k, claim in enumerate(claims):
            sides = claim.text.split("=")
            try:
                last = int(sides[-1].strip().strip("()[]"))
            except ValueError:
                continue
            if last != target:
                continue
            check = check_expression(claim.text, numbers, target, use_all)
            compound = sum(sides[0].count(op) for op in "+-*/×÷") >= 2
            if not check.correct and check.error is not None and check.error.kind == "illegal_move":
                ops = [c.text.replace(" ", "") for c in claims[:k + 1] if parse_operation(c.text)]
                chain = check_operations(ops, numbers, target, use_all=use_all) if ops else None
                if chain is not None and chain.correct:
                    check = chain
                elif not compound:
                    continue
            verdicts = []
            if check.correct:
                verdicts.append(StepVerdict(step.index, "valid", None, f"'{claim.text}' reaches {target} with the "
                                                                       f"given numbers"))
            elif check.error is not None and check.error.kind == "illegal_move":
                verdicts.append(StepVerdict(step.index, "invalid", "candidate_solution_invalid",
                                            f"'{claim.text}' is offered as a way to {target}, but "
                                            f"{check.error.message}", found=claim.text))
            out.append(Candidate([step.index], f"'{claim.text}'", True, check.correct, countdown_key(check),
                                 "reaches the target with the given numbers" if check.correct else
                                 (check.error.message if check.error else "does not reach the target"),
                                 verdicts, stated=step.kind in _STATING_KINDS))
    return out


def puzzle_candidates(parsed: ParsedTrace, text: str, domain: str, puzzle: Puzzle) -> list[Candidate]:
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
                             stated=any(parsed.graph[s].kind in _STATING_KINDS for s in steps), states=states))
    return out


def moves_key(moves: list[Any] | None) -> str | None:
    if moves is None:
        return None
    return json.dumps(moves, sort_keys=True, default=str).lower().replace(" ", "")


def moves_label(moves: list[Any]) -> str:
    text = json.dumps(moves, default=str)
    return text if len(text) <= 120 else text[:117] + "..."
