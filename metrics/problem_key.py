"""Which records pose the same problem, and which answers say the same thing.

`problem_hash` is a canonical hash of a record's problem, so one problem written twice (other
whitespace, case, comments, fact order, problem name, Countdown numbers in another order) is
one problem and can be compared across models and samples. `answer_key` is the normalised
answer a majority vote counts. Both are pure and cheap: the writer stores them with each record
(db/rows.py) and migration 8 fills them in for rows stored before.

What is canonicalised, per kind of problem:

* PDDL (`domain_pddl`, `problem_pddl`): comments, whitespace and case; the problem's and the
  domain's names (they do not change the task); objects as a set (with their types); the facts of
  `:init` as a set; conjunctions (`and`) in `:goal` and elsewhere as sets; actions of the domain
  in any order. Fact order never changes a STRIPS task (PDDL 1.2: `:init` is a set of literals).
* Countdown: the given numbers as a multiset (the order they are listed in never matters) and
  the target.
* A domain that knows better says so through its `DomainSpec.problem_identity` hook (mazes:
  start, goal and walls however they are written, validators/astar/maze_identity.py); the caller
  passes the hook in (`validators.identity.record_problem_hash`), since this package sits below
  the registry.
* Anything else: the problem as canonical JSON (keys sorted, strings with whitespace collapsed).
"""

from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from typing import Any, Callable

HASH_CHARS = 32

_COMMENT = re.compile(r";[^\n]*")
_TOKEN = re.compile(r"\(|\)|[^\s()]+")
SExpr = str | list["SExpr"]


MAX_DEPTH = 200  # PDDL problems nest a few levels; hostile input is keyed by its tokens instead


class _TooDeep(ValueError):
    pass


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_COMMENT.sub(" ", text).lower())


def _sexprs(text: str) -> list[SExpr]:
    """Every top-level s-expression of PDDL text (lower-cased, comments dropped); unbalanced
    input closes what is open, so a broken problem still gets a stable key."""
    stack: list[list[SExpr]] = [[]]
    for tok in _tokens(text):
        if tok == "(":
            if len(stack) > MAX_DEPTH:
                raise _TooDeep
            stack.append([])
        elif tok == ")":
            if len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            stack[-1].append(tok)
    while len(stack) > 1:
        done = stack.pop()
        stack[-1].append(done)
    return stack[0]


def _show(expr: SExpr) -> str:
    return expr if isinstance(expr, str) else "(" + " ".join(_show(e) for e in expr) + ")"


def _canon(expr: SExpr) -> str:
    """Canonical text of an expression; the children of `and` (and `or`) are a set."""
    if isinstance(expr, str):
        return expr
    parts = [_canon(e) for e in expr]
    if parts and parts[0] in ("and", "or"):
        parts = [parts[0], *sorted(set(parts[1:]))]
    return "(" + " ".join(parts) + ")"


def _typed_objects(items: list[SExpr]) -> list[str]:
    """`a b - block c` -> ['a - block', 'b - block', 'c'], sorted: a set of (name, type)."""
    out: list[str] = []
    pending: list[str] = []
    words = [w for w in items if isinstance(w, str)]
    i = 0
    while i < len(words):
        if words[i] == "-" and i + 1 < len(words):
            out += [f"{name} - {words[i + 1]}" for name in pending]
            pending = []
            i += 2
            continue
        pending.append(words[i])
        i += 1
    return sorted(set(out + pending))


def _section(expr: list[SExpr]) -> tuple[str, str]:
    """(sort key, canonical text) of one part of a `define`."""
    head = expr[0] if expr and isinstance(expr[0], str) else ""
    rest = expr[1:]
    if head in ("problem", "domain"):
        return head, f"({head})"  # the name does not change the task
    if head == ":domain":
        return head, "(:domain)"
    if head in (":objects", ":constants", ":types"):
        return head, f"({head} " + " ".join(_typed_objects(rest)) + ")"
    if head == ":init":
        return head, "(:init " + " ".join(sorted({_canon(e) for e in rest})) + ")"
    if head in (":action", ":durative-action", ":derived"):
        name = rest[0] if rest and isinstance(rest[0], str) else ""
        return f"{head} {name}", _canon(expr)
    return head, _canon(expr)


