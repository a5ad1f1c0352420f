"""Rules stated with role words instead of objects ("the object being attacked must be a Province,
another object must be a Planet"), judged against the action's schema.

PlanBench's Mystery templates write preconditions as "Province object, Planet object" and
"Province other object"; models misread these as facts of *some* object ("Pain object could be
any object") and then apply the misreading everywhere, so the misstatement is the root of many
later errors (thinking-claims.md, `rule` claims). Role words name a parameter: "the object" (and
"that object", "the object being attacked") the action's first, "the other object" its second;
"another object" on a one-object action, and "any object", name none of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from validators.planning.judge import schema_facts
from validators.planning.strips import Task

SELF = ("the object", "that object", "the same object", "this object", "object x")
OTHER = ("the other object", "other object", "another object", "a different object", "some other object", "object y")
ANY = ("any object", "any", "some object", "an object")
_CLAUSE_END = ",&;.:?!"
_OF = frozenset({"of", "on", "for", "to"})  # "adds Province to the other object"


@dataclass(frozen=True)
class RoleRule:
    """One fact said needed, added or removed for a role of an action."""

    predicate: str
    role: str          # the role words as written
    what: str          # "req", "add", "del"
    holds: bool
    message: str


def _role(phrase: str) -> str | None:
    if phrase in SELF:
        return "self"
    if phrase in OTHER:
        return "other"
    if phrase in ANY:
        return "any"
    return None


def is_role(phrase: str) -> bool:
    """Do the words name a role of an action ("the other object"), not just anything ("something")?"""
    return _role(phrase) is not None


def _param(task: Task, action: str, role: str) -> str | None:
    params = task.domain.actions[action].params
    if role == "self":
        return params[0] if params else None
    if role == "other" and len(params) > 1:
        return params[1]
    return None  # "another object" of a one-object action, "any object": none of its parameters


def judge_pair(task: Task, action: str, predicate: str, roles: tuple[str, str], phrase: str, what: str) -> RoleRule | None:
    """A two-object fact between role words ("the object craves the other object"), said needed
    (added, removed) by `action`: judged only when both roles name parameters of the action."""
    if task.domain.predicates.get(predicate, 0) != 2:
        return None
    first, second = _param(task, action, roles[0]), _param(task, action, roles[1])
    if first is None or second is None or first == second:
        return None
    schema = task.domain.actions[action]
    pool, verb = schema_facts(task, action, what)
    head = f"{action} {' '.join(schema.params)}"
    if (predicate, first, second) in pool:
        return RoleRule(predicate, phrase, what, True, f"{head} {verb} ({predicate} {first} {second}), of {phrase}: right")
    if not any(a[0] == predicate for a in pool):
        return None  # a predicate the action does not touch at all is the predicate rows' claim
    listed = ", ".join("(" + " ".join(a) + ")" for a in pool)
    return RoleRule(predicate, phrase, what, False,
                    f"says {head} {verb} ({predicate} {first} {second}), but it {verb} {listed}")


def judge_role(task: Task, action: str, predicate: str, role: str, phrase: str, what: str) -> RoleRule | None:
    """The fact `predicate` of the object `role` names, said needed (added, removed) by `action`."""
    schema = task.domain.actions[action]
    if task.domain.predicates.get(predicate, 0) != 1:
        return None  # a role binds a one-object fact; "craves" and "harmony" say more or less
    pool, verb = schema_facts(task, action, what)
    param = _param(task, action, role)
    listed = ", ".join("(" + " ".join(a) + ")" for a in pool) or "nothing"
    head = f"{action} {' '.join(schema.params)}"
    if param is not None and (predicate, param) in pool:
        return RoleRule(predicate, phrase, what, True, f"{head} {verb} ({predicate} {param}), of {phrase}: right")
    said = f"({predicate} {param})" if param is not None else f"({predicate} <{phrase}>)"
    return RoleRule(predicate, phrase, what, False, f"says {head} {verb} {said}, but it {verb} {listed}")


def role_rules(task: Task, shape: str, items: list[object], phrases: list[str | None], action: str,
               sense: str | None) -> list[tuple[int, RoleRule]]:
    """Each (letter, judged rule) for a fact bound to a role word in its clause: "g ... f" (the role
    is the clause's subject) or "f (g" / "f g" (the role follows the fact). `phrases[k]` is the
    words of letter k when it is a `g`; `sense` the unit's verb ("req", or None to read each
    clause's own D/X), and of a "_" the word it stands for."""
    out: list[tuple[int, RoleRule]] = []
    role_at: int | None = None
    for k, ch in enumerate(shape):
        if ch in _CLAUSE_END:
            role_at = None  # "the object must be a Province, another object ...": one subject per clause
        if ch == "g" and re.search(r"a_?(?:g_?)?$", shape[:k]):
            role_at = None  # "Feast object from other object adds ...", "Succumb to an object with Pain":
            continue        # the action's own objects, not the subject of a clause
        if ch == "g" and _role(phrases[k] or "") is not None:
            role_at = k
            continue
        if ch != "f":
            continue
        trailing = re.match(r"\(?g", shape[k + 1:])
        if trailing is None and phrases[k + 1] in _OF and (of := re.match(r"_g", shape[k + 1:])) is not None \
                and _role(phrases[k + of.end()] or "") in ("self", "other"):
            trailing = of  # "Pain of the other object"; not "Pain on some object", "Pain on an object" (which
            # object is left open, not said to be any)
        at = role_at
        if trailing is not None and _role(phrases[k + trailing.end()] or "") is not None:
            at = k + trailing.end()  # "Planet (another object)", "Province other object"
        what = sense or _clause_verb(shape, k)
        pred = getattr(items[k], "predicate", None)
        if at is None or what is None or pred is None:
            continue
        if task.domain.predicates.get(pred, 0) == 2:  # "the object craves the other object"
            if role_at is None or trailing is None or at == role_at:
                continue
            pair = (_role(phrases[role_at] or "") or "", _role(phrases[at] or "") or "")
            got = judge_pair(task, action, pred, pair, f"{phrases[role_at]} / {phrases[at]}", what)
            if got is not None:
                out.append((k, got))
            continue
        phrase = phrases[at] or ""
        got = judge_role(task, action, pred, _role(phrase) or "", phrase, what)
        if got is not None:
            out.append((k, got))
    return out


def _clause_verb(shape: str, k: int) -> str | None:
    """The verb that governs letter k: the nearest need/add/remove before it in its sentence part
    ("adds Pain (object) and Province (other object)"), else the first after it ("another object's
    Planet is removed")."""
    lo = max(shape.rfind(c, 0, k) for c in ";.:?!")
    hi = min((j for j in (shape.find(c, k) for c in ";.:?!") if j >= 0), default=len(shape))
    before = [j for j in range(lo + 1, k) if shape[j] in "RDX"]
    j = before[-1] if before else next((j for j in range(k + 1, hi) if shape[j] in "RDX"), None)
    return None if j is None else {"R": "req", "D": "add", "X": "del"}[shape[j]]
