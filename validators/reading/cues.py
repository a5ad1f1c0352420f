"""The cue lexicon (lexicon.json), matched on a unit's tokens.

A cue is a closed-class word or phrase that decides how a sentence is read (a requirement, an
addition, a hedge, a retraction ...). They are rows of data, each with the example it decides
and where that example came from, so that "why was this read as a claim?" has an answer: the
ids of the cues that fired. One list per class: the hedges that disagreed in six places before
are one row here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from validators.reading.text import Token, tokens_of

LEXICON = Path(__file__).with_name("lexicon.json")


@dataclass(frozen=True, slots=True)
class Cue:
    id: str
    cls: str
    phrases: tuple[tuple[str, ...], ...]
    example: str
    source: str


@dataclass(frozen=True, slots=True)
class Hit:
    cls: str
    cue: str
    i: int      # token range in the unit
    j: int


class CueIndex:
    """Every cue phrase keyed by its first token; a unit's hits in one pass over its tokens."""

    def __init__(self, cues: Iterable[Cue]) -> None:
        self.cues = {c.id: c for c in cues}
        self._first: dict[str, list[tuple[tuple[str, ...], Cue]]] = {}
        for cue in self.cues.values():
            for phrase in cue.phrases:
                self._first.setdefault(phrase[0], []).append((phrase, cue))
        for bucket in self._first.values():
            bucket.sort(key=lambda pc: -len(pc[0]))

    def hits(self, tokens: list[Token]) -> list[Hit]:
        words = [t.norm for t in tokens]
        out: list[Hit] = []
        adverbs = [k for k, w in enumerate(words) if w in INNER_ADVERBS] if not INNER_ADVERBS.isdisjoint(words) else []
        first = self._first
        for k, w in enumerate(words):
            bucket = first.get(w)
            if bucket is None:
                continue
            inner = bool(adverbs) and any(k < a <= k + 4 for a in adverbs)  # an adverb close after: try it between
            seen: set[str] = set()
            for phrase, cue in bucket:
                if cue.cls in seen:
                    continue
                end = k + len(phrase)
                if tuple(words[k:end]) != phrase:
                    if not inner or len(phrase) == 1:
                        continue
                    end = _loose_end(words, k, phrase)
                    if end < 0:
                        continue
                seen.add(cue.cls)
                out.append(Hit(cue.cls, cue.id, k, end))
        return out

    def cue(self, cue_id: str) -> Cue:
        return self.cues[cue_id]


# Adverbs a phrase may hold without changing what it says: "would also be possible" is "would be
# possible", "is also back" is "is back", "wouldn't even be possible" is "wouldn't be possible".
INNER_ADVERBS = frozenset({"also", "even", "really", "actually", "just", "certainly", "definitely", "indeed"})


def _loose_end(words: list[str], k: int, phrase: tuple[str, ...]) -> int:
    """Where `phrase` ends when read at `k` with inner adverbs between its words, or -1."""
    j = k + 1
    for p in phrase[1:]:
        while j < len(words) and words[j] != p and words[j] in INNER_ADVERBS:
            j += 1
        if j >= len(words) or words[j] != p:
            return -1
        j += 1
    return j


def _phrase(text: str) -> tuple[str, ...]:
    if text == "-":
        return ("-",)  # the minus sign, a token only before a word ("-Harmony"), so not one alone
    return tuple(t.norm for t in tokens_of(text, 0, len(text)))


@lru_cache(maxsize=None)
def lexicon() -> CueIndex:
    raw = json.loads(LEXICON.read_text(encoding="utf-8"))
    return CueIndex(Cue(row["id"], row["class"], tuple(p for p in map(_phrase, row["phrases"]) if p),
                        row["example"], row["source"]) for row in raw["cues"])


class UnitCues:
    """A unit's cue hits by class, with the questions readers ask of them."""

    __slots__ = ("hits", "by_cls")

    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits
        self.by_cls: dict[str, list[Hit]] = {}
        for h in hits:
            self.by_cls.setdefault(h.cls, []).append(h)

    def has(self, cls: str, lo: int = 0, hi: int = 10**9) -> bool:
        return any(lo <= h.i < hi for h in self.by_cls.get(cls, ()))

    def first(self, cls: str, lo: int = 0, hi: int = 10**9) -> Hit | None:
        return next((h for h in self.by_cls.get(cls, ()) if lo <= h.i < hi), None)

    def last(self, cls: str, lo: int = 0, hi: int = 10**9) -> Hit | None:
        found = [h for h in self.by_cls.get(cls, ()) if lo <= h.i < hi]
        return found[-1] if found else None

    def at(self, cls: str, k: int) -> Hit | None:
        return next((h for h in self.by_cls.get(cls, ()) if h.i == k), None)
