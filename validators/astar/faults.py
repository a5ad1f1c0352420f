"""Seed exactly one fault of a named rule into a reference A* run (for tests and demo data).

`seed_fault(problem, run, rule, rng)` returns a `Fault` (the changed run and where the fault is)
or None when this maze offers no place for that fault (e.g. no wall next to any expanded node).
The fault position is given as ("op", k) or ("plan", k); `fault_step` turns it into the index of
the step in the parsed trace of `record_for(problem, fault.run)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from validators.astar.reference import SEARCHFORMER, Run, first_step_offset, op_text
from validators.astar.maze_problem import Cell, MazeProblem

# Rules that a single seeded fault can trigger, per rule set.
FAULTS_BOTH = (
    "syntax_error", "invalid_coordinates", "create_close_wall", "first_create_not_last_closed",
    "create_non_neighbor", "create_already_closed", "close_not_in_open_list",
    "close_not_lowest_f_value", "goal_not_reached",
)
FAULTS_STRICT = FAULTS_BOTH + (
    "wrong_g", "wrong_h", "create_duplicate", "missing_create", "step_after_goal",
    "plan_not_from_trace", "start_not_created",
)
FAULTS_PAPER = FAULTS_BOTH + ("plan_length_mismatch",)


@dataclass
class Fault:
    run: Run
    rule: str
    where: tuple[str, int]


def fault_step(fault: Fault) -> int:
    kind, k = fault.where
    base = first_step_offset(fault.run.dialect)
    return base + k if kind == "op" else base + len(fault.run.ops) + k


def _neigh(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x, y + 1), (x, y - 1), (x - 1, y), (x + 1, y)]


def _walk(problem: MazeProblem, run: Run) -> list[tuple[int, dict[Cell, int], dict[Cell, int]]]:
    """For each close op k: (k, open g's before the close, closed g's after it)."""
    open_g: dict[Cell, int] = {} if run.dialect == SEARCHFORMER else {problem.start: 0}
    closed: dict[Cell, int] = {}
    out = []
    for k, op in enumerate(run.ops):
        cell = (op[1], op[2])
        if op[0] == "create":
            if cell not in open_g or op[3] < open_g[cell]:
                open_g[cell] = op[3]
        else:
            before = dict(open_g)
            open_g.pop(cell, None)
            closed[cell] = op[3]
            out.append((k, before, dict(closed)))
    return out


def _with(run: Run, ops: list | None = None, plan: list | None = None) -> Run:
    return Run(run.dialect, list(run.ops) if ops is None else ops, list(run.plan) if plan is None else plan,
               dict(run.meta))


def seed_fault(problem: MazeProblem, run: Run, rule: str, rng: random.Random) -> Fault | None:
    ops = list(run.ops)
    closes = _walk(problem, run)
    inner = [c for c in closes if (ops[c[0]][1], ops[c[0]][2]) != problem.goal]  # closes followed by an expansion
    h = problem.h
    creates = [k for k, op in enumerate(ops) if op[0] == "create" and not (run.dialect == SEARCHFORMER and k == 0)]

    def insert_after_close(pick_cell) -> Fault | None:
        order = list(inner)
        rng.shuffle(order)
        for k, before, closed in order:
            cell = (ops[k][1], ops[k][2])
            target = pick_cell(cell, before, closed)
            if target is not None:
                new = ops[: k + 1] + [("create", target[0], target[1], ops[k][3] + 1, h(target))] + ops[k + 1:]
                return Fault(_with(run, new), rule, ("op", k + 1))
        return None

    if rule == "syntax_error" and creates:
        k = rng.choice(creates)
        op = ops[k]
        ops[k] = ("raw", op_text(op).rsplit(" ", 1)[0])
        return Fault(_with(run, ops), rule, ("op", k))
    if rule == "invalid_coordinates" and inner:
        k = rng.choice(inner)[0]
        y = ops[k][2]
        new = ops[: k + 1] + [("create", problem.width, y, ops[k][3] + 1, h((problem.width, y)))] + ops[k + 1:]
        return Fault(_with(run, new), rule, ("op", k + 1))
    if rule == "create_close_wall":
        return insert_after_close(lambda c, b, cl: next((n for n in _neigh(c) if n in problem.walls), None))
    if rule == "create_non_neighbor":
        def far(c, b, cl):
            free = [n for n in _far_cells(problem, c) if n not in b and n not in cl]
            return rng.choice(free) if free else None
        return insert_after_close(far)
    if rule == "create_already_closed":
        return insert_after_close(lambda c, b, cl: next(
            (n for n in _neigh(c) if n in cl and n != c and cl[n] <= cl[c] + 1), None))
    if rule == "create_duplicate":
        return insert_after_close(lambda c, b, cl: next(
            (n for n in _neigh(c) if n in b and n != c and b[n] <= cl[c] + 1), None))
    if rule == "first_create_not_last_closed":
        at = 1 if run.dialect == SEARCHFORMER else 0
        n = next((n for n in _neigh(problem.start) if problem.free(n)), None)
        if n is None:
            return None
        new = ops[:at] + [("create", n[0], n[1], 1, h(n))] + ops[at:]
        return Fault(_with(run, new), rule, ("op", at))
    if rule == "close_not_in_open_list" and closes:
        k = rng.choice(closes)[0]
        op = ops[k]
        ops[k] = (op[0], op[1], op[2], op[3] + 1, op[4])
        return Fault(_with(run, ops), rule, ("op", k))
    if rule == "close_not_lowest_f_value":
        order = list(closes)
        rng.shuffle(order)
        for k, before, _closed in order:
            fmin = min(g + h(c) for c, g in before.items())
            worse = [c for c, g in before.items() if g + h(c) > fmin and c != problem.goal]
            if worse:
                c = rng.choice(worse)
                new = ops[:k] + [("close", c[0], c[1], before[c], h(c))] + ops[k:]
                return Fault(_with(run, new), rule, ("op", k))
        return None
    if rule == "goal_not_reached":
        if len(ops) < 2:
            return None
        return Fault(_with(run, ops[:-1]), rule, ("op", len(ops) - 2))
    if rule == "step_after_goal":
        goal = problem.goal
        n = next((n for n in _neigh(goal) if problem.free(n)), None)
        if n is None:
            return None
        new = ops + [("create", n[0], n[1], ops[-1][3] + 1, h(n))]
        return Fault(_with(run, new), rule, ("op", len(ops)))
    if rule in ("wrong_g", "wrong_h") and creates:
        k = rng.choice(creates)
        op = ops[k]
        ops[k] = (op[0], op[1], op[2], op[3] + 2, op[4]) if rule == "wrong_g" else (op[0], op[1], op[2], op[3], op[4] + 2)
        return Fault(_with(run, ops), rule, ("op", k))
    if rule == "missing_create" and creates:
        k = rng.choice(creates)
        nxt = next((j for j in range(k + 1, len(ops)) if ops[j][0] == "close"), None)
        if nxt is None:
            return None
        new = ops[:k] + ops[k + 1:]
        return Fault(_with(run, new), rule, ("op", nxt - 1))
    if rule == "start_not_created" and run.dialect == SEARCHFORMER:
        return Fault(_with(run, ops[1:]), rule, ("op", 0))
    if rule == "plan_not_from_trace" and len(run.plan) >= 3:
        k = rng.randrange(1, len(run.plan) - 1)
        plan = list(run.plan)
        a = plan[k]
        plan[k] = next((n for n in _neigh(a) if n not in plan), (a[0] + 2, a[1]))
        return Fault(_with(run, plan=plan), rule, ("plan", k))
    if rule == "plan_length_mismatch" and len(run.plan) >= 2:
        return Fault(_with(run, plan=run.plan[:-1]), rule, ("plan", len(run.plan) - 2))
    return None


def _far_cells(problem: MazeProblem, cell: Cell) -> list[Cell]:
    x, y = cell
    out = []
    for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        n = (x + dx, y + dy)
        if problem.free(n):
            out.append(n)
    return out


def generate_fault_record(seed: int, rule: str, width: int = 30, height: int = 30,
                          dialect: str = "beyond_semantics", deterministic: bool = True) -> dict | None:
    """A record like `generate_record` with one seeded fault of `rule`; `expected` and
    `meta.fault` say where it is (None when this maze has no place for that fault)."""
    from validators.astar.reference import random_maze, record_for, run_astar

    rng = random.Random(seed)
    problem = random_maze(rng, width, height)
    run = run_astar(problem, dialect, None if deterministic else random.Random(seed + 1))
    fault = seed_fault(problem, run, rule, random.Random(seed + 2))
    if fault is None:
        return None
    rules = "paper" if rule == "plan_length_mismatch" else "strict"
    rec = record_for(problem, fault.run, meta={"seed": seed, "rule_set": rules,
                                               "fault": {"rule": rule, "step": fault_step(fault)}})
    answer_ok = rule not in ("plan_not_from_trace", "plan_length_mismatch")
    rec["expected"] = {"answer_correct": answer_ok, "trace_valid": False, "first_invalid_step": fault_step(fault)}
    return rec
