"""Step-by-step replay of a maze A* trace against A* semantics, with named rules.

Rule sets (reported in Replay.notes["rule_set"]):
* "paper": the checks of the Beyond-Semantics validator as summarised in reference-semantics.md
  section 2.3 (rule ids kept: invalid_coordinates, create_close_wall,
  first_create_not_last_closed, create_non_neighbor, create_already_closed,
  close_not_in_open_list, close_not_lowest_f_value, goal_not_reached, plan_extraction_error,
  plan_length_mismatch, extracted_plan_invalid; syntax errors as syntax_error). g and h of a
  create are not checked, a create that does not improve an open node is silently ignored.
* "strict": everything in "paper" plus wrong_g, wrong_h, create_duplicate (a create that does
  not shorten the path to an open node), missing_create (an expansion that skips a child the
  algorithm must create; reference-semantics.md 1.4 item 8), start_not_created (SearchFormer
  traces begin with `create start`), step_after_goal, step_after_plan, and plan_not_from_trace
  (the plan must be exactly the parent chain the trace built, 1.4 item 9) in place of the length
  comparison.

Ties are never judged: any minimum-f node may be closed and children may be created in any order
(nondeterministic A*, reference-semantics.md 1.3), so traces of any tie order are valid.

Dialect rules: SearchFormer may reopen a closed node when the new path is shorter
(`searchformer/astar.py::astar`); Beyond Semantics never reopens (`solvers/astar.js`). The paper's
checker starts with the start node already open; in the SearchFormer dialect a leading
`create start` is that initial entry, not an error.

Resynchronisation: after an invalid step the replay moves to the state the trace claims (the
create is added, the close is applied with the trace's own numbers), so later steps are judged
against what the trace itself believed. Every entry remembers the invalid step it came from
("taint": the invalid step that created it, or the invalid close that expanded its parent); a
later error that involves such an entry names that step in `consequence_of`.
The paper's checker instead skips invalid operations; the first error is the same either way.

States (Replay.states) are kept out of the hot loop: an invalid step gets a snapshot (open and
closed sizes, lowest open f, the node being expanded, all violated rules), and the create and close
steps of every cell on the path the trace's parent pointers give get `on_plan_path`. The search
tree itself is the step graph (trace_parsers/astar_common.py::link_search_graph).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.steps import Step
from core.verdicts import StepVerdict
from validators.astar.maze_problem import Cell, MazeProblem

PAPER = "paper"
STRICT = "strict"
RULE_SETS = (PAPER, STRICT)

PAPER_RULES = (
    "syntax_error", "invalid_coordinates", "create_close_wall", "first_create_not_last_closed",
    "create_non_neighbor", "create_already_closed", "close_not_in_open_list",
    "close_not_lowest_f_value", "goal_not_reached", "plan_extraction_error",
    "plan_length_mismatch", "extracted_plan_invalid",
)
STRICT_ONLY_RULES = (
    "wrong_g", "wrong_h", "create_duplicate", "missing_create", "start_not_created",
    "step_after_goal", "step_after_plan", "plan_not_from_trace",
)

# (rule, message, expected, found, consequence_of)
Err = tuple


@dataclass
class MazeReplayResult:
    verdicts: list[StepVerdict]
    states: dict[int, dict[str, Any]]
    goal_closed_at: int | None
    goal_g: int | None
    chain: list[Cell] | None
    chain_problem: str | None
    plan_steps: list[Step]
    n_invalid: int
    n_root: int
    rule_counts: dict[str, int] = field(default_factory=dict)

    @property
    def first_invalid(self) -> int | None:
        return next((v.step for v in self.verdicts if v.status == "invalid"), None)


def _c(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def ops_of(steps: list[Step]) -> list[tuple]:
    """(index, kind, x, y, g, h) per non-prompt step, as the token parser also provides it."""
    out = []
    for s in steps:
        if s.kind == "prompt":
            continue
        p = s.payload
        if s.kind in ("create", "close"):
            out.append((s.index, s.kind, p["x"], p["y"], p["g"], p["h"]))
        elif s.kind == "plan":
            out.append((s.index, "plan", p["x"], p["y"], None, None))
        else:
            out.append((s.index, s.kind, None, None, None, None))
    return out


def replay_maze(steps: list[Step], problem: MazeProblem, dialect: str, rule_set: str = STRICT,
                ops: list[tuple] | None = None) -> MazeReplayResult:
    """Replay `steps` (parsed prompt/create/close/plan/unparsed steps) on `problem`.

    `ops` is the same trace as tuples (index, kind, x, y, g, h) when the parser supplied it
    (ParsedTrace.extras["ops"]); reading tuples instead of step payloads is the hot loop's
    largest saving. Steps cut off by the audit's step limit are not replayed.
    """
    if ops is None or (ops and ops[-1][0] >= len(steps)):
        ops = ops_of(steps)
    strict = rule_set == STRICT
    sf = dialect == "searchformer"
    width, height, walls = problem.width, problem.height, problem.walls
    start, goal = problem.start, problem.goal
    gx, gy = goal

    # open entry   = (g, h, create step, taint, parent cell)
    # closed entry = (g, h, close step, taint, parent cell, create step)
    # The parent travels with the entry: the plan is the chain of parents of closed nodes, as
    # SearchFormer's node.parent references (searchformer/astar.py) and the paper's parent dict.
    open_: dict[Cell, tuple] = {}
    closed: dict[Cell, tuple] = {}
    fcount: dict[int, int] = {}
    minf: list[Any] = [None, False]  # [value, dirty]
    errs_at: dict[int, list[Err]] = {}
    states: dict[int, dict[str, Any]] = {}
    plan_steps: list[Step] = []

    def open_add(cell: Cell, entry: tuple) -> None:
        old = open_.get(cell)
        if old is not None:
            open_remove(cell)
        open_[cell] = entry
        f = entry[0] + entry[1]
        fcount[f] = fcount.get(f, 0) + 1
        if not minf[1] and (minf[0] is None or f < minf[0]):
            minf[0] = f

    def open_remove(cell: Cell) -> tuple:
        entry = open_.pop(cell)
        f = entry[0] + entry[1]
        left = fcount[f] - 1
        if left:
            fcount[f] = left
        else:
            del fcount[f]
            if f == minf[0]:
                minf[1] = True
        return entry

    def min_f() -> int | None:
        if minf[1]:
            minf[0] = min(fcount) if fcount else None
            minf[1] = False
        return minf[0]

    last_closed: Cell | None = None
    last_closed_entry: tuple | None = None
    last_close_step: int | None = None
    last_unparsed: int | None = None
    goal_closed_at: int | None = None
    goal_g: int | None = None
    after_goal_root: int | None = None
    plan_started: int | None = None
    after_plan_root: int | None = None
    expanding: tuple | None = None  # (cell, g) of the node whose expansion is running (strict only)
    expanding_taint: int | None = None
    missed: dict[Cell, int] = {}
    rejected: dict[Cell, int] = {}
    started = not sf
    open_get = open_.get
    closed_get = closed.get
    fcount_get = fcount.get
    if not sf:
        open_add(start, (0, abs(start[0] - gx) + abs(start[1] - gy), None, None, None))

    lc_g1 = 0  # g of the node being expanded, plus one
    lc_direct: int | None = None  # its close step, when that close was invalid
    fast = started
    for i, kind, x, y, g, h in ops:
        if fast:
            # Fast path for a valid step; anything unusual falls through to the full checks below.
            if kind == "create":
                lc = last_closed
                if lc is not None and abs(x - lc[0]) + abs(y - lc[1]) == 1:
                    cell = (x, y)
                    if cell not in closed and cell not in walls and 0 <= x < width and 0 <= y < height:
                        old_open = open_get(cell)
                        improves = old_open is None or g < old_open[0]
                        if not strict or (improves and g == lc_g1 and h == abs(x - gx) + abs(y - gy)):
                            if improves:
                                if old_open is None:
                                    f = g + h
                                    fcount[f] = fcount_get(f, 0) + 1
                                    if not minf[1] and (minf[0] is None or f < minf[0]):
                                        minf[0] = f
                                    open_[cell] = (g, h, i, lc_direct, lc)
                                else:
                                    open_add(cell, (g, h, i, lc_direct, lc))
                            continue
            elif kind == "close":
                cell = (x, y)
                entry = open_get(cell)
                # An untainted open entry came from a valid create: its cell is inside and free.
                if entry is not None and entry[3] is None and entry[0] == g and entry[1] == h and g + h <= (
                        min_f() if minf[1] else minf[0]):
                    complete = True
                    if expanding is not None:
                        # The same test as _missing_children, inlined: it runs at every close.
                        (ex, ey), cg = expanding[0], expanding[1] + 1
                        if sf:
                            for n in ((ex, ey + 1), (ex, ey - 1), (ex - 1, ey), (ex + 1, ey)):
                                if n in walls:
                                    continue
                                o = open_get(n)
                                c = closed_get(n)
                                if o is not None or c is not None:
                                    nf = cg + abs(n[0] - gx) + abs(n[1] - gy)
                                    if (o is not None and o[0] + o[1] <= nf) or (c is not None and c[0] + c[1] <= nf):
                                        continue
                                if 0 <= n[0] < width and 0 <= n[1] < height:
                                    complete = False
                                    break
                        else:
                            for n in ((ex, ey + 1), (ex, ey - 1), (ex - 1, ey), (ex + 1, ey)):
                                if n in closed or n in walls:
                                    continue
                                o = open_get(n)
                                if (o is None or o[0] > cg) and 0 <= n[0] < width and 0 <= n[1] < height:
                                    complete = False
                                    break
                else:
                    complete = False
                if complete:
                    # open_remove() inlined: this is the valid-close fast path that keeps replay
                    # at or under the reference A*'s time (bench/bench_astar.py).
                    del open_[cell]
                    f = g + h
                    left = fcount[f] - 1
                    if left:
                        fcount[f] = left
                    else:
                        del fcount[f]
                        if f == minf[0]:
                            minf[1] = True
                    new_entry = (g, h, i, entry[3], entry[4], entry[2])
                    closed[cell] = new_entry
                    last_closed, last_closed_entry, last_close_step = cell, new_entry, i
                    lc_g1, lc_direct = g + 1, None
                    last_unparsed = None
                    expanding = None
                    if cell == goal:
                        goal_closed_at, goal_g = i, g
                        fast = False
                    elif strict:
                        expanding, expanding_taint = (cell, g), entry[3]
                    continue
        if kind == "unparsed":
            step = steps[i]
            errs_at[i] = [("syntax_error", step.payload.get("error", "cannot read this step"), None, step.text[:80], None)]
            last_unparsed = i
            continue
        if kind == "plan":
            plan_steps.append(steps[i])
            if plan_started is None:
                plan_started = i
                fast = False
            continue
        if kind not in ("create", "close"):
            continue
        cell = (x, y)
        if strict and goal_closed_at is not None:
            errs_at[i] = [("step_after_goal",
                           f"{kind} {x} {y} after the goal {_c(goal)} was closed at step {goal_closed_at}; A* stops there",
                           None, None, after_goal_root)]
            if after_goal_root is None:
                after_goal_root = i
            continue
        if strict and plan_started is not None:
            errs_at[i] = [("step_after_plan", f"{kind} {x} {y} after the plan began at step {plan_started}",
                           None, None, after_plan_root)]
            if after_plan_root is None:
                after_plan_root = i
            continue
        errs: list[Err] = []
        in_grid = 0 <= x < width and 0 <= y < height
        # Closing a bad cell that an earlier invalid create put in open repeats that mistake.
        same = open_.get(cell) if kind == "close" else None
        same_taint = same[3] if same is not None else None
        if not in_grid:
            errs.append(("invalid_coordinates", f"{kind} {x} {y}: {_c(cell)} is outside the {width}x{height} maze",
                         None, [x, y], same_taint))
        elif cell in walls:
            errs.append(("create_close_wall", f"{kind} {x} {y}: cell {_c(cell)} is a wall", None, [x, y], same_taint))
        hx = abs(x - gx) + abs(y - gy)

        if not started:
            started = True
            fast = goal_closed_at is None and plan_started is None
            if kind == "create" and cell == start:
                if strict and g != 0:
                    errs.append(("wrong_g", f"create {x} {y} c{g}: the start has g = 0", 0, g, None))
                if strict and h != hx:
                    errs.append(("wrong_h", f"create {x} {y} c{g} c{h}: h of the start {_c(start)} is its Manhattan "
                                 f"distance {hx} to the goal {_c(goal)}", hx, h, None))
                taint = i if errs else None
                open_add(cell, (g, h, i, taint, None))
                errs_at[i] = errs
                states[i] = {"open": len(open_), "closed": 0, "min_f": min_f()}
                continue
            # The start enters the open list as the paper's checker initialises it.
            open_add(start, (0, abs(start[0] - gx) + abs(start[1] - gy), None, None, None))
            if strict:
                errs.append(("start_not_created",
                             f"a SearchFormer trace begins with 'create {start[0]} {start[1]} c0 c{problem.h(start)}' "
                             f"(the start); this trace begins with {kind} {x} {y}", None, None, None))

        if kind == "create":
            lc = last_closed
            # The close that started this expansion, when that close itself was invalid.
            direct = last_close_step if (last_closed_entry is not None
                                         and last_closed_entry[3] == last_close_step) else None
            if lc is None:
                errs.append(("first_create_not_last_closed",
                             f"create {x} {y} before any node was closed: A* only creates nodes while expanding a closed node",
                             None, None, last_unparsed))
            elif in_grid and cell not in walls and abs(x - lc[0]) + abs(y - lc[1]) != 1:
                errs.append(("create_non_neighbor",
                             f"create {x} {y}: {_c(cell)} is not next to {_c(lc)}, the node being expanded "
                             f"(closed at step {last_close_step})", None, [x, y], last_unparsed))
            old_closed = closed.get(cell)
            old_open = open_.get(cell)
            if old_closed is not None and old_open is None:
                # SearchFormer re-opens a closed node reached by a shorter path; that is no error.
                if not (sf and strict and g < old_closed[0]):
                    why = ("A* never reopens a closed node" if not sf else
                           f"it was closed with g={old_closed[0]} and this path (g={g}) is not shorter")
                    errs.append(("create_already_closed",
                                 f"create {x} {y}: {_c(cell)} was already closed at step {old_closed[2]}; {why}",
                                 None, None, old_closed[3] if old_closed[3] is not None else missed.get(cell)))
            if strict:
                if h != hx:
                    errs.append(("wrong_h", f"create {x} {y} c{g} c{h}: h should be {hx}, the Manhattan distance "
                                 f"from {_c(cell)} to the goal {_c(goal)}", hx, h, None))
                if last_closed_entry is not None and g != last_closed_entry[0] + 1:
                    exp_g = last_closed_entry[0] + 1
                    errs.append(("wrong_g", f"create {x} {y} c{g}: g should be {exp_g}, one more than g={last_closed_entry[0]} "
                                 f"of the node being expanded {_c(lc)}", exp_g, g, direct))
                if old_open is not None and g >= old_open[0]:
                    errs.append(("create_duplicate",
                                 f"create {x} {y} c{g}: {_c(cell)} is already open with g={old_open[0]} (step {old_open[2]}); "
                                 "A* only creates a node again when the new path is shorter",
                                 None, None, old_open[3]))
            taint = _taint(errs, i)
            if taint is None:
                taint = direct
            if old_open is not None and g >= old_open[0]:
                pass  # the open node keeps its shorter path (the paper's checker does the same)
            elif any(e[0] == "create_already_closed" for e in errs):
                rejected[cell] = i  # a closed node stays closed, as in the paper's checker
            else:
                open_add(cell, (g, h, i, taint, lc))
            errs_at[i] = errs
            if errs:
                states[i] = {"open": len(open_), "closed": len(closed), "min_f": min_f(),
                             "expanding": [lc[0], lc[1]] if lc else None}
            continue

        # close
        if expanding is not None:
            missing = _missing_children(expanding, problem, open_, closed, sf)
            if missing:
                cons = last_unparsed if last_unparsed is not None else expanding_taint
                if cons is None:
                    # Children missing again, or whose open entry came from an invalid step.
                    causes = [missed.get(c, open_[c][3] if c in open_ else None) for c in missing]
                    if all(c is not None for c in causes):
                        cons = min(causes)
                for c in missing:
                    missed.setdefault(c, i)
                names = ", ".join(f"{_c(c)} c{expanding[1] + 1} c{problem.h(c)}" for c in missing[:6])
                more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
                errs.append(("missing_create",
                             f"the expansion of {_c(last_closed)} (step {last_close_step}) ends here without creating "
                             f"{names}{more}", [list(c) for c in missing], None, cons))
        expanding = None
        entry = open_.get(cell)
        f = g + h
        if entry is None:
            old = closed.get(cell)
            if old is not None:
                why = f"it was already closed at step {old[2]}"
                cons = rejected.get(cell, old[3])
            elif cell in missed:
                why, cons = f"it was never created (it was missing at step {missed[cell]})", missed[cell]
            else:
                why, cons = "it was never created", None
            errs.append(("close_not_in_open_list", f"close {x} {y} c{g} c{h}: {_c(cell)} is not in the open list: {why}",
                         None, None, cons))
        elif entry[0] != g or entry[1] != h:
            errs.append(("close_not_in_open_list",
                         f"close {x} {y} c{g} c{h}: {_c(cell)} is open with g={entry[0]}, h={entry[1]} (step {entry[2]}), "
                         f"not g={g}, h={h}", [entry[0], entry[1]], [g, h], entry[3]))
            open_remove(cell)
        else:
            mf = min_f()
            if mf is not None and f > mf:
                witness, w_taint, all_tainted = None, None, True
                for oc, oe in open_.items():
                    if oe[0] + oe[1] == mf:
                        if witness is None:
                            witness = oc
                        if oe[3] is None:
                            all_tainted = False
                        elif w_taint is None or oe[3] < w_taint:
                            w_taint = oe[3]
                cons = entry[3] if entry[3] is not None else (w_taint if all_tainted else None)
                errs.append(("close_not_lowest_f_value",
                             f"close {x} {y}: its f = {g}+{h} = {f}, but {_c(witness)} is open with f = {mf}; "
                             "A* always closes an open node of lowest f", mf, f, cons))
            open_remove(cell)
        taint = _taint(errs, i)
        if taint is None and entry is not None:
            taint = entry[3]
        new_entry = (g, h, i, taint, entry[4] if entry is not None else None,
                     entry[2] if entry is not None else None)
        closed[cell] = new_entry
        last_closed, last_closed_entry, last_close_step = cell, new_entry, i
        lc_g1, lc_direct = g + 1, (i if taint == i else None)
        last_unparsed = None
        if cell == goal and goal_closed_at is None:
            goal_closed_at, goal_g = i, g
            fast = False
        elif strict:
            expanding, expanding_taint = (cell, g), taint
        errs_at[i] = errs
        states[i] = {"open": len(open_), "closed": len(closed), "min_f": min_f()}

    if goal_closed_at is None:
        where = next((s.index for s in reversed(steps) if s.kind in ("create", "close", "unparsed")), None)
        if where is None:
            where = plan_steps[0].index if plan_steps else None
        if where is not None:
            errs_at.setdefault(where, []).append((
                "goal_not_reached", f"the search ends here without closing the goal {_c(goal)}", None, None, None))

    chain, chain_problem = None, None
    if goal_closed_at is not None:
        chain, chain_problem, bad_taint = _extract_chain(start, goal, closed, problem)
        if chain_problem is not None:
            rule = "plan_extraction_error" if chain is None else "extracted_plan_invalid"
            errs_at.setdefault(goal_closed_at, []).append((rule, chain_problem, None, None, bad_taint))
        if chain is not None:
            for c in chain:
                created_at = closed[c][5] if c in closed else None
                if created_at is not None:
                    states.setdefault(created_at, {})["on_plan_path"] = True
                if c in closed:
                    states.setdefault(closed[c][2], {})["on_plan_path"] = True
            if plan_steps:
                chain_taint = next((closed[c][3] for c in chain if c in closed and closed[c][3] is not None), None)
                _judge_plan_steps(plan_steps, chain, strict, errs_at, chain_taint, closed)

    n_invalid = n_root = 0
    counts: dict[str, int] = {}
    bad = {i: errs for i, errs in errs_at.items() if errs}
    if bad:
        verdicts = [StepVerdict(o[0], "valid") if o[0] not in bad else _verdict(o[0], bad[o[0]], states) for o in ops]
    else:
        verdicts = [StepVerdict(o[0], "valid") for o in ops]
    for errs in bad.values():
        n_invalid += 1
        n_root += any(e[4] is None for e in errs)
        for e in errs:
            counts[e[0]] = counts.get(e[0], 0) + 1
    return MazeReplayResult(verdicts, states, goal_closed_at, goal_g, chain, chain_problem, plan_steps,
                            n_invalid, n_root, counts)


def _verdict(i: int, errs: list[Err], states: dict[int, dict[str, Any]]) -> StepVerdict:
    """One verdict for a step with one or more violations: a root cause first, the rest appended."""
    roots = [e for e in errs if e[4] is None]
    primary = roots[0] if roots else errs[0]
    cons = None if roots else min(e[4] for e in errs)
    message = primary[1]
    if len(errs) > 1:
        message += "; also " + "; ".join(f"{e[0]}: {e[1]}" for e in errs if e is not primary)
    states.setdefault(i, {})["violations"] = [e[0] for e in errs]
    return StepVerdict(i, "invalid", primary[0], message, primary[2], primary[3], cons)


def _taint(errs: list[Err], i: int) -> int | None:
    if not errs:
        return None
    if any(e[4] is None for e in errs):
        return i
    return min(e[4] for e in errs)


def _missing_children(expanding: tuple, problem: MazeProblem, open_: dict, closed: dict, sf: bool) -> list[Cell]:
    """Children the expansion of `expanding` = (cell, g) had to create but did not (dialect rules).

    Evaluated when the expansion ends: a neighbour the expansion did not create is in the same
    open/closed state as when the expansion began, and one it did create is open with g+1.
    """
    (x, y), g = expanding
    gx, gy = problem.goal
    cg = g + 1
    out: list[Cell] = []
    width, height, walls = problem.width, problem.height, problem.walls
    for n in ((x, y + 1), (x, y - 1), (x - 1, y), (x + 1, y)):
        nx, ny = n
        if not (0 <= nx < width and 0 <= ny < height) or n in walls:
            continue
        o = open_.get(n)
        c = closed.get(n)
        if sf:
            # searchformer/astar.py: skip a child open or closed with f <= its new f.
            nf = cg + abs(nx - gx) + abs(ny - gy)
            if (o is not None and o[0] + o[1] <= nf) or (c is not None and c[0] + c[1] <= nf):
                continue
        elif c is not None or (o is not None and o[0] <= cg):
            continue  # solvers/astar.js: closed cells are skipped, a create must improve g
        out.append(n)
    return out


def _extract_chain(start: Cell, goal: Cell, closed: dict, problem: MazeProblem) -> tuple[list[Cell] | None, str | None, int | None]:
    """Parent pointers goal -> start, as the paper's checker extracts its plan."""
    path = [goal]
    seen = {goal}
    node = goal
    while node != start:
        entry = closed.get(node)
        nxt = entry[4] if entry is not None else None
        if nxt is None or nxt in seen:
            why = "it has no parent" if nxt is None else f"its parent pointers loop back to {_c(nxt)}"
            return None, (f"the parent chain from the goal breaks at {_c(node)}: {why}"), (entry[3] if entry else None)
        path.append(nxt)
        seen.add(nxt)
        node = nxt
    path.reverse()
    for a, b in zip(path, path[1:]):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or not problem.free(b):
            entry = closed.get(b)
            return path, f"the path the trace's parent pointers give is not a legal path: {_c(a)} -> {_c(b)}", (
                entry[3] if entry else None)
    return path, None, None


