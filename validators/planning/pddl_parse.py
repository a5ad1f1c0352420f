"""PDDL domain and problem files -> `strips.Domain` / `strips.Problem`, cached by content hash.

`pddl.lark` turns the text into s-expressions; this module reads the PDDL structure from them
so every error can name the construct it is about. Supported: STRIPS, `:typing`,
`:negative-preconditions`, `:equality`, `:constants`; numeric `total-cost` bookkeeping is
ignored (noted). Disjunctions, quantifiers and conditional effects are rejected with a message.
One ')' too many at the very end of a file is dropped with a note (`Domain.notes`,
`Problem.notes`): VAL accepts such files, and PlanBench's 2024 prompts hold them.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, NoReturn, Union

from lark import Lark, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from validators.planning.strips import ActionSchema, Atom, Domain, Literal, Problem, Task

SExp = Union[str, list["SExp"]]


class PddlError(ValueError):
    """A PDDL file that cannot be read as a STRIPS domain/problem; the message is for users."""


class _ToLists(Transformer):
    def start(self, items: list[Any]) -> list[Any]:
        return list(items)

    def sexp(self, items: list[Any]) -> list[Any]:
        return [str(i).lower() if not isinstance(i, list) else i for i in items]


_COMMENTS = re.compile(r";[^\n]*")
_PARSER = Lark.open(str(Path(__file__).with_name("pddl.lark")), parser="lalr", transformer=_ToLists())


def _surplus_close(text: str) -> int | None:
    """Where the one unmatched ')' that ends the text is, when only blanks and comments follow
    it; None when every ')' is matched or anything else follows (more of them included)."""
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i if not _COMMENTS.sub("", text[i + 1:]).strip() else None
            depth -= 1
        i += 1
    return None


def read_sexps(text: str, what: str, notes: list[str] | None = None) -> list[SExp]:
    """The s-expressions of a PDDL file. One ')' too many at its very end (PlanBench's 2024 prompts
    close the problem once more) is dropped with a note in `notes`, as VAL accepts such a file."""
    try:
        return _PARSER.parse(text)
    except UnexpectedToken as exc:
        cut = _surplus_close(text) if exc.token.type != "$END" else None
        if cut is None:
            _raise(exc, what)
        sexps = read_sexps(text[:cut], what)
        if notes is not None:
            notes.append(f"{what}: one ')' too many at the end (line {text.count(chr(10), 0, cut) + 1}), "
                         "ignored as VAL ignores it")
        return sexps
    except LarkError as exc:
        _raise(exc, what)


def _raise(error: LarkError, what: str) -> NoReturn:
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        raise PddlError(f"{what}: unbalanced parentheses (the text ends inside an expression)") from None
    if isinstance(error, UnexpectedToken):
        raise PddlError(f"{what}: unexpected '{error.token}' at line {error.line}, column {error.column} "
                        "(unbalanced parentheses?)") from None
    if isinstance(error, UnexpectedCharacters):
        raise PddlError(f"{what}: unexpected text at line {getattr(error, 'line', '?')}, "
                        f"column {getattr(error, 'column', '?')}") from None
    raise PddlError(f"{what}: {error}") from None


def _define(sexps: list[SExp], kind: str, what: str) -> list[SExp]:
    for s in sexps:
        if isinstance(s, list) and len(s) >= 2 and s[0] == "define" and isinstance(s[1], list) \
                and s[1] and s[1][0] == kind:
            return s
    raise PddlError(f"{what}: no (define ({kind} ...) ...) found")


def _typed_list(items: list[SExp], what: str) -> list[tuple[str, str]]:
    """`a b - t c` -> [(a, t), (b, t), (c, object)]."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    i = 0
    while i < len(items):
        tok = items[i]
        if tok == "-":
            if i + 1 >= len(items):
                raise PddlError(f"{what}: '-' without a type")
            typ = items[i + 1]
            if isinstance(typ, list):
                raise PddlError(f"{what}: '(either ...)' types are not supported")
            out.extend((name, typ) for name in pending)
            pending = []
            i += 2
            continue
        if isinstance(tok, list):
            raise PddlError(f"{what}: unexpected list {_show(tok)}")
        pending.append(tok)
        i += 1
    out.extend((name, "object") for name in pending)
    return out


def _show(s: SExp) -> str:
    return s if isinstance(s, str) else "(" + " ".join(_show(x) for x in s) + ")"


def _atom(s: SExp, what: str) -> Atom:
    if not isinstance(s, list) or not s or not isinstance(s[0], str) or any(isinstance(x, list) for x in s):
        raise PddlError(f"{what}: expected an atom, got {_show(s)}")
    return tuple(s)  # type: ignore[arg-type]


