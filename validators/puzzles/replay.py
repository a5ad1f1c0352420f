"""Replay of a puzzle record: each move list in the trace, then the answer (shared by the
hanoi, checker_jumping and river_crossing domains).

Paper method ("The Illusion of Thinking", reference-semantics.md §5): every complete move list in
the thinking is run from the initial state; we record its relative position, whether it solves
the puzzle and the first illegal move. A list that is legal but stops short of the goal is
exploration, not an error: its moves are valid steps, and `states`/`notes` say it does not solve.
Thinking text (`think`, `metacot`) gets the same per-list replay (validators/puzzles/thinking.py) and, through validators/thinking,
claims, arithmetic and gaps.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.record import TraceRecord
from core.verdicts import AnswerError, Gap, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import Replay
from validators.puzzles.lines import replay_lines
from validators.puzzles import (ExtractedList, ListReplay, ProblemError, Puzzle, RiverCrossing, extract_move_lists,
                                make_puzzle, simulate)
from validators.thinking.analysis import THINKING_FORMATS, analyse
from validators.puzzles.thinking import moves_key, moves_label, puzzle_candidates

_NO_SOLUTION = re.compile(r"\b(no (valid )?solution|impossible|unsolvable|cannot be solved|no plan)\b", re.I)


def _answer_list(record: TraceRecord) -> ExtractedList | None:
    """The answer's own move list when its text holds one: an explicit `moves = [...]` or CSV table
    wins over later prose or code, which only explains it."""
    lists = extract_move_lists(record.answer, record.domain, ellipsis=True)
    labelled = [x for x in lists if x.labelled and x.moves]  # `moves = []` in code starts a list, states none
    return labelled[-1] if labelled else (lists[-1] if lists else None)


def _answer_moves(record: TraceRecord, found: ExtractedList | None) -> tuple[list[Any] | None, str]:
    """The answer's move list and where it came from."""
    data = record.answer_data
    if isinstance(data, list):
        return data, "answer (JSON list)"
    if isinstance(data, dict) and isinstance(data.get("moves"), list):
        return data["moves"], "answer (JSON moves)"
    if record.answer.strip():
        if found is not None:
            where = {"csv": "answer (move table)"}.get(found.source, "answer (moves = [...])" if found.labelled
                                                        else "answer")
            return found.moves, where
        try:
            value = json.loads(record.answer)
        except ValueError:
            value = None
        if isinstance(value, list):
            return value, "answer (JSON list)"
    return None, ""


def _false_state_row(result: ListReplay, claimed: list[Any]) -> tuple[int, str] | None:
    """The first row of a state-tracking table whose claimed pegs are not the pegs its (legal) move
    leads to, when it comes before any illegal move: the answer's first error. The table asks the
    model for the state after each move, so a row that states a wrong one is a wrong answer even
    when its pegs happen to describe a legal move, and the moves after it follow the wrong belief
    (a move "from peg 1" when the model believes peg 1 empty); the published checker
    of this format (illusion-of-thinking-collapse, hanoi-trck) instead reads the moved disk off the
    claimed pegs and stops only at an illegal one, so its valid prefixes are longer than ours where
    a claimed state goes wrong first."""
    for res, pegs in zip(result.results, claimed):
        if not res.legal:
            return None
        if pegs != res.state:
            said = "unreadable pegs" if pegs is None else f"pegs {pegs}"
            return res.index, f"row {res.index + 1} claims {said}, but after its move the pegs are {res.state}"
    return None


def _solvable(puzzle: Puzzle) -> bool | None:
    if isinstance(puzzle, RiverCrossing):
        try:
            return puzzle.solve() is not None
        except ValueError:
            return None
    return True