def _judge_plan_steps(plan_steps: list[Step], chain: list[Cell], strict: bool, errs_at: dict,
                      chain_taint: int | None, closed: dict[Cell, tuple]) -> None:
    cells = [(s.payload["x"], s.payload["y"]) for s in plan_steps]
    if strict:
        k = next((j for j in range(min(len(cells), len(chain))) if cells[j] != chain[j]), None)
        if k is None and len(cells) != len(chain):
            k = min(len(cells), len(chain))
        if k is None:
            return
        at = plan_steps[min(k, len(plan_steps) - 1)]
        if k < len(cells) and k < len(chain):
            if k == 0:
                msg = f"the plan starts at {_c(cells[0])}, but the trace's search starts at {_c(chain[0])}"
            else:
                via = closed[chain[k]][5] if chain[k] in closed else None
                msg = (f"the plan goes {_c(cells[k - 1])} -> {_c(cells[k])}, but the trace reached the goal through "
                       f"{_c(chain[k])}" + (f" (created at step {via})" if via is not None else ""))
        elif len(cells) < len(chain):
            msg = (f"the plan stops at {_c(cells[-1])} after {len(cells)} cells; the path the trace found has "
                   f"{len(chain)} cells")
        else:
            msg = (f"the plan continues past the goal {_c(chain[-1])} ({len(cells)} cells; the path the trace found "
                   f"has {len(chain)})")
        errs_at.setdefault(at.index, []).append(("plan_not_from_trace", msg, [list(c) for c in chain],
                                                 [list(c) for c in cells], chain_taint))
    elif len(cells) != len(chain):
        at = plan_steps[min(len(chain), len(plan_steps) - 1)]
        errs_at.setdefault(at.index, []).append((
            "plan_length_mismatch",
            f"the plan has {len(cells)} cells but the path the trace's parent pointers give has {len(chain)}",
            len(chain), len(cells), chain_taint))