_UNSUPPORTED = {"or", "imply", "forall", "exists", "when", "either"}


def _conjunction(s: SExp, what: str) -> tuple[list[Literal], list[tuple[str, str, bool]]]:
    """A precondition/goal that is a conjunction of literals and (in)equalities."""
    lits: list[Literal] = []
    eqs: list[tuple[str, str, bool]] = []

    def walk(f: SExp, positive: bool) -> None:
        if not isinstance(f, list):
            raise PddlError(f"{what}: expected a formula, got {f!r}")
        if not f:
            return
        head = f[0]
        if head == "and" and positive:
            for g in f[1:]:
                walk(g, True)
        elif head == "not" and positive and len(f) == 2:
            walk(f[1], False)
        elif head == "=" and len(f) == 3:
            eqs.append((str(f[1]), str(f[2]), positive))
        elif head in _UNSUPPORTED or head == "and" or head == "not":
            raise PddlError(f"{what}: '{head}' is not STRIPS; only conjunctions of (negated) atoms are supported")
        else:
            lits.append(Literal(_atom(f, what), positive))

    walk(s, True)
    return lits, eqs


def _effects(s: SExp, what: str, notes: list[str]) -> tuple[list[Atom], list[Atom]]:
    add: list[Atom] = []
    delete: list[Atom] = []

    def walk(f: SExp) -> None:
        if not isinstance(f, list):
            raise PddlError(f"{what}: expected an effect, got {f!r}")
        if not f:
            return
        head = f[0]
        if head == "and":
            for g in f[1:]:
                walk(g)
        elif head == "not" and len(f) == 2:
            delete.append(_atom(f[1], what))
        elif head in {"increase", "decrease", "assign", "scale-up", "scale-down"}:
            note = "numeric effects (action costs) are ignored; plans are checked for STRIPS validity"
            if note not in notes:
                notes.append(note)
        elif head in _UNSUPPORTED:
            raise PddlError(f"{what}: '{head}' effects are not supported (STRIPS only)")
        else:
            add.append(_atom(f, what))

    walk(s)
    return add, delete


def _action(body: list[SExp], notes: list[str]) -> ActionSchema:
    if len(body) < 2 or not isinstance(body[1], str):
        raise PddlError("domain: an (:action ...) without a name")
    name = body[1]
    what = f"action {name}"
    fields: dict[str, SExp] = {}
    i = 2
    while i < len(body):
        key = body[i]
        if not isinstance(key, str) or not key.startswith(":") or i + 1 >= len(body):
            raise PddlError(f"{what}: expected ':parameters', ':precondition' or ':effect', got {_show(key)}")
        fields[key] = body[i + 1]
        i += 2
    params_sexp = fields.get(":parameters", [])
    if not isinstance(params_sexp, list):
        raise PddlError(f"{what}: :parameters must be a list")
    params = _typed_list(params_sexp, what)
    pre, eqs = _conjunction(fields.get(":precondition", []), what)
    add, delete = _effects(fields.get(":effect", []), what, notes)
    return ActionSchema(
        name=name,
        params=tuple(p for p, _ in params),
        param_types=tuple(t for _, t in params),
        pre=tuple(pre),
        equalities=tuple(eqs),
        add=tuple(add),
        delete=tuple(delete),
    )


def _parse_domain(text: str) -> Domain:
    notes: list[str] = []
    d = _define(read_sexps(text, "domain", notes), "domain", "domain")
    name = d[1][1] if len(d[1]) > 1 else ""
    requirements: set[str] = set()
    types: dict[str, str] = {}
    constants: dict[str, str] = {}
    predicates: dict[str, int] = {}
    actions: dict[str, ActionSchema] = {}
    for section in d[2:]:
        if not isinstance(section, list) or not section:
            continue
        head = section[0]
        rest = section[1:]
        if head == ":requirements":
            requirements.update(str(r) for r in rest)
        elif head == ":types":
            for child, parent in _typed_list(rest, "domain :types"):
                types[child] = parent
        elif head == ":constants":
            constants.update(_typed_list(rest, "domain :constants"))
        elif head == ":predicates":
            for pred in rest:
                if not isinstance(pred, list) or not pred:
                    raise PddlError(f"domain :predicates: expected (name ?args), got {_show(pred)}")
                predicates[str(pred[0])] = len(_typed_list(pred[1:], f"predicate {pred[0]}"))
        elif head == ":action":
            action = _action(section, notes)
            actions[action.name] = action
        elif head in {":functions", ":derived", ":durative-action"}:
            if rest and head != ":functions":
                raise PddlError(f"domain: {head} is not supported (STRIPS only)")
        else:
            raise PddlError(f"domain: unknown section {head}")
    if not actions:
        raise PddlError("domain: no actions defined")
    for action in actions.values():
        for atom in (*(lit.atom for lit in action.pre), *action.add, *action.delete):
            if predicates and atom[0] not in predicates:
                raise PddlError(f"action {action.name}: predicate {atom[0]!r} is not declared in :predicates")
    return Domain(name, frozenset(requirements), types, constants, predicates, actions, tuple(notes))


