"""Reference planner: A* over STRIPS states, for "how long is an optimal plan?" and "is this
problem solvable at all?". Unit action costs (PlanBench's plan length; VAL's "Final value").

The heuristic is admissible: unmet goal atoms divided by the most goal atoms one action can
add. Search is bounded (`max_expansions`); past the bound the answer is "unknown", never a guess.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from math import ceil

from validators.planning.strips import Atom, GroundAction, Task


@dataclass(frozen=True)
class SearchResult:
    solvable: bool | None
    plan: tuple[GroundAction, ...] | None
    expanded: int
    reason: str

    @property
    def length(self) -> int | None:
        return len(self.plan) if self.plan is not None else None


def _rank(entry: tuple[int, frozenset[Atom], frozenset[Atom], GroundAction]) -> int:
    return entry[0]


def _objects_of_type(task: Task, ptype: str) -> list[str]:
    return sorted(o for o, t in task.objects.items() if task.domain.is_subtype(t, ptype))


def _ground_actions(task: Task) -> Iterator[GroundAction]:
    """Ground actions in `ground_all`'s order, one at a time."""
    static = task.domain.static_predicates
    init = task.problem.init
    for schema in task.domain.actions.values():
        domains = []
        for param, ptype in zip(schema.params, schema.param_types):
            allowed = _objects_of_type(task, ptype)
            for lit in schema.pre:
                # Static unary preconditions (logistics' (TRUCK ?t)) narrow a parameter up front.
                if lit.positive and lit.atom[0] in static and lit.atom[1:] == (param,):
                    allowed = [o for o in allowed if (lit.atom[0], o) in init]
            domains.append(allowed)
        static_pre = [lit for lit in schema.pre if lit.atom[0] in static]
        for args in itertools.product(*domains):
            binding = dict(zip(schema.params, args))
            if any(((lit.atom[0], *(binding.get(t, t) for t in lit.atom[1:])) in init) != lit.positive
                   for lit in static_pre):
                continue
            ground = task.ground(schema.name, tuple(args))
            if any((a == b) != pos for a, b, pos in ground.equalities):
                continue
            yield ground


def ground_all(task: Task) -> list[GroundAction]:
    """Every ground action whose static preconditions and (in)equalities hold in the initial state."""
    cached = task.memo.get("ground_all")
    if cached is None:
        cached = task.memo["ground_all"] = list(_ground_actions(task))
    return cached


def more_ground_actions_than(task: Task, limit: int) -> bool:
    """Whether the task has more than `limit` ground actions, without grounding all of them (a
    large PDDL problem from the dev loops has millions of candidate bindings: 120 s to ground
    only to learn it is too big for an exhaustive search)."""
    cached = task.memo.get("ground_all")
    if cached is not None:
        return len(cached) > limit
    return sum(1 for _ in itertools.islice(_ground_actions(task), limit + 1)) > limit


