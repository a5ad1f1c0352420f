"""Sokoban domain: replay SearchFormer Sokoban A* traces and check the plan.

Reads from trace_parsers/searchformer.py: create/close steps whose payload is either a full level
state ("state": rows joined by '-', the JSON fixture form) or the token form (worker + boxes not on a
dock, `WithBoxSokobanTokenizer`), plan steps (worker positions, or states), and `extras["prompt"]`.
Rules and semantics: validators/astar/sokoban_core.py (SearchFormer's `sokoban.py` and `astar.py`).

The replay uses the maze's rule ids where the rule is the same (validators/astar/_maze_replay.py) and
adds: create_non_successor (the state is not one move from the state being expanded),
create_dead_state (a move to a state of infinite h, which A* drops), state_mismatch (a state whose
walls or docks differ from the level). Token steps list only boxes off docks; a state is identified
by matching that projection against the successors of the expanded state (creates) or the open
list (closes). Rule sets: "strict" (default) or "paper" (no g/h, duplicate or completeness checks),
chosen as for mazes.

Plan check (SearchFormer `sokoban.py::evaluate_rollout_single`): consecutive worker positions one
step apart, simulated from the level; correct iff no box is left off a dock. Stricter than the
reference: the plan must start at the worker and every move must actually move the worker (a
blocked move is an illegal move). answer_correct means "solves the level" (SearchFormer's
`plan_correct`); optimality against a breadth-first optimum is reported in notes only, because
SearchFormer's own "optimal" compares with its A* plan, which the inconsistent heuristic does not
make optimal.
"""

from __future__ import annotations

import math
import re
from typing import Any

from core.record import TraceRecord
from core.steps import Step
from core.verdicts import AnswerError, Gap, StepVerdict
from trace_parsers.sokoban_common import scan_sokoban_tokens, state_string
from trace_parsers.base import ParsedTrace
from validators.astar.sokoban_core import (
    DIRECTIONS, Level, State, children, heuristic, is_goal, move, parse_rows, parse_state_string,
    shortest_plan_moves, unplaced,
)
from validators.base import DomainSpec, Replay
from validators.astar.maze import rule_set_for
from validators.astar.sokoban_frames import step_state

# 2: the level's layout in the notes, for the explorer's picture (verdicts unchanged).
VERSION = "2"
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def _c(cell: tuple[int, int]) -> str:
    return f"({cell[0]},{cell[1]})"


def _from_prompt_dict(p: dict[str, Any]) -> tuple[Level, State] | str:
    if not p or p.get("worker") is None:
        return "the prompt has no worker"
    cells = [tuple(c) for key in ("boxes", "docks", "walls") for c in p.get(key) or []] + [tuple(p["worker"])]
    width = max(c[0] for c in cells) + 1
    height = max(c[1] for c in cells) + 1
    level = Level(width, height, frozenset(tuple(c) for c in p.get("walls") or []),
                  frozenset(tuple(c) for c in p.get("docks") or []))
    # Prompt boxes are the boxes off docks (WithBoxSokobanTokenizer lists only those).
    return level, State(tuple(p["worker"]), frozenset(tuple(c) for c in p.get("boxes") or []))


def resolve_level(record: TraceRecord, parsed: ParsedTrace) -> tuple[tuple[Level, State] | None, str, str | None]:
    """(level and start state, where from, error)."""
    spec = record.problem if isinstance(record.problem, dict) else {}
    for key in ("rows", "level", "state"):
        value = spec.get(key)
        if isinstance(value, list):
            got = parse_rows([str(r) for r in value])
        elif isinstance(value, str):
            got = parse_rows(value.split("\n")) if "\n" in value else parse_state_string(value)
        else:
            continue
        return (got, f"problem.{key}", None) if not isinstance(got, str) else (None, f"problem.{key}", got)
    prompt = spec.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        rows = [a or b for a, b in _QUOTED.findall(prompt)]
        if rows:
            got = parse_rows(rows)
        elif "worker" in prompt:
            _steps, _errors, pdict = scan_sokoban_tokens(prompt)
            got = _from_prompt_dict(pdict or {})
        else:
            got = parse_state_string(prompt.strip())
        return (got, "problem.prompt", None) if not isinstance(got, str) else (None, "problem.prompt", got)
    if parsed.extras.get("prompt"):
        got = _from_prompt_dict(parsed.extras["prompt"])
        return (got, "prompt inside the trace", None) if not isinstance(got, str) else (None, "trace prompt", got)
    first = next((s for s in parsed.graph.steps if s.kind == "create" and "state" in s.payload), None)
    if first is not None:
        got = parse_state_string(first.payload["state"])
        if not isinstance(got, str):
            return got, "the first state of the trace", None
    return None, "none", "no Sokoban level given: need problem.prompt, problem.rows/level/state, or a prompt in the trace"


