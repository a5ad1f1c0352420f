"""Maze domain: replay SearchFormer / Beyond-Semantics A* traces and check the plan.

Reads from the parser (trace_parsers/searchformer.py, trace_parsers/beyond_semantics.py):
`extras["dialect"]`, `extras["prompt"]` (a prompt inside the trace) and the create/close/plan
steps. Rule set: `record.meta["rule_set"]` (or `record.problem["rule_set"]`, or the environment
variable STEPSCOPE_MAZE_RULES), "strict" by default; see validators/astar/_maze_replay.py.

Why strict is the default: the development data's expectations hold under both rule sets
(`expected.trace_valid` is true exactly for the generator's own traces, which are valid strict
A* executions, and false for the "swapped" traces, whose first step already fails the paper's
checks), so the stricter judgement loses no agreement and also catches wrong g/h values,
omitted children and plans that do not follow the search.

Answer (plan) check, after SearchFormer's `maze.py::evaluate_rollout_single` and the paper's
`evaluate_plan`: starts at the start, unit moves, no walls, ends at the goal; additionally the
plan must stay inside the grid (neither reference checks bounds) and be optimal: a valid but
longer plan is `not_optimal` (answer_error.extra.valid_path = true). The optimum is the goal's g
in a valid strict trace (A* with a consistent heuristic closes the goal at its optimal cost), else
a breadth-first search of the maze.
"""

from __future__ import annotations

import os
from typing import Any

from core.record import TraceRecord
from core.verdicts import AnswerError, Gap, StepVerdict
from trace_parsers.astar_common import parse_plan_answer
from trace_parsers.base import ParsedTrace
from validators.astar.maze_identity import maze_identity
from validators.astar.maze_problem import Cell, MazeProblem, resolve_problem
from validators.astar._maze_replay import PAPER_RULES, RULE_SETS, STRICT, STRICT_ONLY_RULES, replay_maze
from validators.base import DomainSpec, Replay

VERSION = "2"
DIALECTS = ("searchformer", "beyond_semantics")


def rule_set_for(record: TraceRecord) -> tuple[str, str]:
    """(rule set, where it came from)."""
    for where, value in (("meta.rule_set", record.meta.get("rule_set")),
                         ("problem.rule_set", record.problem.get("rule_set") if isinstance(record.problem, dict) else None),
                         ("STEPSCOPE_MAZE_RULES", os.environ.get("STEPSCOPE_MAZE_RULES"))):
        if isinstance(value, str) and value.strip().lower() in RULE_SETS:
            return value.strip().lower(), where
    return STRICT, "default"