def _parse_problem(text: str) -> Problem:
    notes: list[str] = []
    p = _define(read_sexps(text, "problem", notes), "problem", "problem")
    name = p[1][1] if len(p[1]) > 1 else ""
    domain_name = ""
    objects: dict[str, str] = {}
    init: set[Atom] = set()
    goal: list[Literal] = []
    goal_eqs: list[tuple[str, str, bool]] = []
    for section in p[2:]:
        if not isinstance(section, list) or not section:
            continue
        head, rest = section[0], section[1:]
        if head == ":domain":
            domain_name = str(rest[0]) if rest else ""
        elif head == ":objects":
            objects.update(_typed_list(rest, "problem :objects"))
        elif head == ":init":
            for fact in rest:
                if isinstance(fact, list) and fact and fact[0] == "=":
                    continue
                init.add(_atom(fact, "problem :init"))
        elif head == ":goal":
            if len(rest) != 1:
                raise PddlError("problem: :goal must hold one formula")
            lits, eqs = _conjunction(rest[0], "problem :goal")
            goal.extend(lits)
            goal_eqs.extend(eqs)
        elif head in {":metric", ":requirements"}:
            continue
        else:
            raise PddlError(f"problem: unknown section {head}")
    return Problem(name, domain_name, objects, frozenset(init), tuple(goal), tuple(goal_eqs), tuple(notes))


class _HashCache:
    """A small LRU keyed by the sha256 of the input text(s): same content, same parse."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, Any] = OrderedDict()

    def get_or_make(self, texts: tuple[str, ...], make: Callable[[], Any]) -> Any:
        h = hashlib.sha256()
        for t in texts:
            h.update(t.encode("utf-8", "surrogatepass"))
            h.update(b"\x00")
        key = h.hexdigest()
        hit = self.items.get(key)
        if hit is not None:
            self.items.move_to_end(key)
            if isinstance(hit, PddlError):
                raise hit
            return hit
        try:
            value = make()
        except PddlError as exc:
            value = exc
        except RecursionError:
            value = PddlError("the PDDL is nested too deeply to read (more levels than any real domain uses)")
        self.items[key] = value
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        if isinstance(value, PddlError):
            raise value
        return value


_DOMAINS = _HashCache(256)
_PROBLEMS = _HashCache(4096)
_TASKS = _HashCache(4096)
# The tasks of recent texts, found by the texts themselves: a reward batch passes the same problem
# strings again and again, and Python keeps a string's hash, where the sha256 key of _TASKS is
# computed afresh for every call. Errors are not kept here (they go through _TASKS each time).
_RECENT_TASKS: dict[tuple[str, str], Task] = {}


def parse_domain(text: str) -> Domain:
    return _DOMAINS.get_or_make((text,), lambda: _parse_domain(text))


def parse_problem(text: str) -> Problem:
    return _PROBLEMS.get_or_make((text,), lambda: _parse_problem(text))


def _make_task(domain_text: str, problem_text: str) -> Task:
    domain = parse_domain(domain_text)
    problem = parse_problem(problem_text)
    for lit in problem.goal:
        if domain.predicates and lit.atom[0] not in domain.predicates:
            raise PddlError(f"problem :goal: predicate {lit.atom[0]!r} is not declared in the domain")
    return Task(domain, problem)


def load_task(domain_text: str, problem_text: str) -> Task:
    """The task of a domain+problem pair; repeated pairs reuse the parse and grounding cache."""
    if not domain_text or not domain_text.strip():
        raise PddlError("the problem has no domain_pddl")
    if not problem_text or not problem_text.strip():
        raise PddlError("the problem has no problem_pddl")
    key = (domain_text, problem_text)
    task = _RECENT_TASKS.get(key)
    if task is None:
        task = _TASKS.get_or_make(key, lambda: _make_task(domain_text, problem_text))
        _RECENT_TASKS[key] = task
        if len(_RECENT_TASKS) > _TASKS.size:
            try:
                del _RECENT_TASKS[next(iter(_RECENT_TASKS))]
            except (KeyError, RuntimeError, StopIteration):
                pass  # another thread evicted first
    return task
