"""The pure judge: an assertion, the state it speaks of and the action schema -> holds and a
message that names the fact (VAL's STRIPS semantics: preconditions in the state before the
action, delete effects then add effects)."""

from __future__ import annotations

from validators.planning.strips import Atom, GroundAction, Literal, Task, unmet_goals, unmet_preconditions
from validators.planning.vocab import Vocabulary


def atom_name(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def literals(lits: list[Literal]) -> str:
    return ", ".join(("" if lit.positive else "not ") + atom_name(lit.atom) for lit in lits)


class Judge:
    def __init__(self, task: Task, vocab: Vocabulary) -> None:
        self.task = task
        self.vocab = vocab

    def named(self, atom: Atom) -> str:
        words = self.vocab.atom_nl(atom)
        return atom_name(atom) if words.lower() == " ".join(atom).lower() else f"{atom_name(atom)} ({words})"

    def state(self, state: frozenset[Atom], atom: Atom, positive: bool, where: str) -> tuple[bool, str]:
        holds = (atom in state) == positive
        if holds:
            return True, f"{self.named(atom)} {'holds' if positive else 'does not hold'} {where}: right"
        if positive:
            return False, f"says {self.named(atom)} holds {where}, but it does not hold"
        return False, f"says {self.named(atom)} does not hold {where}, but it holds"

    def state_any(self, state: frozenset[Atom], predicate: str, positive: bool, where: str) -> tuple[bool, str]:
        """"Pain" / "no Province" in a state list: some fact of the predicate holds, or none."""
        have = sorted(a for a in state if a[0] == predicate)
        if bool(have) == positive:
            return True, f"{'some' if positive else 'no'} {predicate} fact holds {where}: right"
        if positive:
            return False, f"says some {predicate} fact holds {where}, but none does"
        return False, f"says no {predicate} fact holds {where}, but {', '.join(map(atom_name, have))} " \
                      f"{'holds' if len(have) == 1 else 'hold'}"

    def effect(self, action: GroundAction, atom: Atom, what: str) -> tuple[bool, str]:
        adds = ", ".join(map(atom_name, sorted(action.add))) or "nothing"
        dels = ", ".join(map(atom_name, sorted(action.delete))) or "nothing"
        if what == "add":
            if atom in action.add:
                return True, f"{action.text()} adds {self.named(atom)}: right"
            return False, f"{action.text()} does not add {self.named(atom)}; it adds {adds}"
        if atom in action.delete:
            return True, f"{action.text()} removes {self.named(atom)}: right"
        return False, f"{action.text()} does not remove {self.named(atom)}; it removes {dels}"

    def effect_any(self, action: GroundAction, predicate: str, what: str) -> tuple[bool, str]:
        """"- Pain removed." under a step: the predicate named without its objects, so the claim is
        that the step adds (removes) some fact of it; which object is not read."""
        made = sorted(a for a in (action.add if what == "add" else action.delete) if a[0] == predicate)
        verb = "adds" if what == "add" else "removes"
        if made:
            return True, f"{action.text()} {verb} a {predicate} fact ({', '.join(map(atom_name, made))}): right"
        listed = ", ".join(map(atom_name, sorted(action.add if what == "add" else action.delete))) or "nothing"
        return False, f"says {action.text()} {verb} a {predicate} fact, but it {verb} {listed}"

    def needs(self, action: GroundAction, atom: Atom) -> tuple[bool, str]:
        """A fact said to be among the action's preconditions ("Attack b requires Planet c")."""
        pre = sorted(lit.atom for lit in action.pre if lit.positive)
        if atom in pre:
            return True, f"{action.text()} needs {self.named(atom)}: right"
        return False, f"says {action.text()} needs {self.named(atom)}, but it needs " + ", ".join(map(self.named, pre))

    def applicable(self, action: GroundAction, pre: frozenset[Atom], positive: bool) -> tuple[bool, str]:
        unmet = unmet_preconditions(action, pre)
        if positive:
            if not unmet:
                return True, f"{action.text()} can be done: right"
            return False, (f"presents {action.text()} as doable, but {literals(unmet)} "
                           f"{'does' if len(unmet) == 1 else 'do'} not hold")
        if unmet:
            return True, f"{action.text()} cannot be done ({literals(unmet)} missing): right"
        return False, f"says {action.text()} cannot be done, but all its preconditions hold"

    def some_applicable(self, name: str, state: frozenset[Atom]) -> tuple[bool, str]:
        """An action named without its objects, said doable: is any grounding applicable?"""
        from validators.planning.search import ground_all

        fitting = [g for g in ground_all(self.task) if g.schema.name == name and not unmet_preconditions(g, state)]
        if fitting:
            return True, f"{name} can be done ({fitting[0].text()}): right"
        return False, f"says {name} can be done, but no {name} is applicable in this state"

    def goal(self, actions: list[GroundAction], unmet: list[Literal]) -> tuple[bool, str]:
        where = "after " + ", ".join(a.text() for a in actions)
        if not unmet:
            return True, f"the goal holds {where}: right"
        return False, f"says the goal holds {where}, but {literals(unmet)} {'does' if len(unmet) == 1 else 'do'} not"

    def plan(self, line) -> tuple[bool, str]:  # noqa: ANN001 - a LineOfReasoning
        failed = None
        if line.broken is not None:
            bad = line.actions[line.broken]
            failed = (line.broken, bad, unmet_preconditions(bad, line.states[line.broken]))
        plan = ", ".join(a.text() for a in line.actions)
        verdict = self.plan_outcome(plan, failed, line.state, "", negative=False, judge_goal=True)
        assert verdict is not None  # judge_goal: always decided
        return verdict

    def plan_outcome(self, plan: str, failed: tuple[int, GroundAction, list[Literal]] | None,
                     end: frozenset[Atom], where: str, negative: bool, judge_goal: bool) -> tuple[bool, str] | None:
        """A plan (`plan`, its actions as the message shows them) said to work (`negative`: not to)
        from somewhere (`where`, for the message): `failed` (index, action, unmet needs) its first
        action that could not be done, `end` the state it reached otherwise. A plan that runs but
        misses the goal is judged only when `judge_goal` (the words speak of the whole plan); else
        None."""
        said = f"the plan ({plan})" + (f" {where}" if where else "")
        unmet = unmet_goals(self.task.problem, end) if failed is None else []
        if negative:
            if failed is not None or unmet:
                return True, f"says {said} does not work: right"
            return False, f"says {said} does not work, but it reaches the goal"
        if failed is not None:
            k, bad, missing = failed
            return False, (f"says {said} works, but step {k + 1}, {bad.text()}, cannot be done: "
                           f"{literals(missing)} {'does' if len(missing) == 1 else 'do'} not hold")
        if unmet:
            if not judge_goal:
                return None
            return False, f"says {said} works, but it ends without the goal: {literals(unmet)}"
        return True, f"{said} reaches the goal: right"

    def rule(self, action: str, predicate: str, what: str) -> tuple[bool | None, str]:
        """A rule stated in general ("Overcome needs Pain", "after Feast, you get Pain"), judged on
        the predicate against the action's schema; which object it is of is not read."""
        schema = self.task.domain.actions.get(action)
        if schema is None:
            return None, f"no action {action}"
        if what == "req":
            preds = {lit.atom[0] for lit in schema.pre if lit.positive}
            verb = "needs"
        elif what == "add":
            preds = {a[0] for a in schema.add}
            verb = "adds"
        else:
            preds = {a[0] for a in schema.delete}
            verb = "removes"
        if predicate in preds:
            return True, f"{action} {verb} a {predicate} fact: right"
        listed = ", ".join(sorted(preds)) or "nothing"
        return False, f"says {action} {verb} {predicate}, but it {verb} {listed}"

    def changes_both(self, action: str, predicate: str) -> bool:
        """Does `action` both add and remove facts of `predicate` (Overcome: Province of one object
        added, of the other removed)? Then a rule that names the predicate alone is ambiguous."""
        schema = self.task.domain.actions.get(action)
        return schema is not None and any(a[0] == predicate for a in schema.add) \
            and any(a[0] == predicate for a in schema.delete)

    def rule_after(self, action: str, predicate: str, positive: bool) -> tuple[bool | None, str]:
        """A fact of `predicate` said to hold (`positive`) or not after `action`, in general: decided
        only where the action adds it or removes it (and not both)."""
        schema = self.task.domain.actions.get(action)
        if schema is None:
            return None, f"no action {action}"
        added = any(a[0] == predicate for a in schema.add)
        removed = any(a[0] == predicate for a in schema.delete)
        if added and removed:
            return None, f"{action} both adds and removes {predicate}: which object is meant is not said"
        if not (added or removed):
            return None, f"{action} does not touch {predicate}: it depends on the state"
        said = "holds" if positive else "does not hold"
        if added == positive:
            return True, f"{predicate} {said} after {action}: right"
        return False, f"says {predicate} {said} after {action}, but {action} {'adds' if added else 'removes'} it"

    def rule_denied(self, action: str, predicate: str, what: str) -> tuple[bool | None, str]:
        """A rule stated as a denial ("picking up doesn't need it to be clear"): the converse of `rule`."""
        holds, msg = self.rule(action, predicate, what)
        if holds is None:
            return None, msg
        verb = {"req": "need", "add": "add", "del": "remove"}[what]
        if holds:
            return False, f"says {action} does not {verb} {predicate}, but it does: {msg.split(':')[0]}"
        return True, f"{action} does not {verb} {predicate}: right"


OMISSION_DEPTH = 2  # an outline leaves out one or two steps ("Then stack blue on red" with no pick-up)


def omitted_steps(task: Task, state: frozenset[Atom], action: GroundAction) -> list[GroundAction]:
    """The shortest run of at most OMISSION_DEPTH actions after which `action` can be done in
    `state`, or [] when there is none: a failing step that such a run would fix may be a step the
    walk left unsaid, not a misread rule, so a verdict on it is not judged."""
    from validators.planning.search import ground_all
    from validators.planning.strips import apply

    frontier: list[tuple[frozenset[Atom], list[GroundAction]]] = [(state, [])]
    seen = {state}
    for _ in range(OMISSION_DEPTH):
        nxt: list[tuple[frozenset[Atom], list[GroundAction]]] = []
        for st, path in frontier:
            for g in ground_all(task):
                if unmet_preconditions(g, st):
                    continue
                after = apply(g, st)
                if after in seen:
                    continue
                if not unmet_preconditions(action, after):
                    return path + [g]
                seen.add(after)
                nxt.append((after, path + [g]))
        frontier = nxt
    return []


def schema_facts(task: Task, action: str, what: str) -> tuple[list[Atom], str]:
    """The schema's facts a rule speaks of ("req": positive preconditions, "add", "del"), over its
    parameters, and the verb that names them."""
    schema = task.domain.actions[action]
    if what == "req":
        return [lit.atom for lit in schema.pre if lit.positive], "needs"
    if what == "add":
        return list(schema.add), "adds"
    return list(schema.delete), "removes"


def bound_rule(task: Task, action: str, atom: Atom, params: tuple[str, ...], what: str,
               names: dict[str, str]) -> tuple[bool, str]:
    """A rule stated with variables ("Let's say Feast x from y. So, after Feast, Pain y is
    added"): the fact's variables stand for the action's parameters (`params`, in the fact's
    order), and the fact, so bound, is judged against the schema's adds, deletes or needs.
    `names` maps a parameter back to the variable the text used, for the message."""
    schema = task.domain.actions[action]
    pool, verb = schema_facts(task, action, what)
    said = (atom[0], *params)

    def shown(a: Atom) -> str:
        return "(" + " ".join([a[0], *(names.get(x, x) for x in a[1:])]) + ")"

    head = f"{action} {' '.join(names.get(p, p) for p in schema.params)}"
    if said in pool:
        return True, f"{head} {verb} {shown(said)}: right"
    listed = ", ".join(shown(a) for a in pool) or "nothing"
    return False, f"says {head} {verb} {shown(said)}, but it {verb} {listed}"