def _c(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def check_plan(problem: MazeProblem, cells: list[Cell], optimal_cells: int | None) -> AnswerError | None:
    """None when the plan is a shortest legal start-goal path; else the first thing wrong with it."""
    if not cells:
        return AnswerError("unparseable", "the plan is empty", extra={"rule": "plan_syntax_error"})
    if cells[0] != problem.start:
        return AnswerError("illegal_move", f"the plan starts at {_c(cells[0])}, not at the start {_c(problem.start)}",
                           step=1, extra={"rule": "illegal_start"})
    for k in range(1, len(cells)):
        a, b = cells[k - 1], cells[k]
        if not problem.in_bounds(b):
            why = f"{_c(b)} is outside the {problem.width}x{problem.height} maze"
        elif b in problem.walls:
            why = f"{_c(b)} is a wall"
        elif abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            why = f"{_c(a)} and {_c(b)} are not neighbours"
        else:
            continue
        return AnswerError("illegal_move", f"plan step {k + 1}: move {_c(a)} -> {_c(b)} is illegal: {why}",
                           step=k + 1, extra={"rule": "illegal_move"})
    if cells[-1] != problem.goal:
        return AnswerError("unmet_goal", f"the plan ends at {_c(cells[-1])}, not at the goal {_c(problem.goal)}",
                           step=len(cells), extra={"rule": "goal_not_reached"})
    if optimal_cells is not None and len(cells) > optimal_cells:
        return AnswerError("not_optimal",
                           f"the plan is a legal path of {len(cells) - 1} moves, but the shortest path has "
                           f"{optimal_cells - 1}", step=None,
                           extra={"rule": "not_optimal", "valid_path": True, "optimal_moves": optimal_cells - 1})
    return None


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    rules, rules_from = rule_set_for(record)
    notes: dict[str, Any] = {"rule_set": rules, "rule_set_from": rules_from,
                             "rules_checked": list(PAPER_RULES) + (list(STRICT_ONLY_RULES) if rules == STRICT else [])}
    dialect = parsed.extras.get("dialect") if parsed.format in DIALECTS else None
    if parsed.extras.get("game") == "sokoban":
        return Replay(answer_correct=None, trace_valid=None, notes=notes, answer_error=AnswerError(
            "undecided", "this trace is a Sokoban trace; set the record's domain to 'sokoban'"))
    notes["dialect"] = dialect
    res = resolve_problem(record.problem, parsed.extras.get("prompt") if dialect else None,
                          parsed.extras.get("problem_prompt"))
    notes["problem_from"] = res.source
    if res.notes:
        notes["problem_notes"] = res.notes
    problem = res.problem
    if problem is None or res.error:
        return Replay(answer_correct=None, trace_valid=None, notes=notes, answer_error=AnswerError(
            "undecided", f"cannot judge: {res.error}"))
    notes["grid"] = f"{problem.width}x{problem.height}"
    # What the explorer needs to draw the maze (it never parses traces itself).
    notes["layout"] = {"width": problem.width, "height": problem.height, "start": list(problem.start),
                       "goal": list(problem.goal), "walls": sorted(map(list, problem.walls))}

    steps = parsed.graph.steps
    result = None
    trace_valid: bool | None = None
    step_verdicts: list[StepVerdict] = []
    states: dict[int, Any] = {}
    has_search = dialect is not None and any(s.kind in ("create", "close", "unparsed") for s in steps)
    if has_search:
        result = replay_maze(steps, problem, dialect, rules, parsed.extras.get("ops"))
        step_verdicts, states = result.verdicts, result.states
        trace_valid = result.n_invalid == 0
        notes.update(n_invalid_steps=result.n_invalid, n_root_errors=result.n_root, rule_counts=result.rule_counts,
                     resync="after an error the replay follows the trace's own open/closed state; "
                            "consequence_of names the earlier step an error follows from")
    elif record.trace.strip():
        notes["trace"] = "no A* steps found in the trace; only the answer is judged"

    trace_plan = [(s.payload["x"], s.payload["y"]) for s in result.plan_steps] if result else []
    answer_plan, answer_problem = (None, None)
    if record.answer.strip() or record.answer_data is not None:
        answer_plan, answer_problem = parse_plan_answer(record.answer, record.answer_data)
        notes["answer_from"] = "answer"
    elif trace_plan:
        answer_plan = trace_plan
        notes["answer_from"] = "plan steps at the end of the trace"
    else:
        answer_problem = "no plan: the answer is empty and the trace has no plan steps"

    optimal: int | None = None
    if result is not None and trace_valid and rules == STRICT and result.goal_g is not None:
        optimal = result.goal_g + 1
        notes["optimum_from"] = "the goal's g in the valid strict A* trace"
    else:
        optimal = problem.shortest_path_cells()
        notes["optimum_from"] = "breadth-first search of the maze"
    notes["optimal_plan_cells"] = optimal

    gaps: list[Gap] = []
    if answer_plan is None:
        error = AnswerError("unparseable", answer_problem or "no plan", extra={"rule": "plan_syntax_error"})
        correct = False
    elif optimal is None:
        error = AnswerError("illegal_move", f"the goal {_c(problem.goal)} cannot be reached from the start "
                            f"{_c(problem.start)}, yet a plan was given", extra={"rule": "unsolvable"})
        correct = False
        gaps.append(Gap("plan_for_unsolvable", "the maze has no start-goal path, but the answer gives a plan"))
    else:
        error = check_plan(problem, answer_plan, optimal)
        correct = error is None

    if result is not None and answer_plan is not None:
        if trace_plan and answer_plan != trace_plan:
            gaps.append(Gap("answer_contradicts_trace", "the answer's plan differs from the plan written at the end of the trace",
                            [s.index for s in result.plan_steps[:1]]))
        elif result.chain is not None and answer_plan != result.chain:
            gaps.append(Gap("answer_contradicts_trace",
                            "the plan differs from the path given by the parent pointers the trace built",
                            [result.goal_closed_at] if result.goal_closed_at is not None else []))
        if result.goal_closed_at is None and correct:
            gaps.append(Gap("answer_not_in_trace", f"the trace never closes the goal {_c(problem.goal)}, "
                            "so the correct plan is not derived by the search", []))
    return Replay(step_verdicts=step_verdicts, answer_correct=correct, answer_error=error,
                  trace_valid=trace_valid, gaps=gaps, states=states, notes=notes)


DOMAIN = DomainSpec(
    name="maze",
    version=VERSION,
    description="Grid mazes solved by A* (SearchFormer and Beyond-Semantics traces): every create/close replayed.",
    replay=replay,
    problem_identity=maze_identity,
    picture="maze",
)