def canonical_pddl(text: str) -> str:
    """PDDL text in a canonical form (see the module docstring)."""
    try:
        exprs = _sexprs(text or "")
    except _TooDeep:
        return "tokens: " + " ".join(_tokens(text))
    out = []
    for expr in exprs:
        if isinstance(expr, list) and expr and expr[0] == "define":
            sections = sorted(_section(e) if isinstance(e, list) else (e, e) for e in expr[1:])
            out.append("(define " + " ".join(s for _, s in sections) + ")")
        else:
            out.append(_show(expr))
    return " ".join(out)


def _squash(value: Any) -> Any:
    """Canonical JSON value: strings with whitespace collapsed, keys sorted by json.dumps."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        return {str(k): _squash(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_squash(v) for v in value]
    return value


def _number_key(value: Any) -> Any:
    try:
        return str(Fraction(str(value)))
    except (ValueError, ZeroDivisionError):
        return str(value)


Identity = Callable[[dict[str, Any], str], "str | None"]


def canonical_problem(problem: dict[str, Any], trace: str = "", identity: Identity | None = None) -> str:
    """The canonical text `problem_hash` hashes; `identity` is the domain's own (None: generic)."""
    problem = problem if isinstance(problem, dict) else {}
    if isinstance(problem.get("problem_pddl"), str) or isinstance(problem.get("domain_pddl"), str):
        parts = {k: canonical_pddl(problem[k]) for k in ("domain_pddl", "problem_pddl")
                 if isinstance(problem.get(k), str)}
        return "pddl:" + json.dumps(parts, sort_keys=True, separators=(",", ":"))
    numbers = problem.get("numbers", problem.get("nums"))
    if isinstance(numbers, list) and "target" in problem:
        return "countdown:" + json.dumps({"numbers": sorted(_number_key(n) for n in numbers),
                                          "target": _number_key(problem["target"])}, separators=(",", ":"))
    if identity is not None:
        own = identity(problem, trace)
        if own is not None:
            return own
    try:
        return "json:" + json.dumps(_squash(problem), sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                                    default=str)
    except RecursionError:  # hostile nesting: the same walk without recursion
        return "json-deep:" + _flat_dump(problem)


def _flat_dump(value: Any) -> str:
    """A canonical dump of any JSON value with an explicit stack (keys sorted)."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Mark):
            out.append(item.text)
        elif isinstance(item, dict):
            stack.append(_Mark("}"))
            for key in sorted(item, key=str, reverse=True):
                stack += [item[key], _Mark(json.dumps(str(key)) + ":")]
            out.append("{")
        elif isinstance(item, list):
            stack.append(_Mark("]"))
            stack += reversed(item)
            out.append("[")
        else:
            out.append(json.dumps(" ".join(item.split()) if isinstance(item, str) else item, default=str) + ",")
    return "".join(out)


class _Mark:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def problem_hash(domain: str, problem: dict[str, Any], trace: str = "", identity: Identity | None = None) -> str:
    """Canonical hash of (domain, problem): equal for the same problem however it is written."""
    blob = f"{domain}\n{canonical_problem(problem, trace, identity)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(blob).hexdigest()[:HASH_CHARS]


_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = " \t\n.;:!,"


def answer_key(answer: str, notes: dict[str, Any] | None = None) -> str | None:
    """The answer as a majority vote counts it, or None when there is none.

    A plan is the sequence of actions the validator read from it (`notes.answer_plan`), so the
    same plan worded two ways is one vote; a number is its exact value ("40", "40.0"); any other
    answer is its text, lower-cased, whitespace collapsed, without surrounding punctuation."""
    plan = (notes or {}).get("answer_plan")
    if plan:
        actions = [str(a.get("action") or a.get("text") or "?").lower() for a in plan if isinstance(a, dict)]
        return _digest("plan:" + "|".join(actions))
    text = _SPACE.sub(" ", (answer or "").strip().lower()).strip(_EDGE_PUNCT)
    if not text:
        return None
    try:
        return _digest("number:" + str(Fraction(text.replace(",", ""))))
    except (ValueError, ZeroDivisionError):
        return _digest("text:" + text.replace(" ", "") if _EXPRESSION.fullmatch(text) else "text:" + text)


_EXPRESSION = re.compile(r"[\d\s+\-*/×÷().=]+")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]