def _describe(level: Level, s: State) -> str:
    boxes = ", ".join(_c(b) for b in sorted(unplaced(level, s)))
    return f"worker {_c(s.worker)}" + (f", boxes off docks {boxes}" if boxes else ", all boxes on docks")


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    rules, rules_from = rule_set_for(record)
    strict = rules == "strict"
    notes: dict[str, Any] = {"rule_set": rules, "rule_set_from": rules_from}
    found, source, error = resolve_level(record, parsed)
    notes["problem_from"] = source
    if found is None:
        return Replay(answer_correct=None, trace_valid=None, notes=notes,
                      answer_error=AnswerError("undecided", f"cannot judge: {error}"))
    level, start = found
    notes["grid"] = f"{level.width}x{level.height}"
    # What the explorer needs to draw each step's state (it never parses traces itself).
    notes["layout"] = {"width": level.width, "height": level.height, "walls": sorted(map(list, level.walls)),
                       "docks": sorted(map(list, level.docks)), "worker": list(start.worker),
                       "boxes": sorted(map(list, start.boxes))}
    steps = parsed.graph.steps
    has_search = parsed.format == "searchformer" and any(s.kind in ("create", "close", "unparsed") for s in steps)
    verdicts: list[StepVerdict] = []
    states: dict[int, Any] = {}
    trace_valid = None
    result: dict[str, Any] = {}
    if has_search:
        verdicts, states, result = _replay_with_choices(steps, level, start, strict)
        trace_valid = not any(v.status == "invalid" for v in verdicts)
        notes["n_invalid_steps"] = sum(v.status == "invalid" for v in verdicts)
        if result["ambiguous"]:
            notes["ambiguous_closes"] = len(result["ambiguous"])
            notes["replays_to_resolve_ambiguity"] = result["replays"]

    plan_steps = [s for s in steps if s.kind == "plan"]
    if record.answer.strip() or record.answer_data is not None:
        plan, problem_text = _plan_from_answer(record)
        notes["answer_from"] = "answer"
    elif plan_steps:
        plan, problem_text = _plan_from_steps(plan_steps), None
        notes["answer_from"] = "plan steps at the end of the trace"
    else:
        plan, problem_text = None, "no plan: the answer is empty and the trace has no plan steps"
    if plan is None:
        err: AnswerError | None = AnswerError("unparseable", problem_text or "no plan")
    else:
        err = check_plan(level, start, plan)
    optimum = shortest_plan_moves(level, start)
    notes["optimal_moves"] = optimum
    if plan is not None and err is None and optimum is not None:
        notes["plan_optimal"] = len(plan) - 1 == optimum
    gaps: list[Gap] = []
    if result.get("goal_closed_at") is None and has_search and err is None:
        gaps.append(Gap("answer_not_in_trace", "the trace never closes a goal state, so the plan is not derived by the search"))
    return Replay(step_verdicts=verdicts, answer_correct=err is None, answer_error=err, trace_valid=trace_valid,
                  gaps=gaps, states=states, notes=notes)


def _plan_from_steps(plan_steps: list[Step]) -> list:
    out: list = []
    for s in plan_steps:
        if "state" in s.payload:
            out.append(s.payload["state"])
        else:
            out.append((s.payload["x"], s.payload["y"]))
    return out


