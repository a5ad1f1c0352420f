"""BIG-Bench's logical_deduction puzzle read into objects, statements and options.

"- On a shelf, there are five books: a white book, a green book, ... - The white book is the
leftmost. - The red book is to the right of the green book. ... Options: (A) The white book is
the second from the left." Every statement becomes a constraint on positions 1..n, where 1 is
the left, the first finisher, the oldest or the cheapest; statements Stepscope cannot read are
kept as None (and make the puzzle undecided rather than guessed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_ORD = "|".join(ORDINALS)
_OBJECTS = re.compile(r"^-?\s*.*?(?:there (?:are|were)|sells)\s+\w+\s+[\w ]+?:\s*(?P<list>.+?)\.?\s*$", re.M)
_OPTION = re.compile(r"^\(([A-G])\)\s*(.+?)\s*$", re.M)
# relation words: the first object's position is lower (<) or higher (>) than the second's
_RELATIONS = (("to the left of", "<"), ("to the right of", ">"), ("above", "<"), ("below", ">"),
              ("older than", "<"), ("newer than", ">"), ("less expensive than", "<"), ("cheaper than", "<"),
              ("more expensive than", ">"))

# ("at", obj, position), ("le"/"ge", obj, position: "third or higher"), ("rel", a, "<b" or ">b")
Constraint = tuple[str, str, int | str]


@dataclass(frozen=True)
class Puzzle:
    objects: tuple[str, ...]
    statements: tuple[tuple[str, Constraint | None], ...]
    options: dict[str, Constraint | None]

    finishing: bool = False  # positions are places in a finishing order ("Eve is fourth" reads)

    @property
    def n(self) -> int:
        return len(self.objects)

    def mentions(self, text: str) -> list[str]:
        """The objects a text names, in the order it names them."""
        found = []
        for obj in self.objects:
            m = re.search(_object_pattern(obj, self.objects), text, re.I)
            if m:
                found.append((m.start(), obj))
        return [o for _, o in sorted(found)]

    def constraint(self, text: str) -> Constraint | None:
        return read_constraint(self, text)


@lru_cache(maxsize=512)
def _object_pattern(obj: str, objects: tuple[str, ...]) -> str:
    """The words of `obj` that tell it from the others (a shared last word such as "book" may be left out)."""
    words = obj.split()
    shared = len(words) > 1 and all(o.split()[-1] == words[-1] for o in objects)
    core = " ".join(words[:-1]) if shared else obj
    tail = rf"(?:\s+{re.escape(words[-1])}s?)?" if shared else ""
    return rf"\b{re.escape(core)}{tail}\b"


def _position(puzzle: Puzzle, text: str) -> int | None:
    """The absolute position a statement gives, on the 1..n axis."""
    n, t = puzzle.n, text.lower()
    m = re.search(rf"\b({_ORD})(?:-| )(?:from the )?(left|right)\b", t)
    if m:
        k = ORDINALS.index(m.group(1)) + 1
        return k if m.group(2) == "left" else n + 1 - k
    if "leftmost" in t:
        return 1
    if "rightmost" in t:
        return n
    m = re.search(rf"\b({_ORD})-to-last\b", t)
    if m:
        return n - ORDINALS.index(m.group(1))
    m = re.search(rf"\bfinished ({_ORD}|last)\b", t)
    if m:
        return n if m.group(1) == "last" else ORDINALS.index(m.group(1)) + 1
    m = re.search(rf"\b(?:({_ORD})[- ])?(oldest|newest|cheapest|most expensive|least expensive)\b", t)
    if m:
        k = ORDINALS.index(m.group(1)) + 1 if m.group(1) else 1
        return k if m.group(2) in ("oldest", "cheapest", "least expensive") else n + 1 - k
    m = re.search(rf"\b(?:is|be|are|was)\s+(?:the\s+)?({_ORD})\b(?!-)", t)
    if m and puzzle.finishing:
        return ORDINALS.index(m.group(1)) + 1
    return None


def read_constraint(puzzle: Puzzle, text: str) -> Constraint | None:
    named = puzzle.mentions(text)
    if len(named) == 2:
        low = text.lower()
        for words, op in _RELATIONS:
            if words in low:
                return ("rel", named[0], op + named[1])
        return None
    if len(named) == 1:
        m = re.search(rf"\b({_ORD}) or (higher|better|above|lower|worse|below)\b", text.lower())
        if m and puzzle.finishing:
            k = ORDINALS.index(m.group(1)) + 1
            return ("le" if m.group(2) in ("higher", "better", "above") else "ge", named[0], k)
        pos = _position(puzzle, text)
        return ("at", named[0], pos) if pos is not None else None
    return None


def holds(c: Constraint, where: dict[str, int]) -> bool:
    if c[0] == "at":
        return where[c[1]] == c[2]
    if c[0] in ("le", "ge"):
        return where[c[1]] <= int(c[2]) if c[0] == "le" else where[c[1]] >= int(c[2])
    op, other = str(c[2])[0], str(c[2])[1:]
    return where[c[1]] < where[other] if op == "<" else where[c[1]] > where[other]


@lru_cache(maxsize=256)
def orderings(objects: tuple[str, ...], constraints: frozenset) -> tuple[dict[str, int], ...]:
    """Every assignment of positions 1..n to the objects that meets all the constraints (n <= 7: 5,040)."""
    out = []
    for perm in permutations(range(1, len(objects) + 1)):
        where = dict(zip(objects, perm))
        if all(holds(c, where) for c in constraints):
            out.append(where)
    return tuple(out)


def read_puzzle(problem: dict) -> Puzzle | None:
    text = problem.get("input") or problem.get("question") or ""
    if not isinstance(text, str) or "Options:" not in text:
        return None
    m = _OBJECTS.search(text)
    if m is None:
        return None
    items = re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("list"))
    objects = tuple(re.sub(r"^(?:an?|the)\s+", "", i.strip(), flags=re.I) for i in items if i.strip())
    if not 2 <= len(objects) <= 7 or len(set(objects)) != len(objects):
        return None
    head = text.split("Q:", 1)[0]
    lines = [ln[2:].strip() for ln in head.split("\n") if ln.startswith("- ")][1:]
    finishing = any(" finished " in ln for ln in lines)
    puzzle = Puzzle(objects, (), {}, finishing)
    statements = tuple((ln, read_constraint(puzzle, ln)) for ln in lines)
    options = {k: read_constraint(puzzle, v) for k, v in _OPTION.findall(text.split("Options:", 1)[1])}
    return Puzzle(objects, statements, options, finishing)


def recognise(problem: dict) -> bool:
    p = read_puzzle(problem)
    return p is not None and "arranged in a fixed order" in str(problem.get("input", ""))