def replay_puzzle(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    out = Replay(notes={"rules": f"{record.domain} simulator (The Illusion of Thinking, reference-semantics.md §5)"})
    try:
        puzzle = make_puzzle(record.domain, record.problem)
    except ProblemError as exc:
        out.answer_error = AnswerError(kind="undecided", message=str(exc))
        return out

    lists = parsed.extras.get("move_lists", []) if parsed.format == "move_lists" else []
    summary = []
    for k, (lst, frag) in enumerate(zip(lists, replay_lines(puzzle, record.trace, [
            {**lst, "move_spans": [parsed.graph[i].span for i in lst["move_steps"]]} for lst in lists]))):
        steps = lst["move_steps"]
        for lm, step in zip(frag.moves, steps):
            where = f"move {lm.index + 1} of its line of reasoning"
            if lm.result is None:
                cause = lists[lm.cause[0]]["move_steps"][lm.cause[1]] if lm.cause else None
                out.step_verdicts.append(StepVerdict(step, "unchecked", None, lm.why, consequence_of=cause))
                continue
            res = lm.result
            if res.legal:
                out.step_verdicts.append(StepVerdict(step, "valid", None, res.message))
            else:
                out.step_verdicts.append(StepVerdict(step, "invalid", res.rule, f"{where}: {res.message}"))
            out.states[step] = res.state
        verdict = "solves the puzzle" if frag.solved else (
            f"illegal at move {frag.first_illegal + 1}" if frag.first_illegal is not None else
            "legal but does not reach the goal")
        start = "a new line of reasoning" if frag.new_line else "continues its line of reasoning"
        out.step_verdicts.append(StepVerdict(lst["step"], "valid" if frag.first_illegal is None else "unchecked",
                                             None, f"{len(lst['moves'])} moves ({start}): {verdict}"))
        out.states[lst["step"]] = {"final": frag.final, "solved": frag.solved,
                                   "first_illegal": frag.first_illegal, "new_line": frag.new_line}
        summary.append({"step": lst["step"], "position": parsed.graph[lst["step"]].payload.get("position"),
                        "moves": len(lst["moves"]), "solved": frag.solved, "new_line": frag.new_line,
                        "first_illegal": frag.first_illegal, "source": lst["source"]})
    out.notes["move_lists"] = summary
    if lists:
        out.trace_valid = not any(v.status == "invalid" for v in out.step_verdicts)

    found = _answer_list(record) if record.answer.strip() else None
    moves, origin = _answer_moves(record, found)
    if found is not None and found.notes:
        out.notes["answer_list"] = found.notes
    if moves is None and lists:
        moves, origin = lists[-1]["moves"], "last move list of the trace (the answer has none)"
    out.notes["answer_from"] = origin or None
    solvable = _solvable(puzzle)
    if moves is None:
        if solvable is False and (_NO_SOLUTION.search(record.answer) or not record.answer.strip()):
            out.answer_correct = True
            out.notes["answer_from"] = "no move list; the instance has no solution"
        else:
            out.answer_correct = False
            out.answer_error = AnswerError(kind="unparseable", message="no move list found in the answer or the trace")
        return out

    if parsed.format in THINKING_FORMATS and record.trace.strip():
        candidates = puzzle_candidates(parsed, record.trace, record.domain, puzzle)
        findings = analyse(parsed, record.trace, candidates, moves_key(moves), f"the moves {moves_label(moves)}")
        for cand in candidates:
            out.states.update(cand.states)  # each move's state, as for move lists, for the explorer
        out.step_verdicts.extend(findings.step_verdicts)
        out.gaps.extend(findings.gaps)
        out.notes["thinking"] = findings.notes
    result = simulate(puzzle, moves)
    if found is not None and found.claimed_states is not None and found.moves is moves and \
            (false_row := _false_state_row(result, found.claimed_states)) is not None:
        out.answer_correct = False
        out.answer_error = AnswerError(kind="false_state", step=false_row[0] + 1, message=false_row[1],
                                       extra={"rule": "claimed_state"})
    elif result.first_illegal is not None:
        bad = result.results[result.first_illegal]
        out.answer_correct = False
        out.answer_error = AnswerError(kind="illegal_move", step=result.first_illegal + 1, message=bad.message,
                                       extra={"rule": bad.rule})
    elif not result.solved:
        out.answer_correct = False
        stops = " (the list is cut short: " + found.notes[0] + ")" if found is not None and found.moves is moves \
            and found.notes else ""
        out.answer_error = AnswerError(kind="unmet_goal", step=None,
                                       message=f"after {len(moves)} legal moves the puzzle is not solved: "
                                               f"{result.final}{stops}")
    else:
        out.answer_correct = True
    if solvable is False and moves:
        out.gaps.append(Gap("plan_for_unsolvable", "the instance has no solution, yet the answer gives a move list"))
    if lists and origin.startswith("answer") and all(lst["moves"] != moves for lst in lists):
        out.gaps.append(Gap("answer_not_in_trace", "the answer's move list does not appear in the thinking"))
    return out