def _plan_from_answer(record: TraceRecord) -> tuple[list | None, str | None]:
    data = record.answer_data
    if isinstance(data, list):
        items: list = []
        for v in data:
            st = state_string(v)
            if st is not None:
                items.append(st)
            elif isinstance(v, (list, tuple)) and len(v) == 2:
                items.append((int(v[0]), int(v[1])))
            elif isinstance(v, dict) and "x" in v and "y" in v:
                items.append((int(v["x"]), int(v["y"])))
            else:
                return None, f"answer item {str(v)[:60]!r} is neither a state nor a position"
        return items, None
    steps, errors, _p = scan_sokoban_tokens(record.answer)
    plan = [(s.payload["x"], s.payload["y"]) for s in steps if s.kind == "plan"]
    if errors or not plan:
        return None, f"cannot read the answer {record.answer[:80]!r} as 'plan X Y' steps"
    return plan, None


def check_plan(level: Level, start: State, plan: list) -> AnswerError | None:
    """None when the plan solves the level; else the first illegal move or the unmet goal."""
    if not plan:
        return AnswerError("unparseable", "the plan is empty")
    state = start
    for k, item in enumerate(plan):
        if isinstance(item, str):
            got = parse_state_string(item)
            if isinstance(got, str):
                return AnswerError("unparseable", f"plan step {k + 1}: {got}", step=k + 1)
            lv, target = got
            if lv.walls != level.walls or lv.docks != level.docks:
                return AnswerError("illegal_move", f"plan step {k + 1}: this state's walls or docks differ from the level",
                                   step=k + 1)
            if k == 0:
                if target != start:
                    return AnswerError("illegal_move", "the plan does not start in the level's start state", step=1)
                continue
            if not any(move(level, state, dx, dy) == target != state for _n, dx, dy in DIRECTIONS):
                return AnswerError("illegal_move", f"plan step {k + 1}: no single move leads from "
                                   f"{_describe(level, state)} to {_describe(level, target)}", step=k + 1)
            state = target
            continue
        pos = tuple(item)
        if k == 0:
            if pos != start.worker:
                return AnswerError("illegal_move", f"the plan starts at {_c(pos)}, not at the worker {_c(start.worker)}",
                                   step=1)
            continue
        dx, dy = pos[0] - state.worker[0], pos[1] - state.worker[1]
        if abs(dx) + abs(dy) != 1:
            return AnswerError("illegal_move", f"plan step {k + 1}: {_c(state.worker)} -> {_c(pos)} is not one step",
                               step=k + 1)
        nxt = move(level, state, dx, dy)
        if nxt.worker != pos:
            return AnswerError("illegal_move", f"plan step {k + 1}: the worker cannot move from {_c(state.worker)} "
                               f"to {_c(pos)} (wall, or a box that cannot be pushed)", step=k + 1)
        state = nxt
    if not is_goal(level, state):
        left = ", ".join(_c(b) for b in sorted(unplaced(level, state)))
        return AnswerError("unmet_goal", f"after the plan, boxes are still off docks at {left}", step=len(plan),
                           unmet=[f"box at {_c(b)} on a dock" for b in sorted(unplaced(level, state))])
    return None


def _replay_with_choices(steps: list[Step], level: Level, start: State, strict: bool, budget: int = 40):
    """Replay; when token steps leave a close ambiguous (same worker, same boxes off docks, same
    costs, different docks filled), search the choices for the reading with the latest first error.

    Tokens drop boxes that sit on docks, so two open states can print identically. The default
    choice is the candidate whose following creates are valid; if the trace then fails, the latest
    ambiguous close before the failure is tried with its other candidates (bounded by `budget`).
    """
    choices: dict[int, int] = {}
    best = _replay_steps(steps, level, start, strict, choices)
    tried = 1
    while tried < budget:
        first = _first_invalid(best[0])
        ambig = best[2]["ambiguous"]
        if first is None:
            break
        improved = False
        for at in sorted((a for a in ambig if a < first), reverse=True):
            for option in range(1, ambig[at]):
                if option == choices.get(at, 0) or tried >= budget:
                    continue
                trial = {k: v for k, v in choices.items() if k < at}
                trial[at] = option
                tried += 1
                got = _replay_steps(steps, level, start, strict, trial)
                f2 = _first_invalid(got[0])
                if f2 is None or f2 > first:
                    best, choices, improved = got, trial, True
                    break
            if improved or tried >= budget:
                break
        if not improved:
            break
    best[2]["replays"] = tried
    return best