def reference_plan(task: Task, max_expansions: int = 5000, optimal: bool = True) -> SearchResult:
    """An optimal plan (A*, admissible heuristic) or why none was found; cached per task. Not
    `optimal`: greedy best-first search on the same heuristic, for "is there any plan?" on
    problems too large for A* to finish (a plan it finds proves solvability, not a length)."""
    key = f"reference:{max_expansions}" + ("" if optimal else ":greedy")
    if key in task.memo:
        return task.memo[key]
    actions = ground_all(task)
    pos_goal = frozenset(lit.atom for lit in task.problem.goal if lit.positive)
    neg_goal = frozenset(lit.atom for lit in task.problem.goal if not lit.positive)
    if any((a == b) != pos for a, b, pos in task.problem.goal_equalities):
        result = SearchResult(False, None, 0, "the goal contains a false (in)equality")
        task.memo[key] = result
        return result
    goal_preds = {a[0] for a in pos_goal | neg_goal}
    per_action = max((sum(1 for a in (*g.add, *g.delete) if a[0] in goal_preds) for g in actions), default=1) or 1
    static = task.domain.static_predicates
    # Each entry carries its action's rank in `ground_all` (sorted objects, the domain's action
    # order): successors are generated in that order, never in the order of a state's atoms,
    # which follows string hashing, so the optimal plan found is the same whatever PYTHONHASHSEED.
    always: list[tuple[int, frozenset[Atom], frozenset[Atom], GroundAction]] = []
    by_trigger: dict[Atom, list[tuple[int, frozenset[Atom], frozenset[Atom], GroundAction]]] = {}
    for rank, g in enumerate(actions):
        pos = frozenset(l.atom for l in g.pre if l.positive and l.atom[0] not in static)
        neg = frozenset(l.atom for l in g.pre if not l.positive and l.atom[0] not in static)
        entry = (rank, pos, neg, g)
        trigger = next((l.atom for l in g.pre if l.positive and l.atom[0] not in static), None)
        if trigger is None:
            always.append(entry)
        else:
            by_trigger.setdefault(trigger, []).append(entry)

    def h_goals(state: frozenset[Atom]) -> int:
        missing = len(pos_goal - state) + len(neg_goal & state)
        return ceil(missing / per_action)

    relaxed = [(pos, g.add) for _, pos, _, g in (*always, *(e for es in by_trigger.values() for e in es))]

    def h_add(state: frozenset[Atom]) -> int:
        """The additive heuristic (Bonet and Geffner 2001), for the greedy search only: the cost of
        each goal atom when deletes and negative preconditions are ignored, summed; a state from
        which even that relaxation misses a goal atom is a dead end (a huge value)."""
        cost: dict[Atom, int] = dict.fromkeys(state, 0)
        changed = True
        while changed:
            changed = False
            for pos, add in relaxed:
                c = 1
                for atom in pos:
                    known = cost.get(atom)
                    if known is None:
                        break
                    c += known
                else:
                    for atom in add:
                        if c < cost.get(atom, 1 << 60):
                            cost[atom] = c
                            changed = True
        return sum(cost.get(atom, 1 << 40) for atom in pos_goal) + len(neg_goal & state)

    h = h_goals if optimal else h_add

    start = task.problem.init
    parents: dict[frozenset[Atom], tuple[frozenset[Atom] | None, GroundAction | None]] = {start: (None, None)}
    g_cost = {start: 0}
    counter = itertools.count()
    frontier = [(h(start), 0, next(counter), start)]
    expanded = 0
    while frontier:
        _, neg_g, _, state = heapq.heappop(frontier)
        g = -neg_g
        if g > g_cost[state]:
            continue
        if pos_goal <= state and not (neg_goal & state):
            plan = []
            cur = state
            while parents[cur][0] is not None:
                prev, act = parents[cur]
                plan.append(act)
                cur = prev
            result = SearchResult(True, tuple(reversed(plan)), expanded,
                                  "optimal plan found" if optimal else "a plan found by greedy search (not always the shortest)")
            task.memo[key] = result
            return result
        expanded += 1
        if expanded > max_expansions:
            result = SearchResult(None, None, expanded, f"search stopped after {max_expansions:,} expansions")
            task.memo[key] = result
            return result
        applicable = sorted([e for atom in state for e in by_trigger.get(atom, ())] + always, key=_rank)
        for _, pos, neg, act in applicable:
            if pos <= state and not (neg & state):
                nxt = (state - act.delete) | act.add
                ng = g + 1
                if ng < g_cost.get(nxt, 1 << 60):
                    g_cost[nxt] = ng
                    parents[nxt] = (state, act)
                    heapq.heappush(frontier, ((ng if optimal else 0) + h(nxt), -ng, next(counter), nxt))
    result = SearchResult(False, None, expanded, f"no plan exists (all {len(g_cost):,} reachable states searched)")
    task.memo[key] = result
    return result
