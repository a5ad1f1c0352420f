"""BIG-Bench's tracking_shuffled_objects prompt read into people, their objects, the swaps in
order, whose object is asked for, and the options; and object names as traces shorten them.

"Alice, Bob, and Claire are ... : Alice has a red ball, Bob is playing striker, and Claire gets
Frankenstein. ... First, Alice and Bob swap balls. Then, ... Finally, ... At the end of the
game, Bob has the\\nOptions:\\n(A) red ball. ..." Objects are named as the prompt names them;
a trace may shorten them ("red" for "red ball", "Gatsby" for "The Great Gatsby"), so a name is
resolved to the one object whose words it shares (`resolve`), or to nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAMES = re.compile(r"^\s*((?:[A-Z][a-z]+,\s+)+(?:and\s+)?[A-Z][a-z]+|[A-Z][a-z]+\s+and\s+[A-Z][a-z]+)\s+are\b")
_SWAP = re.compile(r"\b(?:First|Then|Finally),\s+([A-Z][a-z]+)\s+and\s+([A-Z][a-z]+)\s+(?:swap|trade|switch)", re.I)
_OPTION = re.compile(r"^\(([A-G])\)\s*(.+?)\.?\s*$", re.M)
_ASKED = re.compile(r"At the end of the [a-z]+,\s+([A-Z][a-z]+)\s+(?:has|is)\b")
VERB = r"(?:has|gets|is\s+playing|is\s+dancing\s+with|is\s+holding|holds|is\s+reading|is\s+with)"
_HOLDING = re.compile(rf"^\s*(?:and\s+)?([A-Z][a-z]+)\s+{VERB}\s+(?:an?\s+|the\s+)?(.+?)\s*$")
_FILLER = {"the", "a", "an", "ball", "present", "gift", "book", "of"}


def words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.findall(r"[a-z0-9][a-z0-9'-]*", text.lower()) if w not in _FILLER)


@dataclass(frozen=True)
class Problem:
    people: tuple[str, ...]
    start: dict[str, str]
    swaps: tuple[tuple[str, str], ...]
    asked: str | None
    options: dict[str, str]

    def resolve(self, text: str) -> str | None:
        """The one object `text` names (same words, or a part of its words), else None."""
        said = words(text)
        if not said:
            return None
        objects = sorted(set(self.start.values()))
        exact = [o for o in objects if words(o) == said]
        if exact:
            return exact[0]
        part = [o for o in objects if set(said) <= set(words(o)) or set(words(o)) <= set(said)]
        return part[0] if len(part) == 1 else None

    def person(self, text: str) -> str | None:
        """A person by name, or by initial ("A:" for Alice) when the initial is unique."""
        text = text.strip()
        if text in self.people:
            return text
        if len(text) == 1:
            hits = [p for p in self.people if p.startswith(text.upper())]
            return hits[0] if len(hits) == 1 else None
        return None

    def option_of(self, obj: str) -> str | None:
        hits = [k for k, v in self.options.items() if self.resolve(v) == obj]
        return hits[0] if len(hits) == 1 else None


def read_problem(problem: dict) -> Problem | None:
    text = problem.get("input") or problem.get("question") or ""
    if not isinstance(text, str):
        return None
    m = _NAMES.search(text)
    if m is None:
        return None
    people = tuple(re.findall(r"[A-Z][a-z]+", m.group(1)))
    head = text.split("\n", 1)[0]
    colon = head.find(":")
    if colon < 0:
        return None
    start: dict[str, str] = {}
    for part in re.split(r",\s*", head[colon + 1:].rstrip(" .")):
        h = _HOLDING.match(part)
        if h and h.group(1) in people:
            start[h.group(1)] = h.group(2).strip()
    swaps = tuple((a, b) for a, b in _SWAP.findall(text) if a in people and b in people)
    if set(start) != set(people) or not swaps:
        return None
    asked = _ASKED.search(text)
    options = {k: v.strip() for k, v in _OPTION.findall(text)}
    return Problem(people, start, swaps, asked.group(1) if asked and asked.group(1) in people else None, options)


def recognise(problem: dict) -> bool:
    return read_problem(problem) is not None