def _first_invalid(verdicts: list[StepVerdict]) -> int | None:
    return next((v.step for v in verdicts if v.status == "invalid"), None)


def _replay_steps(steps: list[Step], level: Level, start: State, strict: bool, choices: dict[int, int]):
    """SearchFormer A* replay on Sokoban states (same resynchronisation policy as the maze)."""
    open_: dict[State, tuple] = {}
    closed: dict[State, tuple] = {}
    parent: dict[State, State | None] = {}
    errs_at: dict[int, list] = {}
    states: dict[int, Any] = {}
    last: State | None = None
    last_entry: tuple | None = None
    last_step: int | None = None
    started = False
    goal_at: int | None = None
    after_goal_root: int | None = None
    expanding: tuple | None = None
    plan_steps: list[Step] = []
    by_proj: dict[tuple, list[State]] = {}
    ambiguous: dict[int, int] = {}

    def remember(st: State) -> None:
        known = by_proj.setdefault((st.worker, unplaced(level, st)), [])
        if st not in known:
            known.append(st)

    def _fits_next_creates(cand: State, at: int) -> int:
        """How well the creates after step `at` (up to the next close) match the expansion of `cand`:
        tokens cannot tell which dock holds a placed box; the expansion that follows can, through
        which successors are already open or closed (the ones A* must create, and no others)."""
        g = open_[cand][0]
        must = set()
        for child in children(level, cand):
            f = g + 1 + heuristic(level, child)
            o, c = open_.get(child), closed.get(child)
            if not ((o is not None and o[0] + o[1] <= f) or (c is not None and c[0] + c[1] <= f)):
                must.add((child.worker, unplaced(level, child)))
        made = set()
        for nxt in steps[at + 1:]:
            if nxt.kind != "create":
                break
            q = nxt.payload
            made.add((tuple(q["worker"]), frozenset(tuple(b) for b in q["boxes"])))
        return len(must & made) - len(must ^ made)

    def resolve(step: Step, kind: str) -> tuple[State | None, str | None]:
        p = step.payload
        if "state" in p:
            got = parse_state_string(p["state"])
            if isinstance(got, str):
                return None, got
            lv, st = got
            if lv.walls != level.walls or lv.docks != level.docks:
                return st, "mismatch"
            return st, None
        proj = (tuple(p["worker"]), frozenset(tuple(b) for b in p["boxes"]))
        # Several full states can share a projection (which dock holds a placed box); prefer the
        # successor of the expanded state for a create, and the open state with the same costs for a close.
        pool: list[State] = []
        if kind == "create":
            pool = [start] if not started else (children(level, last) if last is not None else [])
            pool += [move(level, last, dx, dy) for _n, dx, dy in DIRECTIONS] if last is not None else []
        else:
            known = by_proj.get(proj, [])
            pool = [c for c in known if open_.get(c, (None, None))[:2] == (p["g"], p["h"])]
            if len(pool) > 1:
                pool.sort(key=lambda c: -_fits_next_creates(c, step.index))
                ambiguous[step.index] = len(pool)
                pick = choices.get(step.index, 0)
                pool = pool[pick:pick + 1] + pool
            pool += [c for c in known if c in open_] + known
        for cand in pool:
            if (cand.worker, unplaced(level, cand)) == proj:
                return cand, None
        placed = frozenset(b for b in (last.boxes if last else start.boxes) if b in level.docks)
        return State(proj[0], proj[1] | placed), None

    for step in steps:
        i, kind = step.index, step.kind
        if kind == "unparsed":
            errs_at[i] = [("syntax_error", step.payload.get("error", "cannot read this step"), None)]
            continue
        if kind == "plan":
            plan_steps.append(step)
            continue
        if kind not in ("create", "close"):
            continue
        g, h = step.payload["g"], step.payload["h"]
        errs: list = []
        if strict and goal_at is not None:
            errs_at[i] = [("step_after_goal", f"{kind} after a goal state was closed at step {goal_at}; A* stops there",
                           after_goal_root)]
            after_goal_root = i if after_goal_root is None else after_goal_root
            continue
        node, problem = resolve(step, kind)
        if node is None:
            errs_at[i] = [("syntax_error", f"unreadable state: {problem}", None)]
            continue
        if problem == "mismatch":
            errs.append(("state_mismatch", f"{kind}: this state's walls or docks differ from the level", None))
        true_h = heuristic(level, node)
        if not started:
            started = True
            if kind == "create" and node == start:
                if strict and g != 0:
                    errs.append(("wrong_g", f"create of the start state with g={g}; the start has g = 0", None))
                if strict and h != true_h:
                    errs.append(("wrong_h", f"create of the start state with h={h}; its heuristic is {true_h:g}", None))
                open_[node] = (g, h, i, i if errs else None)
                parent[node] = None
                remember(node)
                errs_at[i] = errs
                continue
            open_[start] = (0, heuristic(level, start), None, None)
            parent[start] = None
            remember(start)
            if strict:
                errs.append(("start_not_created", "a SearchFormer trace begins with the create of the start state", None))
        if kind == "create":
            direct = last_step if last_entry is not None and last_entry[3] == last_step else None
            if last is None:
                errs.append(("first_create_not_last_closed",
                             "create before any state was closed: A* only creates states while expanding one", None))
            else:
                moved = [move(level, last, dx, dy) for _n, dx, dy in DIRECTIONS]
                if node not in moved or node == last:
                    errs.append(("create_non_successor", f"create {_describe(level, node)}: not one move away from the "
                                 f"state being expanded ({_describe(level, last)}, step {last_step})", None))
                elif not math.isfinite(true_h):
                    errs.append(("create_dead_state", f"create {_describe(level, node)}: a box can no longer be moved "
                                 "(infinite heuristic), so A* drops this state", None))
            oc, oo = closed.get(node), open_.get(node)
            if oc is not None and oo is None and not (strict and g < oc[0]):
                errs.append(("create_already_closed", f"create {_describe(level, node)}: already closed at step {oc[2]} "
                             f"with g={oc[0]}, and this path (g={g}) is not shorter", oc[3]))
            if strict:
                if math.isfinite(true_h) and h != true_h:
                    errs.append(("wrong_h", f"create {_describe(level, node)} c{g} c{h}: h should be {true_h:g}", None))
                if last_entry is not None and g != last_entry[0] + 1:
                    errs.append(("wrong_g", f"create c{g}: g should be {last_entry[0] + 1}, one more than the expanded "
                                 "state's g", direct))
                if oo is not None and oo[0] + oo[1] <= g + h:
                    errs.append(("create_duplicate", f"create {_describe(level, node)}: already open with "
                                 f"f={oo[0] + oo[1]} (step {oo[2]}); A* creates it again only on a cheaper path", oo[3]))
            taint = _taint(errs, i) if errs else direct
            if not any(e[0] in ("create_already_closed", "create_duplicate") for e in errs):
                open_[node] = (g, h, i, taint)
                parent[node] = last
                remember(node)
            errs_at[i] = errs
            continue
        if expanding is not None:
            missing = _missing(level, expanding, open_, closed)
            if missing:
                errs.append(("missing_create", f"the expansion of {_describe(level, expanding[0])} (step {last_step}) "
                             f"ends here without creating {len(missing)} successor state(s): "
                             + "; ".join(_describe(level, m) for m in missing[:3]), expanding[2]))
        expanding = None
        entry = open_.get(node)
        if entry is None:
            why = f"it was already closed at step {closed[node][2]}" if node in closed else "it was never created"
            errs.append(("close_not_in_open_list", f"close {_describe(level, node)}: not in the open list: {why}", None))
        elif (entry[0], entry[1]) != (g, h):
            errs.append(("close_not_in_open_list", f"close {_describe(level, node)} c{g} c{h}: it is open with "
                         f"g={entry[0]}, h={entry[1]:g} (step {entry[2]})", entry[3]))
            del open_[node]
        else:
            best = min(open_.items(), key=lambda kv: kv[1][0] + kv[1][1])
            if g + h > best[1][0] + best[1][1]:
                errs.append(("close_not_lowest_f_value", f"close with f = {g + h:g}, but {_describe(level, best[0])} "
                             f"is open with f = {best[1][0] + best[1][1]:g}", entry[3] if entry[3] is not None else best[1][3]))
            del open_[node]
        taint = _taint(errs, i) if errs else (entry[3] if entry else None)
        closed[node] = (g, h, i, taint)
        remember(node)
        last, last_entry, last_step = node, closed[node], i
        if is_goal(level, node):
            goal_at = i
        elif strict:
            expanding = (node, g, taint)
        errs_at[i] = errs
        states[i] = {"open": len(open_), "closed": len(closed)}

    if goal_at is None:
        where = next((s.index for s in reversed(steps) if s.kind in ("create", "close", "unparsed")), None)
        if where is not None:
            errs_at.setdefault(where, []).append(("goal_not_reached", "the search ends here without closing a goal state", None))
    elif plan_steps:
        node = next((n for n, e in closed.items() if e[2] == goal_at), None)
        chain: list[State] = []
        while node is not None and node not in chain:
            chain.append(node)
            node = parent.get(node)
        chain.reverse()
        as_states = "state" in plan_steps[0].payload
        want = chain if as_states else [c.worker for c in chain]
        got: list = []
        for s in plan_steps:
            if "state" in s.payload:
                parsed_state = parse_state_string(s.payload["state"])
                got.append(None if isinstance(parsed_state, str) else parsed_state[1])
            else:
                got.append((s.payload["x"], s.payload["y"]))
        k = next((j for j in range(min(len(got), len(want))) if got[j] != want[j]), None)
        if k is None and len(got) != len(want):
            k = min(len(got), len(want))
        if k is not None and (strict or len(got) != len(want)):
            at = plan_steps[min(k, len(plan_steps) - 1)].index
            rule = "plan_not_from_trace" if strict else "plan_length_mismatch"
            errs_at.setdefault(at, []).append((rule, f"the plan leaves the path the trace's parent pointers give at plan "
                                               f"step {k + 1} ({len(got)} plan steps, {len(want)} on the path)", None))
    verdicts = []
    for step in steps:
        if step.kind == "prompt":
            continue
        errs = errs_at.get(step.index)
        if not errs:
            verdicts.append(StepVerdict(step.index, "valid"))
            continue
        roots = [e for e in errs if e[2] is None]
        primary = roots[0] if roots else errs[0]
        message = primary[1] + ("; also " + "; ".join(f"{e[0]}: {e[1]}" for e in errs if e is not primary)
                                if len(errs) > 1 else "")
        verdicts.append(StepVerdict(step.index, "invalid", primary[0], message,
                                    consequence_of=None if roots else min(e[2] for e in errs)))
        states.setdefault(step.index, {})["violations"] = [e[0] for e in errs]
    return verdicts, states, {"goal_closed_at": goal_at, "ambiguous": ambiguous}


def _taint(errs: list, i: int) -> int | None:
    if any(e[2] is None for e in errs):
        return i
    return min(e[2] for e in errs)


def _missing(level: Level, expanding: tuple, open_: dict, closed: dict) -> list[State]:
    """Successors SearchFormer's A* had to create when expanding (state, g) but that are not open."""
    node, g, _taint_ = expanding
    out = []
    for child in children(level, node):
        cf = g + 1 + heuristic(level, child)
        o, c = open_.get(child), closed.get(child)
        if (o is not None and o[0] + o[1] <= cf) or (c is not None and c[0] + c[1] <= cf):
            continue
        out.append(child)
    return out


DOMAIN = DomainSpec(
    name="sokoban",
    version=VERSION,
    description="SearchFormer Sokoban: A* traces over level states replayed; plans simulated.",
    replay=replay,
    step_state=step_state,
    picture="sokoban_level",
)
