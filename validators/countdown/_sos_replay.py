"""Replay of a Stream-of-Search Countdown log, step by step.

Rules come from the SoS generator and checker (kanishkg/stream-of-search @44f2830a1f91:
src/countdown_dfs.py::dfs, src/countdown_bfs.py::bfs, src/countdown_utils.py::combine_nums and
SearchTree.parse_search_trajectory). Rule ids carry the checker's error bucket as their prefix
(arithmetic_ / exploration_ / formatting_ / other_), so its four-bucket statistics can be
recomputed from our verdicts.

Each step is judged on what the log itself said before it (the node's numbers as its
"Generated Node" line gave them), so one slip is reported once, where it happens, and does not
turn every later step red. The goal claim is the exception: it is checked against an exact
replay of the whole path from the given numbers, because that is what "goal reached" asserts.

Deliberate differences from SearchTree.parse_search_trajectory (stricter, each its own rule):
* numbers are removed one copy at a time (the checker removes every copy of a used value);
* a generated id must be the next child of the node being explored (the checker only asks that
  its parent exists);
* `Current State` lines, `Moving to Node` targets and target comparisons are checked (the checker
  reads them only loosely through regexes).
One leniency, to accept the generator's own BFS output: bfs() pushes one-number children
(shown only as "unequal: No Solution", never as "Generated Node") onto its heap and may later
print "Moving to Node #<parent>,<k>" for them, an id that was never generated. Such a move is
accepted when it goes to a child of a node that had one-number outcomes, and the `Current State`
that follows must then be one of those outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from core.steps import StepGraph
from core.verdicts import StepVerdict
from validators.countdown.solver import multiset_minus, same_multiset
from validators.exact_arithmetic import Operation, fmt_num, parse_operation

NodeId = tuple[int, ...]


@dataclass
class _Node:
    id: NodeId
    numbers: list[int] | None
    ops: list[str]
    step: int | None
    children: int = 0
    leaf_outcomes: list[tuple[int, str]] = field(default_factory=list)
    leaf_of: NodeId | None = None
    explore_step: int | None = None


@dataclass
class _Pending:
    step: int
    op: Operation | None
    op_text: str
    numbers: list[int] | None
    result: int | None


@dataclass
class LogReplay:
    verdicts: dict[int, StepVerdict] = field(default_factory=dict)
    states: dict[int, Any] = field(default_factory=dict)
    goal_step: int | None = None
    goal_path: list[str] | None = None
    goal_path_error: str | None = None
    false_claims: list[int] = field(default_factory=list)
    exhausted: bool = False
    notes: dict[str, Any] = field(default_factory=dict)


class _Checks:
    """Collects the failed checks of one step; the first one names the rule."""

    def __init__(self) -> None:
        self.failed: list[tuple[str, str, Any, Any]] = []
        self.consequence_of: int | None = None

    def fail(self, rule: str, message: str, expected: Any = None, found: Any = None) -> None:
        self.failed.append((rule, message, expected, found))

    def verdict(self, step: int) -> StepVerdict:
        if not self.failed:
            return StepVerdict(step, "valid")
        rule, message, expected, found = self.failed[0]
        if len(self.failed) > 1:
            message += "; also: " + "; ".join(f[1] for f in self.failed[1:])
        return StepVerdict(step, "invalid", rule, message, expected, found, self.consequence_of)


def _fmt_id(node: NodeId | None) -> str:
    return "#" + ",".join(map(str, node)) if node else "#?"


class Replayer:
    def __init__(self, graph: StepGraph, numbers: list[int] | None, target: int | None) -> None:
        self.graph = graph
        self.numbers = numbers
        self.target = target
        self.nodes: dict[NodeId, _Node] = {}
        self.current: _Node | None = None
        self.pending: _Pending | None = None
        self.unknown_move: int | None = None
        self.out = LogReplay()

    # ------------------------------------------------------------------ helpers
    def _set(self, idx: int, checks: _Checks) -> None:
        self.out.verdicts[idx] = checks.verdict(idx)

    def _flag_missing_outcome(self) -> None:
        if self.pending is None:
            return
        idx = self.pending.step
        prev = self.out.verdicts.get(idx)
        if prev is None or prev.status == "valid":
            self.out.verdicts[idx] = StepVerdict(
                idx, "invalid", "formatting_missing_outcome",
                "this operation is never followed by its outcome (a 'Generated Node' line or a "
                "comparison with the target)")
        self.pending = None

    def _check_target(self, checks: _Checks, shown: int | None, where: str) -> None:
        if shown is not None and self.target is not None and shown != self.target:
            checks.fail("other_wrong_target", f"{where} shows target {shown}, but the target is {self.target}",
                        self.target, shown)

    def _true_path_value(self, ops: list[str]) -> tuple[list[Fraction] | None, str | None]:
        """Replay `ops` exactly from the given numbers; (final numbers, first problem)."""
        if self.numbers is None:
            return None, "the given numbers are unknown"
        have: list[Fraction] = [Fraction(n) for n in self.numbers]
        for k, text in enumerate(ops, start=1):
            op = parse_operation(text)
            if op is None:
                return None, f"operation {k} '{text}' cannot be read"
            rest, missing = multiset_minus(have, [Fraction(op.a), Fraction(op.b)])
            if missing:
                return None, f"operation {k} '{text}' uses {fmt_num(missing[0])}, which is not available"
            value = op.true_value()
            if value is None:
                return None, f"operation {k} '{text}' divides by zero"
            if value != op.c:
                return None, f"operation {k} '{text}' is false: {op.a}{op.op}{op.b} = {fmt_num(value)}"
            have = rest + [value]
        return have, None

    # ------------------------------------------------------------------ steps
    def run(self) -> LogReplay:
        done = False
        for step in self.graph:
            idx = step.index
            if done:
                self.out.verdicts[idx] = StepVerdict(
                    idx, "unchecked", None,
                    "after 'Goal Reached'; the search ends there (the SoS checker stops reading at it)")
                continue
            handler = getattr(self, f"_on_{step.kind}", None)
            if handler is None:
                self.out.verdicts[idx] = StepVerdict(idx, "unchecked", None, f"step kind {step.kind!r} is not replayed")
                continue
            handler(idx, step.payload)
            if step.kind == "goal":
                done = True
        if not done:
            self._flag_missing_outcome()
        return self.out

    def _on_unparsed(self, idx: int, payload: dict) -> None:
        self.out.verdicts[idx] = StepVerdict(
            idx, "invalid", "formatting_unparseable_line",
            "this line is none of the Stream-of-Search log lines (Current State, Exploring Operation, "
            "Generated Node, Moving to Node, a comparison with the target)")

    def _on_state(self, idx: int, payload: dict) -> None:
        self._flag_missing_outcome()
        checks = _Checks()
        nums, ops = payload.get("numbers"), payload.get("operations")
        if nums is None:
            checks.fail("formatting_unparseable_numbers", "the number list cannot be read")
        if ops is None:
            checks.fail("formatting_unparseable_operations", "the operations list cannot be read")
        if self.current is None:
            self._root(idx, payload, checks)
        else:
            self._check_target(checks, payload.get("target"), "the state")
            node = self.current
            if self.unknown_move is not None:
                checks.consequence_of = self.unknown_move
                if node.numbers is None and nums is not None:
                    node.numbers = list(nums)
                    node.ops = list(ops or [])
            elif node.leaf_of is not None:
                parent = self.nodes[node.leaf_of]
                outcomes = [(r, op) for r, op in parent.leaf_outcomes
                            if nums is not None and same_multiset(nums, [r]) and (ops or [])[-1:] == [op]]
                if nums is not None and ops is not None and (not outcomes or ops[:-1] != parent.ops):
                    checks.fail("other_state_mismatch",
                                f"node {_fmt_id(node.id)} was never generated; it can only be one of the "
                                f"one-number outcomes explored at {_fmt_id(parent.id)}, and this state is none of them",
                                [[r] for r, _ in parent.leaf_outcomes], nums)
                elif outcomes:
                    node.numbers, node.ops = [outcomes[0][0]], list(ops)
            else:
                if nums is not None and node.numbers is not None and not same_multiset(nums, node.numbers):
                    checks.fail("other_state_mismatch",
                                f"node {_fmt_id(node.id)} holds {node.numbers}, but the state lists {nums}",
                                node.numbers, nums)
                if ops is not None and ops != node.ops:
                    checks.fail("other_state_mismatch",
                                f"the operations that lead to node {_fmt_id(node.id)} are {node.ops}, "
                                f"but the state lists {ops}", node.ops, ops)
        self._set(idx, checks)
        if self.current is not None:
            self.out.states[idx] = {"node": _fmt_id(self.current.id), "numbers": self.current.numbers,
                                    "operations": self.current.ops}

    def _root(self, idx: int, payload: dict, checks: _Checks) -> None:
        nums = payload.get("numbers")
        if self.target is None:
            self.target = payload.get("target")
        else:
            self._check_target(checks, payload.get("target"), "the initial state")
        if self.numbers is None:
            self.numbers = list(nums) if nums is not None else None
        elif nums is not None and not same_multiset(nums, self.numbers):
            checks.fail("other_state_mismatch", f"the initial state lists {nums}, but the given numbers are "
                        f"{self.numbers}", self.numbers, nums)
        if payload.get("operations"):
            checks.fail("other_state_mismatch", "the initial state must have no operations",
                        [], payload.get("operations"))
        root = _Node((0,), list(self.numbers) if self.numbers is not None else None, [], idx)
        self.nodes[root.id] = root
        self.current = root

    def _need_current(self, idx: int) -> bool:
        if self.current is None:
            self.out.verdicts[idx] = StepVerdict(
                idx, "invalid", "formatting_missing_initial_state",
                "the log must start with a 'Current State' line giving the target and the numbers")
            return False
        return True

    def _on_explore(self, idx: int, payload: dict) -> None:
        self._flag_missing_outcome()
        if not self._need_current(idx):
            return
        checks = _Checks()
        checks.consequence_of = self.unknown_move
        node = self.current
        text = payload.get("operation", "")
        op = parse_operation(text)
        shown = payload.get("numbers")
        if op is None:
            checks.fail("formatting_unparseable_operation", f"'{text}' is not an operation of the form a+b=c")
        else:
            value = op.true_value()
            if value is None:
                checks.fail("arithmetic_division_by_zero", f"{op.text}: division by zero", None, op.c)
            elif value != op.c:
                checks.fail("arithmetic_wrong_result", f"{op.a}{op.op}{op.b} is {fmt_num(value)}, not {op.c}",
                            fmt_num(value), op.c)
            have = node.numbers
            if have is not None:
                rest, missing = multiset_minus(have, [op.a, op.b])
                if missing:
                    which = " and ".join(str(m) for m in missing)
                    checks.fail("other_operand_unavailable",
                                f"{op.text} uses {which}, but the current numbers are {have}", have, [op.a, op.b])
                elif shown is not None and not same_multiset(shown, rest + [op.c]):
                    checks.fail("other_wrong_remaining_numbers",
                                f"after {op.text} the numbers are {rest + [op.c]}, but the log says {shown}",
                                rest + [op.c], shown)
        if shown is None:
            checks.fail("formatting_unparseable_numbers", "the resulting number list cannot be read")
        self._set(idx, checks)
        self.pending = _Pending(idx, op, text, shown, op.c if op else None)
        self.out.states[idx] = {"node": _fmt_id(node.id), "numbers": node.numbers, "operation": text,
                                "resulting": shown}

    def _take_pending(self, idx: int, checks: _Checks, what: str) -> _Pending | None:
        pending = self.pending
        self.pending = None
        if pending is None:
            checks.fail("formatting_missing_exploration", f"{what} without an 'Exploring Operation' line before it")
        return pending

    def _on_generate(self, idx: int, payload: dict) -> None:
        if not self._need_current(idx):
            return
        checks = _Checks()
        checks.consequence_of = self.unknown_move
        pending = self._take_pending(idx, checks, "a generated node")
        node_id: NodeId | None = payload.get("node")
        cur = self.current
        nums = payload.get("numbers")
        self._check_target(checks, payload.get("target"), "the generated node")
        if nums is None:
            checks.fail("formatting_unparseable_numbers", "the node's number list cannot be read")
        if node_id is None:
            checks.fail("formatting_unparseable_node_id", "the node id cannot be read")
        else:
            parent_id = node_id[:-1]
            if node_id[0] != 0 or len(node_id) < 2:
                checks.fail("exploration_bad_node_id", f"node ids are paths from the root #0; {_fmt_id(node_id)} is not")
            elif parent_id not in self.nodes:
                checks.fail("exploration_unknown_parent",
                            f"node {_fmt_id(node_id)} hangs under {_fmt_id(parent_id)}, which was never generated "
                            "(the search jumps steps)", _fmt_id(cur.id + (cur.children,)), _fmt_id(node_id))
            elif parent_id != cur.id:
                checks.fail("exploration_wrong_parent",
                            f"node {_fmt_id(node_id)} is generated while exploring {_fmt_id(cur.id)}; "
                            f"its id must start with {_fmt_id(cur.id)}",
                            _fmt_id(cur.id + (cur.children,)), _fmt_id(node_id))
            elif node_id in self.nodes:
                checks.fail("exploration_duplicate_node", f"node {_fmt_id(node_id)} was already generated")
            elif node_id[-1] != cur.children:
                checks.fail("exploration_id_out_of_sequence",
                            f"the next child of {_fmt_id(cur.id)} is {_fmt_id(cur.id + (cur.children,))}, "
                            f"not {_fmt_id(node_id)}", _fmt_id(cur.id + (cur.children,)), _fmt_id(node_id))
        op_text = payload.get("operation", "")
        if pending is not None:
            if nums is not None and pending.numbers is not None and not same_multiset(nums, pending.numbers):
                checks.fail("other_generated_mismatch",
                            f"the explored operation left {pending.numbers}, but the node holds {nums}",
                            pending.numbers, nums)
            if op_text != pending.op_text:
                checks.fail("other_generated_mismatch",
                            f"the explored operation was {pending.op_text}, but the node says {op_text}",
                            pending.op_text, op_text)
        if node_id is not None and node_id not in self.nodes:
            self.nodes[node_id] = _Node(node_id, list(nums) if nums is not None else None, cur.ops + [op_text], idx,
                                        explore_step=pending.step if pending is not None else None)
            if node_id[:-1] == cur.id:
                cur.children += 1
        self._set(idx, checks)
        self.out.states[idx] = {"node": _fmt_id(node_id), "numbers": nums, "operations": cur.ops + [op_text]}

    def _compare(self, idx: int, payload: dict, goal: bool) -> None:
        if not self._need_current(idx):
            return
        checks = _Checks()
        checks.consequence_of = self.unknown_move
        pending = self._take_pending(idx, checks, "a comparison with the target")
        r, shown_target = payload.get("result"), payload.get("target")
        self._check_target(checks, shown_target, "the comparison")
        cur = self.current
        if pending is not None:
            if pending.result is not None and r != pending.result:
                checks.fail("other_compare_wrong_number",
                            f"the explored operation gives {pending.result}, but {r} is compared", pending.result, r)
            if pending.numbers is not None and len(pending.numbers) > 1:
                if goal:
                    checks.fail("other_goal_numbers_left",
                                f"goal claimed while {pending.numbers} are still left; the goal is one number "
                                "equal to the target", [self.target], pending.numbers)
                else:
                    checks.fail("exploration_premature_comparison",
                                f"compared with the target while {pending.numbers} are still left "
                                "(a node with more than one number is generated, not compared)")
        if goal and r is not None and shown_target is not None and r != shown_target:
            checks.fail("other_false_goal_claim", f"'{r},{shown_target} equal' is false: {r} is not {shown_target}",
                        "unequal", "equal")
        if not goal and r is not None and shown_target is not None and r == shown_target:
            checks.fail("other_wrong_comparison",
                        f"'{r},{shown_target} unequal' is false: the target was reached and not recognised",
                        "equal", "unequal")
        if goal:
            path = cur.ops + ([pending.op_text] if pending is not None else [])
            final, problem = self._true_path_value(path)
            self.out.goal_step, self.out.goal_path = idx, path
            if problem is None and final is not None and self.target is not None:
                if len(final) != 1 or final[0] != self.target:
                    problem = f"the path ends with {[fmt_num(v) for v in final]}, not [{self.target}]"
            self.out.goal_path_error = problem
            if problem is not None and not checks.failed:
                first_bad = self._first_bad_on_path(cur, pending)
                checks.fail("other_false_goal_claim",
                            f"the target is not really reached: {problem}", self.target, None)
                checks.consequence_of = first_bad
            if checks.failed:
                self.out.false_claims.append(idx)
        elif pending is not None and pending.numbers is not None and len(pending.numbers) == 1:
            cur.leaf_outcomes.append((pending.numbers[0], pending.op_text))
        if not goal and any(f[0] == "other_wrong_comparison" for f in checks.failed):
            self.out.false_claims.append(idx)
        self._set(idx, checks)
        self.out.states[idx] = {"node": _fmt_id(cur.id), "result": r, "target": self.target}

    def _first_bad_on_path(self, cur: _Node, pending: _Pending | None) -> int | None:
        """The earliest invalid step among those that built the goal path (for consequence_of)."""
        steps: list[int] = [pending.step] if pending is not None else []
        node: _Node | None = cur
        while node is not None:
            steps += [s for s in (node.step, node.explore_step) if s is not None]
            node = self.nodes.get(node.id[:-1]) if len(node.id) > 1 else None
        bad = [s for s in steps if (v := self.out.verdicts.get(s)) is not None and v.status == "invalid"]
        return min(bad) if bad else None

    def _on_compare(self, idx: int, payload: dict) -> None:
        self._compare(idx, payload, goal=False)

    def _on_goal(self, idx: int, payload: dict) -> None:
        self._compare(idx, payload, goal=True)

    def _on_move(self, idx: int, payload: dict) -> None:
        self._flag_missing_outcome()
        if not self._need_current(idx):
            return
        checks = _Checks()
        node_id: NodeId | None = payload.get("node")
        self.unknown_move = None
        if node_id is None:
            checks.fail("formatting_unparseable_node_id", "the node id cannot be read")
            self.unknown_move = idx
            self.current = _Node((), None, [], None)
        elif node_id in self.nodes:
            self.current = self.nodes[node_id]
        elif node_id[:-1] in self.nodes and self.nodes[node_id[:-1]].leaf_outcomes:
            self.current = _Node(node_id, None, [], None, leaf_of=node_id[:-1])
        else:
            checks.fail("exploration_move_to_unknown_node",
                        f"node {_fmt_id(node_id)} was never generated; a search can only move to a node it generated")
            self.unknown_move = idx
            self.current = _Node(node_id, None, [], None)
        self._set(idx, checks)
        self.out.states[idx] = {"node": _fmt_id(node_id)}

    def _on_exhausted(self, idx: int, payload: dict) -> None:
        self._flag_missing_outcome()
        self.out.exhausted = True
        self.out.verdicts[idx] = StepVerdict(idx, "valid")


def replay_log(graph: StepGraph, numbers: list[int] | None, target: int | None) -> LogReplay:
    return Replayer(graph, numbers, target).run()
