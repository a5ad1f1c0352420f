"""A STRIPS task (typing, negative preconditions, equality) and the sequential plan semantics
of VAL (KCL-Planning/VAL, `Validate`; reference-semantics.md section 4.2).

Atoms are lower-case tuples `("on", "a", "b")`; a state is a frozenset of atoms under the
closed-world assumption. Action schemas are grounded on demand, one plan step at a time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable

Atom = tuple[str, ...]


def atom_text(atom: Atom) -> str:
    """PDDL text of an atom, as VAL prints it: `(on a b)`, `(handempty)`."""
    return "(" + " ".join(atom) + ")"


@dataclass(frozen=True)
class Literal:
    """A precondition or goal literal; `atom` may hold `?variables` inside a schema."""

    atom: Atom
    positive: bool = True

    def text(self) -> str:
        return atom_text(self.atom) if self.positive else f"(not {atom_text(self.atom)})"


@dataclass(frozen=True)
class ActionSchema:
    name: str
    params: tuple[str, ...]
    param_types: tuple[str, ...]
    pre: tuple[Literal, ...]
    equalities: tuple[tuple[str, str, bool], ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]

    @property
    def arity(self) -> int:
        return len(self.params)

    def signature(self) -> str:
        return f"({self.name} {' '.join(self.params)})".replace(" )", ")")


@dataclass(frozen=True)
class Domain:
    name: str
    requirements: frozenset[str]
    types: dict[str, str]
    constants: dict[str, str]
    predicates: dict[str, int]
    actions: dict[str, ActionSchema]
    notes: tuple[str, ...] = ()

    @functools.cached_property
    def typed(self) -> bool:
        return any(t != "object" for t in self.types) or any(
            t != "object" for a in self.actions.values() for t in a.param_types)

    @property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action changes (logistics' OBJ, TRUCK, in-city ...)."""
        changed = {a[0] for s in self.actions.values() for a in (*s.add, *s.delete)}
        return frozenset(p for p in self.predicates if p not in changed)

    def is_subtype(self, child: str, parent: str) -> bool:
        seen = set()
        while child not in seen:
            if child == parent or parent == "object":
                return True
            seen.add(child)
            child = self.types.get(child, "object")
        return False


@dataclass(frozen=True)
class Problem:
    name: str
    domain_name: str
    objects: dict[str, str]
    init: frozenset[Atom]
    goal: tuple[Literal, ...]
    goal_equalities: tuple[tuple[str, str, bool], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class GroundAction:
    schema: ActionSchema
    args: tuple[str, ...]
    pre: tuple[Literal, ...]
    equalities: tuple[tuple[str, str, bool], ...]
    add: frozenset[Atom]
    delete: frozenset[Atom]

    @property
    def name(self) -> str:
        return self.schema.name

    def text(self) -> str:
        return self._text

    @functools.cached_property
    def pre_sets(self) -> tuple[frozenset[Atom], frozenset[Atom]]:
        """The atoms the preconditions need true and false: whether all hold is two set tests
        instead of one per literal (`check_plan` lists the unmet ones only when some fail)."""
        return (frozenset(lit.atom for lit in self.pre if lit.positive),
                frozenset(lit.atom for lit in self.pre if not lit.positive))

    @functools.cached_property
    def _text(self) -> str:
        """Kept on the (interned, one per task) ground action: a thinking trace names each
        action thousands of times."""
        return atom_text((self.schema.name, *self.args))


@dataclass
class Task:
    """A domain and a problem, with what every replay of a plan on them needs precomputed."""

    domain: Domain
    problem: Problem
    objects: dict[str, str] = field(default_factory=dict)
    _ground: dict[tuple[str, tuple[str, ...]], GroundAction] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.objects = {**self.domain.constants, **self.problem.objects}

    def ground(self, name: str, args: tuple[str, ...]) -> GroundAction:
        key = (name, args)
        hit = self._ground.get(key)
        if hit is not None:
            return hit
        schema = self.domain.actions[name]
        binding = dict(zip(schema.params, args))

        def sub(atom: Atom) -> Atom:
            return (atom[0], *(binding.get(t, t) for t in atom[1:]))

        ground = GroundAction(
            schema=schema,
            args=args,
            pre=tuple(Literal(sub(lit.atom), lit.positive) for lit in schema.pre),
            equalities=tuple((binding.get(a, a), binding.get(b, b), pos) for a, b, pos in schema.equalities),
            add=frozenset(sub(a) for a in schema.add),
            delete=frozenset(sub(a) for a in schema.delete),
        )
        self._ground[key] = ground
        return ground

    def type_errors(self, action: GroundAction) -> list[str]:
        """Arguments whose declared type does not fit the parameter (typed domains only)."""
        errors = []
        for param, ptype, arg in zip(action.schema.params, action.schema.param_types, action.args):
            if ptype == "object":
                continue
            otype = self.objects.get(arg)
            if otype is None or not self.domain.is_subtype(otype, ptype):
                errors.append(f"{arg} is not a {ptype} (parameter {param})")
        return errors


def unmet_preconditions(action: GroundAction, state: frozenset[Atom] | set[Atom]) -> list[Literal]:
    """All preconditions that do not hold, in the order the domain lists them (as VAL's advice)."""
    needed, excluded = action.pre_sets
    if needed <= state and excluded.isdisjoint(state):
        return []
    return [lit for lit in action.pre if (lit.atom in state) != lit.positive]


def unmet_equalities(equalities: Iterable[tuple[str, str, bool]]) -> list[str]:
    return [f"(= {a} {b})" if pos else f"(not (= {a} {b}))" for a, b, pos in equalities if (a == b) != pos]


def apply(action: GroundAction, state: frozenset[Atom]) -> frozenset[Atom]:
    """Delete effects first, then add effects (VAL: an atom both added and deleted stays true)."""
    return (state - action.delete) | action.add


def unmet_goals(problem: Problem, state: frozenset[Atom] | set[Atom]) -> list[Literal]:
    return [lit for lit in problem.goal if (lit.atom in state) != lit.positive]
